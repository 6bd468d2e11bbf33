// `toolguard mcp --listen`: MCP's Streamable HTTP transport in front of the
// gateway. POST /mcp carries one message (an initialize opens a session);
// a request's answer comes on an event stream; GET /mcp opens the stream of
// the servers' own messages; DELETE /mcp ends the session.
#include "serve/mcp_http_face.hpp"

#include <signal.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "audit/audit_detail.hpp"
#include "core/unicode_text.hpp"
#include "mcp/jsonrpc.hpp"
#include "serve/http_server.hpp"
#include "serve/json_response.hpp"
#include "serve/listen_address.hpp"
#include "serve/mcp_http_session.hpp"
#include "serve/serve_auth.hpp"
#include "serve/serve_metrics.hpp"
#include "store/service_store.hpp"
#include "toolguard/strict_json.hpp"

namespace toolguard::serve {
namespace {

using json = nlohmann::json;
using FaceClock = std::chrono::steady_clock;

// A request's answer: a JSON-RPC error in a JSON body with an HTTP status.
HttpResponse rpcRefusal(int status, int code, const std::string& message) {
  HttpResponse r;
  r.status = status;
  r.body = mcp::errorResponse(nullptr, code, "toolguard mcp: " + message).dump();
  return r;
}

bool accepts(const HttpRequest& request, std::string_view type) {
  const std::string accept = request.header("accept");
  return accept.find(type) != std::string::npos || accept.find("*/*") != std::string::npos;
}

// "scheme://host[:port]" -> "host[:port]" (lower case); "" when it is no origin.
std::string hostOfOrigin(const std::string& origin) {
  const size_t scheme = origin.find("://");
  if (scheme == std::string::npos) return "";
  const std::string host = detail::asciiLowercase(origin.substr(scheme + 3));
  if (host.empty() || host.find('/') != std::string::npos) return "";
  return host;
}

// Whether handling a POST can wait for nothing: the handler only starts a
// request (its answer comes later, on its stream), and here nothing it does
// on the way blocks: tokens are in a local file, every server is a local
// process written to without blocking (starting one starts a thread), and
// no call is judged by asking the terminal, the service's queue or an LLM
// (an ask goes to the client by elicitation, answered later).
bool postsWaitForNothing(const store::ServiceStore& store, const McpGatewayOptions& gateway) {
  if (!store.local()) return false;
  return std::all_of(gateway.servers.begin(), gateway.servers.end(),
                     [](const McpGatewayServer& server) {
                       const McpAskChannel ask = server.proxy.ask;
                       return server.proxy.url.empty() && !server.guard_options.approval_handler &&
                              !server.guard_options.llm_validator &&
                              (ask == McpAskChannel::Elicitation || ask == McpAskChannel::None);
                     });
}

class McpHttpFace {
 public:
  McpHttpFace(const McpHttpFaceOptions& options, const McpGatewayOptions& gateway)
      : options_(options),
        gateway_(gateway),
        store_(store::openStore(options.store, toolguardHome(options.home))),
        authenticator_(*store_, metrics_, options.requests_per_second_per_token, ""),
        posts_at_once_(postsWaitForNothing(*store_, gateway)) {}

  ~McpHttpFace() { closeAll(); }

  // Whether `request` is handled on the event thread that read it, without
  // the hand-over to a handler thread (two thread switches a call).
  bool answersAtOnce(const HttpRequest& request) const {
    return posts_at_once_ && request.method == "POST";
  }

  // The names this service is reached by (Host headers), once the port is known.
  void allowHosts(const std::string& host, int port) {
    const std::string p = ":" + std::to_string(port);
    for (const std::string& name : {hostInUrl(host), std::string("localhost"),
                                    std::string("127.0.0.1"), std::string("[::1]")}) {
      hosts_.insert(name + p);
    }
    for (const std::string& origin : options_.allowed_origins) {
      const std::string h = hostOfOrigin(origin);
      if (!h.empty()) hosts_.insert(h);
    }
  }

