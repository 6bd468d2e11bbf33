// A minimal MCP server over stdio (or, with --http, Streamable HTTP) for the
// `toolguard mcp` benchmarks: one
// read-only tool, `echo`, that answers with its `text` argument. It reads
// newline-delimited JSON-RPC 2.0 from stdin with read(2) and writes each
// message with one write(2), so the server itself costs next to nothing.
// It exits on stdin EOF (or when stdout is gone).
#include <httplib.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <thread>

namespace {

using nlohmann::json;

const json& echoTool() {
  static const json tool = {{"name", "echo"},
                            {"description", "Returns its text argument unchanged."},
                            {"inputSchema",
                             {{"type", "object"},
                              {"properties", {{"text", {{"type", "string"}}}}},
                              {"required", json::array({"text"})}}},
                            {"annotations", {{"readOnlyHint", true}, {"openWorldHint", false}}}};
  return tool;
}

// Writes the whole buffer; false when stdout is gone.
bool writeAll(const std::string& data) {
  const char* p = data.data();
  size_t left = data.size();
  while (left > 0) {
    ssize_t n = write(STDOUT_FILENO, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}

bool send(const json& message) {
  std::string line = message.dump(-1, ' ', false, json::error_handler_t::replace);
  line += '\n';
  return writeAll(line);
}

json result(const json& id, json value) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(value)}};
}

json error(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

// The reply to one request, or null for a notification or a response.
json answer(const json& message) {
  if (!message.is_object()) return error(nullptr, -32600, "Invalid Request");
  const auto method_it = message.find("method");
  const auto id_it = message.find("id");
  if (method_it == message.end() || !method_it->is_string()) {
    // A response to a request of ours (we send none), or garbage.
    if (id_it != message.end()) return nullptr;
    return error(nullptr, -32600, "Invalid Request");
  }
  if (id_it == message.end()) return nullptr;  // a notification
  const json& id = *id_it;
  const std::string& method = method_it->get_ref<const std::string&>();
  static const json no_params = json::object();
  const auto params_it = message.find("params");
  const json& params = params_it != message.end() ? *params_it : no_params;

  if (method == "initialize") {
    json version = "2025-06-18";
    if (params.is_object() && params.contains("protocolVersion") &&
        params["protocolVersion"].is_string()) {
      version = params["protocolVersion"];
    }
    return result(id, {{"protocolVersion", version},
                       {"capabilities", {{"tools", json::object()}}},
                       {"serverInfo", {{"name", "toolguard-mcp-echo"}, {"version", "1.0.0"}}}});
  }
  if (method == "tools/call") {
    if (!params.is_object() || params.value("name", "") != "echo") {
      return error(id, -32602, "Unknown tool");
    }
    const auto args = params.find("arguments");
    if (args == params.end() || !args->is_object() || !args->contains("text") ||
        !(*args)["text"].is_string()) {
      return error(id, -32602, "echo needs a string argument `text`");
    }
    return result(id, {{"content", json::array({{{"type", "text"}, {"text", (*args)["text"]}}})}});
  }
  if (method == "tools/list") return result(id, {{"tools", json::array({echoTool()})}});
  if (method == "ping") return result(id, json::object());
  return error(id, -32601, "Method not found");
}

// Handles one line; false when stdout is gone.
bool handleLine(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find_first_not_of(" \t") == std::string_view::npos) return true;
  json message = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) return send(error(nullptr, -32700, "Parse error"));
  json reply;
  try {
    reply = answer(message);
  } catch (const json::exception& e) {  // e.g. a `name` that is not a string
    reply = error(message.is_object() ? message.value("id", json()) : json(), -32602, e.what());
  }
  return reply.is_null() || send(reply);
}

// `--http`: the same server over MCP's Streamable HTTP transport on a free
// loopback port (printed as "listening on http://127.0.0.1:PORT"), every
// answer a JSON body; it stops when its stdin ends.
int serveHttp() {
  httplib::Server server;
  server.set_tcp_nodelay(true);
  // A connection serves as many requests as its client sends, as Node's
  // HTTP server (the SDK's servers) does by default; cpp-httplib's default
  // closes it after five, and every sixth call of the HTTP routes then
  // timed a new connection.
  server.set_keep_alive_max_count(std::numeric_limits<size_t>::max());
  server.Post("/mcp", [](const httplib::Request& request, httplib::Response& response) {
    const json message = json::parse(request.body, nullptr, false);
    if (message.is_discarded()) {
      response.status = 400;
      response.set_content(error(nullptr, -32700, "Parse error").dump(), "application/json");
      return;
    }
    const json reply = answer(message);
    if (reply.is_null()) {
      response.status = 202;
      return;
    }
    if (message.value("method", "") == "initialize") {
      response.set_header("Mcp-Session-Id", "echo-session");
    }
    response.set_content(reply.dump(-1, ' ', false, json::error_handler_t::replace),
                         "application/json");
  });
  server.Get("/mcp",
             [](const httplib::Request&, httplib::Response& response) { response.status = 405; });
  server.Delete("/mcp", [](const httplib::Request&, httplib::Response&) {});
  const int port = server.bind_to_any_port("127.0.0.1");
  if (port <= 0) return 1;
  std::printf("listening on http://127.0.0.1:%d\n", port);
  std::fflush(stdout);
  std::thread stdin_watch([&server] {
    char buffer[256];
    while (read(STDIN_FILENO, buffer, sizeof buffer) > 0) {
    }
    server.stop();
  });
  server.listen_after_bind();
  stdin_watch.join();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]) == "--http") return serveHttp();
  std::signal(SIGPIPE, SIG_IGN);  // a closed stdout ends the loop through write's EPIPE
  std::string pending;
  char buffer[65536];
  for (;;) {
    ssize_t n = read(STDIN_FILENO, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      return 1;
    }
    if (n == 0) break;
    pending.append(buffer, static_cast<size_t>(n));
    size_t start = 0;
    for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
      if (!handleLine(std::string_view(pending).substr(start, nl - start))) return 0;
    }
    pending.erase(0, start);
  }
  if (!pending.empty()) handleLine(pending);  // a last line without its newline
  return 0;
}
