// toolguard-http: the HTTP client (cpp-httplib with OpenSSL) as a program of
// its own. The library starts it for one POST (src/http/http_helper.cpp),
// writes the request to its stdin and reads the answer from its stdout in
// frames (http_helper_protocol.hpp). To stop a transfer the library kills it.
#include <httplib.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "http/http_helper_protocol.hpp"
#include "http/http_transfer.h"
#include "http/tls_tunnel.hpp"

namespace {

namespace protocol = toolguard::detail::http_protocol;

struct Request {
  std::string origin, path, body;
  std::vector<std::pair<std::string, std::string>> headers;
  uint64_t connect_timeout_ms = 0, read_timeout_ms = 0, write_timeout_ms = 0;
  std::string client_certificate, client_key;  // PEM files; "" for none
};

bool readAll(int fd, std::string& out) {
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) return true;
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    out.append(buffer, static_cast<size_t>(n));
  }
}

bool decode(std::string_view text, Request& request) {
  if (text.substr(0, protocol::kGreeting.size()) != protocol::kGreeting) return false;
  protocol::FieldReader reader(text.substr(protocol::kGreeting.size()));
  uint64_t header_count = 0;
  if (!reader.field(request.origin) || !reader.field(request.path) || !reader.field(request.body) ||
      !reader.u64(header_count) || header_count > 1024) {
    return false;
  }
  for (uint64_t i = 0; i < header_count; ++i) {
    std::string name, value;
    if (!reader.field(name) || !reader.field(value)) return false;
    request.headers.emplace_back(std::move(name), std::move(value));
  }
  return reader.u64(request.connect_timeout_ms) && reader.u64(request.read_timeout_ms) &&
         reader.u64(request.write_timeout_ms) && reader.field(request.client_certificate) &&
         reader.field(request.client_key) && reader.done();
}

// Writes one frame whole; false when the library has gone (stop then).
bool sendFrame(char tag, std::string_view payload) {
  std::string frame(1, tag);
  protocol::putU32(frame, static_cast<uint32_t>(payload.size()));
  frame.append(payload);
  size_t sent = 0;
  while (sent < frame.size()) {
    const ssize_t n = ::write(1, frame.data() + sent, frame.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

bool sendStatus(int status, const std::string& content_type) {
  std::string payload;
  protocol::putU32(payload, static_cast<uint32_t>(status));
  payload += content_type;
  return sendFrame(protocol::kStatus, payload);
}

void sendEnd(int failure, bool client_made, std::string_view text) {
  std::string payload;
  protocol::putU32(payload, static_cast<uint32_t>(failure));
  protocol::putU32(payload, client_made ? 1 : 0);
  payload += text.substr(0, sizeof(toolguard_http_outcome::failure_text) - 1);
  sendFrame(protocol::kEnd, payload);
}

// The failure as the library hears it: a read or write that waited its
// whole timeout since the server was last heard from is a timeout; sooner,
// the connection broke.
int failureOf(httplib::Error error, const Request& request,
              std::chrono::steady_clock::duration since_heard) {
  const auto waited = [&](uint64_t timeout_ms) {
    return since_heard >= std::chrono::milliseconds(timeout_ms);
  };
  switch (error) {
    case httplib::Error::Success:
      return TOOLGUARD_HTTP_OK;
    case httplib::Error::Read:
      return waited(request.read_timeout_ms) ? TOOLGUARD_HTTP_READ_TIMEOUT : TOOLGUARD_HTTP_READ;
    case httplib::Error::Write:
      return waited(request.write_timeout_ms) ? TOOLGUARD_HTTP_WRITE_TIMEOUT : TOOLGUARD_HTTP_WRITE;
    case httplib::Error::ConnectionTimeout:
      return TOOLGUARD_HTTP_CONNECTION_TIMEOUT;
    default:
      return TOOLGUARD_HTTP_OTHER;
  }
}

void post(const Request& request) {
  httplib::Client client(request.origin, request.client_certificate, request.client_key);
  if (!client.is_valid()) {
    sendEnd(TOOLGUARD_HTTP_OTHER, false, "");
    return;
  }
  client.set_connection_timeout(std::chrono::milliseconds(request.connect_timeout_ms));
  client.set_read_timeout(std::chrono::milliseconds(request.read_timeout_ms));
  client.set_write_timeout(std::chrono::milliseconds(request.write_timeout_ms));
  client.set_keep_alive(false);

  httplib::Request req;
  req.method = "POST";
  req.path = request.path;
  req.body = request.body;
  for (const auto& [name, value] : request.headers) req.set_header(name, value);
  // When the server was last heard from (the request's start before that).
  auto last_heard = std::chrono::steady_clock::now();
  req.response_handler = [&last_heard](const httplib::Response& res) {
    last_heard = std::chrono::steady_clock::now();
    return sendStatus(res.status, res.get_header_value("Content-Type"));
  };
  req.content_receiver = [&last_heard](const char* data, size_t size, uint64_t, uint64_t) {
    last_heard = std::chrono::steady_clock::now();
    return sendFrame(protocol::kData, std::string_view(data, size));
  };
  httplib::Result result = client.send(req);
  const auto since_heard = std::chrono::steady_clock::now() - last_heard;
  // httplib skips the response handler for 204 (no body): the status comes from the result.
  if (result) sendStatus(result->status, result->get_header_value("Content-Type"));
  sendEnd(failureOf(result.error(), request, since_heard), true,
          result.error() == httplib::Error::Success ? "" : httplib::to_string(result.error()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]) == "--tunnel") {
    return toolguard::detail::runTlsTunnel();
  }
  std::string text;
  Request request;
  if (!readAll(0, text) || !decode(text, request)) {
    sendEnd(TOOLGUARD_HTTP_OTHER, false, "the HTTP helper got a malformed request");
    return 2;
  }
  try {
    post(request);
  } catch (const std::exception& e) {
    sendEnd(TOOLGUARD_HTTP_OTHER, true, std::string("the HTTP client failed: ") + e.what());
    return 1;
  }
  return 0;
}