  HttpResponse handle(const HttpRequest& request) {
    if (request.path != "/mcp") return errorResponse(404, "the MCP endpoint is /mcp");
    if (HttpResponse refused; !sameService(request, refused)) return refused;
    if (request.header("authorization").empty()) {
      HttpResponse r = errorResponse(401, "an agent token is needed: Authorization: Bearer TOKEN");
      r.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"toolguard\"");
      return r;
    }
    HttpResponse refused;
    std::optional<Caller> caller = authenticator_.authenticate(request, refused);
    if (!caller) return refused;
    if (caller->role != store::TokenRole::Agent) {
      return errorResponse(403, "the MCP endpoint takes an agent token");
    }
    if (request.method == "POST") return post(request, *caller);
    if (request.method == "GET") return get(request, *caller);
    if (request.method == "DELETE") return remove(request, *caller);
    HttpResponse r = errorResponse(405, "POST, GET or DELETE");
    r.headers.emplace_back("Allow", "POST, GET, DELETE");
    return r;
  }

  // Ends sessions unused for session_idle; writes keep-alives when due.
  void tick() {
    const FaceClock::time_point now = FaceClock::now();
    std::vector<std::shared_ptr<McpHttpSession>> ended;
    std::vector<std::shared_ptr<McpHttpSession>> open;
    {
      std::lock_guard lock(mutex_);
      for (auto it = sessions_.begin(); it != sessions_.end();) {
        if (it->second->idleSince(now - options_.session_idle)) {
          ended.push_back(it->second);
          it = sessions_.erase(it);
        } else {
          open.push_back(it->second);
          ++it;
        }
      }
    }
    for (auto& session : ended) session->close();
    if (now - last_keep_alive_ >= options_.keep_alive) {
      last_keep_alive_ = now;
      for (auto& session : open) session->keepAlive();
    }
  }

  void closeAll() {
    std::map<std::string, std::shared_ptr<McpHttpSession>> sessions;
    {
      std::lock_guard lock(mutex_);
      sessions.swap(sessions_);
    }
    for (auto& [id, session] : sessions) session->close();
  }

 private:
  // DNS rebinding: a page of another site that got this address for its
  // own name names that name in Host; a browser names its page's origin.
  bool sameService(const HttpRequest& request, HttpResponse& refused) const {
    if (hosts_.count(detail::asciiLowercase(request.header("host"))) == 0) {
      refused = errorResponse(403, "the Host header does not name this service");
      return false;
    }
    const std::string origin = request.header("origin");
    if (origin.empty()) return true;
    const bool allowed = hosts_.count(hostOfOrigin(origin)) != 0 ||
                         std::find(options_.allowed_origins.begin(), options_.allowed_origins.end(),
                                   origin) != options_.allowed_origins.end();
    if (!allowed)
      refused = errorResponse(403, "requests from the origin " + origin + " are refused");
    return allowed;
  }

  // The session a request names, when it is the caller's.
  std::shared_ptr<McpHttpSession> sessionOf(const HttpRequest& request, const Caller& caller,
                                            HttpResponse& refused) {
    const std::string id = request.header("mcp-session-id");
    if (id.empty()) {
      refused = rpcRefusal(400, mcp::kInvalidRequest,
                           "no Mcp-Session-Id header: send initialize first to open a session");
      return nullptr;
    }
    std::lock_guard lock(mutex_);
    auto found = sessions_.find(id);
    if (found == sessions_.end() || found->second->token() != caller.name) {
      refused = rpcRefusal(404, mcp::kInvalidRequest, "no such session (it may have ended)");
      return nullptr;
    }
    return found->second;
  }

  size_t openStreams() {
    std::vector<std::shared_ptr<McpHttpSession>> sessions;
    {
      std::lock_guard lock(mutex_);
      for (auto& [id, session] : sessions_) sessions.push_back(session);
    }
    size_t open = 0;
    for (auto& session : sessions) open += session->openStreams();
    return open;
  }

