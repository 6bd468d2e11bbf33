// The pieces of one Streamable HTTP exchange (mcp/http_exchange.hpp).
#include "http_exchange.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "http/sse_parser.hpp"

namespace toolguard::mcp {
namespace {

using Json = nlohmann::json;
using Read = detail::HttpResponseStream::Read;

constexpr long kErrorBodyMs = 2000;
constexpr size_t kErrorBodyBytes = 64u << 10;
constexpr size_t kLongestEventId = 1024;
constexpr size_t kKeptConnections = 8;
constexpr long kShortestRetryMs = 250;

void noteMessage(const Json& message, Outgoing& out) {
  if (!message.is_object()) return;
  const auto method = message.find("method");
  if (method == message.end() || !method->is_string()) return;
  if (const auto id = message.find("id"); id != message.end() && !id->is_null()) {
    out.request_ids.push_back(*id);
    if (*method == "initialize") out.initialize = true;
  } else if (*method == "notifications/initialized") {
    out.initialized = true;
  }
}

bool isLoopbackAddress(const std::string& host) {
  in_addr v4{};
  if (::inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  return ::inet_pton(AF_INET6, host.c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

}  // namespace

bool readOutgoing(std::string_view line, Outgoing& out) {
  out.text = std::string(line);
  const Json message = Json::parse(line, nullptr, false);
  if (message.is_discarded()) return false;
  if (message.is_array()) {
    for (const Json& element : message) noteMessage(element, out);
  } else {
    noteMessage(message, out);
  }
  return true;
}

std::shared_ptr<detail::HttpResponseStream> KeptConnections::take() {
  const std::lock_guard<std::mutex> hold(mutex_);
  while (!idle_.empty()) {
    std::shared_ptr<detail::HttpResponseStream> stream = std::move(idle_.back());
    idle_.pop_back();
    if (stream->reusable()) {
      stream->forgetAnswer();
      return stream;
    }
  }
  return nullptr;
}

void KeptConnections::keep(const std::shared_ptr<detail::HttpResponseStream>& stream) {
  if (!stream->reusable()) return;
  const std::lock_guard<std::mutex> hold(mutex_);
  if (idle_.size() < kKeptConnections) idle_.push_back(stream);
}

detail::HttpUrl upstreamUrl(const std::string& url) {
  Expected<detail::HttpUrl> parsed = detail::parseHttpUrl(url);
  // The URL in messages without its query (which may hold a key).
  const std::string shown = url.substr(0, url.find('?'));
  if (!parsed) throw std::invalid_argument("--url " + shown + ": " + parsed.error());
  if (!parsed->tls && parsed->host == "localhost") parsed->host = "127.0.0.1";  // no lookup
  if (!parsed->tls && !isLoopbackAddress(parsed->host)) {
    throw std::invalid_argument(
        "--url " + shown +
        ": plain http:// only to this machine (localhost, 127.0.0.1, [::1]); use https:// for "
        "another: what goes to the server, its credentials included, would cross the network "
        "unencrypted");
  }
  return std::move(*parsed);
}

bool isVisibleAscii(const std::string& text, size_t longest) {
  if (text.empty() || text.size() > longest) return false;
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x21 && c <= 0x7e; });
}

std::string visiblePart(const std::string& text, size_t longest) {
  std::string out;
  for (char c : text) {
    if (out.size() == longest) break;
    if (c >= 0x20 && c < 0x7f) out += c;
  }
  return out;
}

bool readWhole(detail::HttpResponseStream& stream, std::string& body, size_t limit,
               long timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    long left = -1;
    if (timeout_ms >= 0) {
      left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                   std::chrono::steady_clock::now())
                 .count();
      if (left <= 0) return false;
    }
    const Read read = stream.read(body, left);
    if (read == Read::End) return true;
    if (read != Read::Data || body.size() > limit) return false;
  }
}

std::string withoutCredentials(std::string text,
                               const std::vector<std::pair<std::string, std::string>>& headers) {
  for (const auto& [name, value] : headers) {
    std::vector<std::string> secrets = {value};
    for (size_t start = 0; start < value.size();) {
      const size_t end = std::min(value.find(' ', start), value.size());
      if (end - start >= 6) secrets.push_back(value.substr(start, end - start));
      start = end + 1;
    }
    for (const std::string& secret : secrets) {
      if (secret.empty()) continue;
      for (size_t at = text.find(secret); at != std::string::npos;
           at = text.find(secret, at + 10)) {
        text.replace(at, secret.size(), "[REDACTED]");
      }
    }
  }
  return text;
}

std::string errorDetail(detail::HttpResponseStream& stream,
                        const std::vector<std::pair<std::string, std::string>>& headers) {
  std::string body;
  if (!readWhole(stream, body, kErrorBodyBytes, kErrorBodyMs)) return "";
  const Json parsed = Json::parse(body, nullptr, false);
  if (!parsed.is_object()) return "";
  const auto error = parsed.find("error");
  if (error == parsed.end() || !error->is_object()) return "";
  const auto message = error->find("message");
  if (message == error->end() || !message->is_string()) return "";
  return " (" + visiblePart(withoutCredentials(message->get<std::string>(), headers), 300) + ")";
}

size_t readEventStream(detail::HttpResponseStream& stream, size_t max_event_bytes,
                       EventStreamCursor& cursor,
                       const std::function<bool(std::string_view)>& on_message) {
  detail::SseParser parser(max_event_bytes);
  std::vector<detail::SseEvent> events;
  std::string chunk;
  size_t taken = 0;
  for (;;) {
    chunk.clear();
    if (stream.read(chunk, -1) != Read::Data) return taken;
    if (!parser.feed(chunk, events)) {
      cursor.error = parser.error();
      return taken;
    }
    bool more = true;
    for (const detail::SseEvent& event : events) {
      ++taken;
      if ((event.event.empty() || event.event == "message") && !event.data.empty()) {
        more = on_message(event.data) && more;
      }
    }
    events.clear();
    const std::string& id = parser.lastEventId();
    if (!id.empty() && isVisibleAscii(id, kLongestEventId)) cursor.last_id = id;
    if (parser.retryMs() >= 0) {
      cursor.retry_ms = std::clamp(parser.retryMs(), kShortestRetryMs, kLongestRetryMs);
    }
    if (!more) return taken;
  }
}

std::vector<std::string> answeredIds(const Json& message, const std::string& initialize_id,
                                     std::string& protocol_version) {
  std::vector<std::string> answered;
  auto note = [&](const Json& m) {
    if (!m.is_object() || m.contains("method")) return;
    const auto id = m.find("id");
    if (id == m.end() || (!m.contains("result") && !m.contains("error"))) return;
    answered.push_back(id->dump());
    if (initialize_id.empty() || answered.back() != initialize_id) return;
    const auto result = m.find("result");
    if (result != m.end() && result->is_object() && result->contains("protocolVersion") &&
        (*result)["protocolVersion"].is_string()) {
      const std::string version = (*result)["protocolVersion"].get<std::string>();
      if (isVisibleAscii(version, 64)) protocol_version = version;
    }
  };
  if (message.is_array()) {
    for (const Json& m : message) note(m);
  } else {
    note(message);
  }
  return answered;
}

}  // namespace toolguard::mcp