  HttpResponse streamsFull() const {
    HttpResponse r = errorResponse(
        503, "too many open streams (" + std::to_string(options_.max_streams) + "); try again");
    r.headers.emplace_back("Retry-After", "1");
    return r;
  }

  // What a stream may hold for a client that does not read: one whole
  // message of the largest size, and some.
  size_t streamBytes() const { return gateway_.max_message_bytes + (size_t{1} << 20); }

  static HttpResponse eventStream(std::shared_ptr<ResponseStream> stream) {
    HttpResponse r;
    r.content_type = "text/event-stream";
    r.headers.emplace_back("Cache-Control", "no-cache");
    r.stream = std::move(stream);
    return r;
  }

  HttpResponse post(const HttpRequest& request, const Caller& caller) {
    if (!accepts(request, "application/json") || !accepts(request, "text/event-stream")) {
      return rpcRefusal(406, mcp::kInvalidRequest,
                        "Accept must name application/json and text/event-stream");
    }
    if (request.header("content-type").rfind("application/json", 0) != 0) {
      return rpcRefusal(415, mcp::kInvalidRequest, "the body must be application/json");
    }
    StrictJson parsed = parseStrictJson(request.body);
    if (!parsed.value) {
      return rpcRefusal(400, mcp::kParseError, "the body is not one JSON message: " + parsed.error);
    }
    json message = std::move(*parsed.value);
    if (message.is_array()) {
      return rpcRefusal(400, mcp::kInvalidRequest, "one message per request, not a batch");
    }
    const mcp::MessageShape shape = mcp::shapeOf(message);
    if (shape.kind == mcp::MessageKind::Invalid || shape.kind == mcp::MessageKind::Batch) {
      return rpcRefusal(400, mcp::kInvalidRequest, shape.problem);
    }
    std::shared_ptr<McpHttpSession> session;
    HttpResponse refused;
    const bool opens = shape.kind == mcp::MessageKind::Request && shape.method == "initialize";
    // A request needs a stream: refused before a session is opened for it.
    if (shape.kind == mcp::MessageKind::Request && openStreams() >= options_.max_streams) {
      return streamsFull();
    }
    if (opens) {
      if (!request.header("mcp-session-id").empty()) {
        return rpcRefusal(400, mcp::kInvalidRequest, "initialize opens a session; send it alone");
      }
      session = openSession(caller, refused);
    } else {
      session = sessionOf(request, caller, refused);
    }
    if (!session) return refused;
    if (shape.kind != mcp::MessageKind::Request) {
      session->notify(message);
      HttpResponse accepted;
      accepted.status = 202;
      accepted.content_type.clear();
      return accepted;
    }
    auto stream = std::make_shared<ResponseStream>(streamBytes());
    if (!session->request(message, stream)) {
      return rpcRefusal(409, mcp::kInvalidRequest, "a request with this id is still unanswered");
    }
    HttpResponse r = eventStream(std::move(stream));
    if (opens) r.headers.emplace_back("Mcp-Session-Id", session->id());
    return r;
  }

  std::shared_ptr<McpHttpSession> openSession(const Caller& caller, HttpResponse& refused) {
    std::lock_guard lock(mutex_);
    // One token may hold a quarter of the sessions: an agent that opens
    // them without end does not keep the others out.
    const size_t per_token = std::max<size_t>(1, options_.max_sessions / 4);
    size_t held = 0;
    for (const auto& [id, session] : sessions_) held += session->token() == caller.name ? 1 : 0;
    if (sessions_.size() >= options_.max_sessions || held >= per_token) {
      refused = errorResponse(
          503, held >= per_token ? "this token holds " + std::to_string(held) +
                                       " sessions already; end one (DELETE) or try later"
                                 : "too many sessions (" + std::to_string(options_.max_sessions) +
                                       "); try later");
      refused.headers.emplace_back("Retry-After", "5");
      return nullptr;
    }
    const std::string id = detail::randomAuditId();
    McpGatewayOptions options = gateway_;
    for (McpGatewayServer& server : options.servers) server.proxy.context.agent = caller.name;
    auto session = std::make_shared<McpHttpSession>(id, caller.name, std::move(options),
                                                    [](const std::string& line) {
                                                      std::cerr << line + "\n" << std::flush;
                                                    });
    sessions_.emplace(id, session);
    return session;
  }

  HttpResponse get(const HttpRequest& request, const Caller& caller) {
    if (!accepts(request, "text/event-stream")) {
      return rpcRefusal(406, mcp::kInvalidRequest, "Accept must name text/event-stream");
    }
    HttpResponse refused;
    std::shared_ptr<McpHttpSession> session = sessionOf(request, caller, refused);
    if (!session) return refused;
    if (openStreams() >= options_.max_streams) return streamsFull();
    auto stream = std::make_shared<ResponseStream>(streamBytes());
    if (!session->openGetStream(stream)) {
      return rpcRefusal(409, mcp::kInvalidRequest, "the session has a GET stream open already");
    }
    return eventStream(std::move(stream));
  }

  HttpResponse remove(const HttpRequest& request, const Caller& caller) {
    HttpResponse refused;
    std::shared_ptr<McpHttpSession> session = sessionOf(request, caller, refused);
    if (!session) return refused;
    {
      std::lock_guard lock(mutex_);
      sessions_.erase(session->id());
    }
    session->close();
    HttpResponse ended;
    ended.content_type.clear();
    return ended;
  }

  McpHttpFaceOptions options_;
  McpGatewayOptions gateway_;
  std::unique_ptr<store::ServiceStore> store_;
  Metrics metrics_;
  Authenticator authenticator_;
  const bool posts_at_once_;
  std::set<std::string> hosts_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<McpHttpSession>> sessions_;
  FaceClock::time_point last_keep_alive_ = FaceClock::now();
};

}  // namespace

int serveMcpOverHttp(const McpHttpFaceOptions& options, const McpGatewayOptions& gateway) {
  if (std::string problem = mcpGatewayOptionsError(gateway); !problem.empty()) {
    throw std::runtime_error(problem);
  }
  sigset_t signals;
  sigemptyset(&signals);
  for (int s : {SIGHUP, SIGINT, SIGTERM}) sigaddset(&signals, s);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  const auto [host, port_asked] = listenAddress(options.listen);
  McpHttpFace face(options, gateway);
  HttpServerOptions http;
  http.max_body_bytes = options.max_body_bytes;
  http.idle_timeout_s = 60;
  http.max_handlers = 64;
  http.max_queued = 256;
  http.tls = TlsFiles{options.tls_certificate, options.tls_key, ""};
  HttpServer server([&face](const HttpRequest& r) { return face.handle(r); }, http,
                    [&face](HttpRequest& r) -> std::optional<HttpResponse> {
                      if (!face.answersAtOnce(r)) return std::nullopt;
                      return face.handle(r);
                    },
                    [&face](HttpRequest& r) -> std::optional<HttpResponse> {
                      // Anything but /mcp with a bearer token is refused by
                      // its head: a client without one never has its body read.
                      const bool bearer =
                          !r.header("authorization").empty() && presentsCredentials(r);
                      if (r.path == "/mcp" && bearer) return std::nullopt;
                      return face.handle(r);
                    });
  const int port = server.listenTcp(host, port_asked);
  face.allowHosts(host, port);
  server.start();
  std::cout << "listening on " << (options.tls_certificate.empty() ? "http" : "https") << "://"
            << hostInUrl(host) << ":" << port << "/mcp" << std::endl;
  const timespec second{1, 0};
  for (;;) {
    const int got = sigtimedwait(&signals, nullptr, &second);
    if (got == SIGHUP || got == SIGINT || got == SIGTERM) break;
    face.tick();
  }
  std::cerr << "toolguard mcp: stopping\n";
  face.closeAll();
  server.stop();
  return 0;
}

}  // namespace toolguard::serve
