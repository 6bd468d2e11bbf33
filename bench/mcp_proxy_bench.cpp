// The latency and throughput `toolguard mcp` adds to an MCP tools/call: the
// same calls against an MCP stdio server, once directly and once through
// `toolguard mcp --name NAME -- SERVER`. The server is
// toolguard_mcp_echo_server (mcp_echo_server.cpp), which costs next to
// nothing, so the difference is the proxy's: two more pipe hops, parsing the
// message, judging the call and, in the audited variant, the audit record.
// Optionally the reference filesystem server (node) as a real peer.
//
// Every benchmark run starts its processes once, outside the timed region,
// does initialize + notifications/initialized + tools/list and one warm-up
// call, and reaps them at the end (stdin closed, waitpid). Times are wall
// clock (manual timing); p50_us and p99_us come from the recorded samples.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <httplib.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "support/run_binary.hpp"
#include "support/serve_process.hpp"

#ifndef MCP_ECHO_SERVER
#error "MCP_ECHO_SERVER must name the toolguard_mcp_echo_server executable"
#endif
#ifndef TOOLGUARD_BINARY
#error "TOOLGUARD_BINARY must name the toolguard executable"
#endif

extern char** environ;

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

constexpr int kTimeoutMs = 20000;  // a peer that says nothing for this long has failed
constexpr int kPipelined = 256;    // requests in flight in the throughput benchmarks

// A private directory, removed with everything in it.
class BenchDir {
 public:
  BenchDir() {
    char templ[] = "/tmp/toolguard-mcp-bench-XXXXXX";
    if (mkdtemp(templ) != nullptr) path_ = fs::canonical(templ);
  }
  ~BenchDir() {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }
  BenchDir(const BenchDir&) = delete;
  BenchDir& operator=(const BenchDir&) = delete;
  bool ok() const { return !path_.empty(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string tail(const fs::path& file, size_t bytes = 600) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  if (s.size() > bytes) s = "..." + s.substr(s.size() - bytes);
  return s;
}

// A child process speaking newline-delimited JSON-RPC on its stdin and
// stdout; its stderr goes to a file.
class McpPeer {
 public:
  struct Options {
    std::vector<std::string> argv;
    std::vector<std::pair<std::string, std::string>> env;  // set or replaced
    fs::path cwd;                                          // empty: ours
    fs::path stderr_file;
  };

  explicit McpPeer(const Options& options) : stderr_file_(options.stderr_file) {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
      error_ = std::string("pipe: ") + std::strerror(errno);
      return;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
      error_ = std::string("pipe: ") + std::strerror(errno);
      close(in[0]);
      close(in[1]);
      return;
    }
    std::vector<std::string> env;
    for (char** e = environ; *e != nullptr; ++e) {
      std::string_view entry(*e);
      bool replaced = false;
      for (const auto& [name, value] : options.env) {
        replaced = replaced || (entry.size() > name.size() && entry.starts_with(name) &&
                                entry[name.size()] == '=');
      }
      if (!replaced) env.emplace_back(entry);
    }
    for (const auto& [name, value] : options.env) env.push_back(name + "=" + value);
    std::vector<char*> envp, argv;
    for (std::string& s : env) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<std::string> args = options.argv;
    for (std::string& s : args) argv.push_back(s.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    const std::string err =
        options.stderr_file.empty() ? "/dev/null" : options.stderr_file.string();
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(),
                                     O_WRONLY | O_CREAT | O_APPEND, 0600);
    const std::string cwd = options.cwd.string();
    if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
    const int rc = posix_spawnp(&pid_, argv[0], &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    close(in[0]);
    close(out[1]);
    to_child_ = in[1];
    from_child_ = out[0];
    if (rc != 0) {
      pid_ = -1;
      error_ = "cannot start " + args[0] + ": " + std::strerror(rc);
      return;
    }
    // Nothing blocks: reads wait in poll (with a timeout), and the
    // throughput loop reads while the pipe to the child is full.
    fcntl(to_child_, F_SETFL, fcntl(to_child_, F_GETFL) | O_NONBLOCK);
    fcntl(from_child_, F_SETFL, fcntl(from_child_, F_GETFL) | O_NONBLOCK);
  }
  ~McpPeer() { finish(); }
  McpPeer(const McpPeer&) = delete;
  McpPeer& operator=(const McpPeer&) = delete;

  bool ok() const { return error_.empty(); }
  // What went wrong, with the end of the child's stderr.
  std::string error() const {
    std::string e = error_;
    if (!stderr_file_.empty()) {
      std::string err = tail(stderr_file_);
      if (!err.empty()) e += (e.empty() ? "stderr: " : " | stderr: ") + err;
    }
    return e;
  }
  void fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
  }
  // fail(), for a return: always false.
  bool failed(std::string message) {
    fail(std::move(message));
    return false;
  }

  // One message: the line and its newline.
  bool writeLine(std::string_view line) {
    std::string data(line);
    data += '\n';
    size_t done = 0;
    while (done < data.size()) {
      ssize_t n = write(to_child_, data.data() + done, data.size() - done);
      if (n >= 0) {
        done += static_cast<size_t>(n);
      } else if (errno == EAGAIN) {
        pollfd p{to_child_, POLLOUT, 0};
        if (poll(&p, 1, kTimeoutMs) <= 0) return failed("timed out writing to the peer");
      } else if (errno != EINTR) {
        return failed(std::string("write: ") + std::strerror(errno));
      }
    }
    return true;
  }

  // Writes one whole line if the pipe has room now: 1 written, 0 no room, -1 error.
  int tryWriteLine(const std::string& line_with_newline) {
    for (;;) {
      ssize_t n = write(to_child_, line_with_newline.data(), line_with_newline.size());
      if (n == static_cast<ssize_t>(line_with_newline.size())) return 1;
      if (n >= 0) {  // more than PIPE_BUF and cut short: finish it the slow way
        return writeLine(std::string_view(line_with_newline)
                             .substr(static_cast<size_t>(n), line_with_newline.size() - n - 1))
                   ? 1
                   : -1;
      }
      if (errno == EAGAIN) return 0;
      if (errno != EINTR) {
        fail(std::string("write: ") + std::strerror(errno));
        return -1;
      }
    }
  }

  // The next complete line already read, if any.
  std::optional<std::string_view> bufferedLine() {
    size_t nl = buffer_.find('\n', start_);
    if (nl == std::string::npos) return std::nullopt;
    std::string_view line(buffer_.data() + start_, nl - start_);
    start_ = nl + 1;
    return line;
  }

  // Reads what the peer has written (at least one byte, waiting up to
  // timeout_ms); false at EOF, on an error or a timeout.
  bool fill(int timeout_ms = kTimeoutMs) {
    if (start_ > 0) {
      buffer_.erase(0, start_);
      start_ = 0;
    }
    for (;;) {
      pollfd p{from_child_, POLLIN, 0};
      const int ready = poll(&p, 1, timeout_ms);
      if (ready == 0) return failed("timed out waiting for the peer");
      if (ready < 0) {
        if (errno == EINTR) continue;
        return failed(std::string("poll: ") + std::strerror(errno));
      }
      char chunk[65536];
      const ssize_t n = read(from_child_, chunk, sizeof chunk);
      if (n > 0) {
        buffer_.append(chunk, static_cast<size_t>(n));
        return true;
      }
      if (n == 0) return failed("the peer closed its stdout");
      if (errno != EAGAIN && errno != EINTR) {
        return failed(std::string("read: ") + std::strerror(errno));
      }
    }
  }

  // The next line (a view into the buffer, valid until the next read).
  std::optional<std::string_view> readLine() {
    for (;;) {
      if (auto line = bufferedLine()) return line;
      if (!fill()) return std::nullopt;
    }
  }

  // Sends a request and returns its response, answering requests from the
  // peer with "method not found" and skipping its notifications.
  std::optional<json> call(const json& request) {
    if (!writeLine(request.dump())) return std::nullopt;
    for (;;) {
      auto line = readLine();
      if (!line) return std::nullopt;
      json message = json::parse(*line, nullptr, false);
      if (message.is_discarded() || !message.is_object()) {
        fail("not a JSON object from the peer: " + std::string(line->substr(0, 300)));
        return std::nullopt;
      }
      if (message.contains("method")) {
        if (message.contains("id")) {
          json reply = {{"jsonrpc", "2.0"},
                        {"id", message["id"]},
                        {"error", {{"code", -32601}, {"message", "Method not found"}}}};
          if (!writeLine(reply.dump())) return std::nullopt;
        }
        continue;
      }
      if (message.value("id", json()) == request["id"]) return message;
    }
  }

  int readFd() const { return from_child_; }
  int writeFd() const { return to_child_; }

  // Closes the child's stdin, drains its stdout, reaps it (SIGTERM, then
  // SIGKILL, if it lingers) and returns its wait status; -1 when none.
  int finish() {
    if (to_child_ >= 0) close(to_child_);
    to_child_ = -1;
    if (pid_ > 0) {
      // Drain so that a child blocked writing can see the EOF and exit.
      const auto deadline = Clock::now() + std::chrono::seconds(5);
      for (char chunk[65536]; from_child_ >= 0 && Clock::now() < deadline;) {
        pollfd p{from_child_, POLLIN, 0};
        if (poll(&p, 1, 100) < 0 && errno != EINTR) break;
        if (p.revents == 0) {
          if (waitpid(pid_, &status_, WNOHANG) == pid_) {
            pid_ = -1;
            break;
          }
          continue;
        }
        ssize_t n = read(from_child_, chunk, sizeof chunk);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) break;
      }
      if (pid_ > 0) status_ = reap();
      pid_ = -1;
    }
    if (from_child_ >= 0) close(from_child_);
    from_child_ = -1;
    return status_;
  }

 private:
  int reap() {
    int status = -1;
    for (int signal : {0, SIGTERM, SIGKILL}) {
      if (signal != 0) kill(pid_, signal);
      const auto deadline = Clock::now() + std::chrono::seconds(signal == 0 ? 5 : 2);
      while (Clock::now() < deadline) {
        pid_t r = waitpid(pid_, &status, WNOHANG);
        if (r == pid_ || (r < 0 && errno != EINTR)) return status;
        usleep(1000);
      }
      if (signal != 0) std::fprintf(stderr, "mcp bench: sent signal %d to pid %d\n", signal, pid_);
    }
    waitpid(pid_, &status, 0);
    return status;
  }

  fs::path stderr_file_;
  std::string error_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  int status_ = -1;
  std::string buffer_;
  size_t start_ = 0;
};

// The command under test: the server alone, or the server behind the proxy.
enum class Route { kDirect, kProxy, kProxyAudited, kGateway };

// The tool's name as the route's client calls it: SERVER__TOOL behind a gateway.
std::string calledTool(Route route, const std::string& server, const std::string& tool) {
  return route == Route::kGateway ? server + "__" + tool : tool;
}

struct Server {
  std::string name;               // the proxy's --name
  std::string tool;               // the tool to call
  std::vector<std::string> argv;  // the server's command
  fs::path cwd;                   // the server's (and proxy's) working directory
  std::string url;                // instead of argv: a Streamable HTTP server (`--url`)
};

// A started peer after initialize, notifications/initialized and tools/list.
struct ProxySession {
  BenchDir home;  // HOME and TOOLGUARD_HOME of the proxy; the audit log; stderr
  std::optional<McpPeer> peer;
  int next_id = 1;
  fs::path audit_log;
  std::string command;  // argv[0] and argv[1], for messages
  std::string error;

  ~ProxySession() {
    if (!peer) return;
    const int status = peer->finish();
    if (status == 0 || status == -1) return;  // a clean exit, or never started
    std::string how = "wait status " + std::to_string(status);
    if (WIFEXITED(status)) how = "exit code " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) how = "signal " + std::to_string(WTERMSIG(status));
    std::fprintf(stderr, "mcp bench: %s ended with %s | stderr: %s\n", command.c_str(), how.c_str(),
                 tail(home.path() / "stderr.txt").c_str());
  }
};

std::vector<std::string> commandFor(Route route, const Server& server, const fs::path& audit_log) {
  if (route == Route::kDirect) return server.argv;
  std::vector<std::string> argv = {TOOLGUARD_BINARY, "mcp", "--name", server.name};
  if (route == Route::kProxy || route == Route::kGateway) {
    argv.push_back("--no-audit");
  } else {
    argv.push_back("--audit-log");
    argv.push_back(audit_log.string());
  }
  // The built-in policy (no user, project or managed policy files) and a rule
  // allowing the measured tool: a server's read-only hint alone never allows.
  const fs::path policy = audit_log.parent_path() / "bench-policy.yaml";
  std::ofstream(policy) << "version: 1\nrules:\n  - id: bench-tool\n    tool: mcp__" << server.name
                        << "__" << server.tool << "\n    verdict: allow\n";
  argv.push_back("--policy");
  argv.push_back(policy.string());
  for (const char* flag : {"--no-user", "--no-project", "--no-managed"}) argv.push_back(flag);
  if (route == Route::kGateway) {
    // A gateway file with this one server: the router's work is added.
    const fs::path file = audit_log.parent_path() / "bench-gateway.yaml";
    std::ofstream out(file);
    out << "servers:\n  " << server.name << ":\n";
    if (!server.url.empty()) {
      out << "    url: " << server.url << "\n";
    } else {
      out << "    command: [";
      for (size_t i = 0; i < server.argv.size(); ++i) {
        out << (i == 0 ? "" : ", ") << json(server.argv[i]).dump();
      }
      out << "]\n";
    }
    argv.erase(argv.begin() + 2, argv.begin() + 4);  // --name NAME: the file's key
    argv.push_back("--gateway");
    argv.push_back(file.string());
    return argv;
  }
  if (!server.url.empty()) {
    argv.push_back("--url");
    argv.push_back(server.url);
    return argv;
  }
  argv.push_back("--");
  argv.insert(argv.end(), server.argv.begin(), server.argv.end());
  return argv;
}

json request(int id, std::string_view method, json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

// Starts the route and does the MCP handshake; on failure session.error says why.
void start(ProxySession& session, Route route, const Server& server) {
  if (!session.home.ok()) {
    session.error = "cannot create a temporary directory";
    return;
  }
  session.audit_log = session.home.path() / "audit.jsonl";
  McpPeer::Options options;
  options.argv = commandFor(route, server, session.audit_log);
  session.command = options.argv[0] + (options.argv.size() > 1 ? " " + options.argv[1] : "");
  options.cwd = server.cwd;
  options.stderr_file = session.home.path() / "stderr.txt";
  if (route != Route::kDirect) {
    // The developer's own configuration never matters.
    options.env = {{"HOME", session.home.path().string()},
                   {"TOOLGUARD_HOME", (session.home.path() / ".toolguard").string()}};
  }
  McpPeer& peer = session.peer.emplace(options);
  auto failed = [&](const std::string& what) {
    const std::string why = peer.error();
    session.error = why.empty() ? what : what + ": " + why;
    if (session.error.size() > 1500) session.error.resize(1500);
  };
  if (!peer.ok()) return failed("start");

  auto init = peer.call(request(session.next_id++, "initialize",
                                {{"protocolVersion", "2025-06-18"},
                                 {"capabilities", json::object()},
                                 {"clientInfo", {{"name", "toolguard-bench"}, {"version", "1"}}}}));
  if (!init) return failed("initialize");
  if (!init->contains("result")) return failed("initialize answered " + init->dump());
  if (!peer.writeLine(R"({"jsonrpc":"2.0","method":"notifications/initialized"})")) {
    return failed("notifications/initialized");
  }
  auto list = peer.call(request(session.next_id++, "tools/list", json::object()));
  if (!list) return failed("tools/list");
  bool found = false;
  const json tools =
      list->contains("result") ? list->at("result").value("tools", json::array()) : json::array();
  const std::string listed = calledTool(route, server.name, server.tool);
  for (const json& tool : tools) found = found || tool.value("name", "") == listed;
  if (!found) return failed("tools/list has no " + listed + ": " + list->dump().substr(0, 800));
}

// The text of a tools/call response, or why it is not a successful one.
bool callText(const json& response, std::string& text) {
  const json* result = response.contains("result") ? &response["result"] : nullptr;
  if (result == nullptr || result->value("isError", false) || !result->contains("content") ||
      !(*result)["content"].is_array() || (*result)["content"].empty()) {
    text = response.dump().substr(0, 800);
    return false;
  }
  text = (*result)["content"][0].value("text", "");
  return true;
}

// The request line of tools/call `id`; `arguments` is JSON text.
std::string callLine(int id, const std::string& tool, const std::string& arguments) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
         R"(,"method":"tools/call","params":{"name":")" + tool + R"(","arguments":)" + arguments +
         "}}";
}

double percentile(std::vector<double> samples, double p) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(samples.size())));
  return samples[std::clamp<size_t>(rank, 1, samples.size()) - 1];
}

void setLatencyCounters(benchmark::State& state, const std::vector<double>& samples_us) {
  state.counters["p50_us"] = percentile(samples_us, 0.50);
  state.counters["p99_us"] = percentile(samples_us, 0.99);
}

// One tools/call round trip per iteration: write the request line, read the
// response line. `expected`, when not empty, is the text the call returns.
void callLatency(benchmark::State& state, Route route, const Server& server,
                 const std::string& arguments, const std::string& expected) {
  ProxySession session;
  start(session, route, server);
  if (!session.error.empty()) {
    state.SkipWithError(session.error.c_str());
    return;
  }
  McpPeer& peer = *session.peer;
  // A warm-up call, untimed; it also checks the answer once.
  {
    auto response = peer.call(json::parse(
        callLine(session.next_id++, calledTool(route, server.name, server.tool), arguments)));
    std::string text;
    if (!response || !callText(*response, text) || (!expected.empty() && text != expected)) {
      session.error = "tools/call: " + (response ? text : peer.error());
      state.SkipWithError(session.error.c_str());
      return;
    }
  }
  std::vector<double> samples_us;
  samples_us.reserve(1 << 16);
  for (auto _ : state) {
    const int id = session.next_id++;
    const std::string line = callLine(id, calledTool(route, server.name, server.tool), arguments);
    const auto t0 = Clock::now();
    if (!peer.writeLine(line)) break;
    // Until the response, skipping the peer's notifications; the clock
    // stops when the response's line has been read, before it is parsed.
    json response;
    auto t1 = t0;
    for (;;) {
      auto got = peer.readLine();
      if (!got) break;
      t1 = Clock::now();
      json message = json::parse(*got, nullptr, false);
      if (message.is_object() && !message.contains("method") &&
          message.value("id", json()) == json(id)) {
        response = std::move(message);
        break;
      }
    }
    if (response.is_null()) break;
    const double seconds = std::chrono::duration<double>(t1 - t0).count();
    state.SetIterationTime(seconds);
    samples_us.push_back(seconds * 1e6);
    std::string text;
    if (!callText(response, text) || (!expected.empty() && text != expected)) {
      session.error = "tools/call answered " + text;
      break;
    }
  }
  if (!peer.ok() || !session.error.empty()) {
    if (session.error.empty()) session.error = peer.error();
    state.SkipWithError(session.error.c_str());
    return;
  }
  if (route == Route::kProxyAudited) {
    // The audit log is really written: its lines per tools/call (the
    // warm-up call included), once the proxy has exited; the rotated files
    // (PATH.1, ...; at 10 MiB by default) count too.
    session.peer->finish();
    size_t lines = 0;
    for (int n = 0;; ++n) {
      const fs::path file = n == 0 ? session.audit_log
                                   : fs::path(session.audit_log.string() + "." + std::to_string(n));
      std::ifstream log(file);
      if (!log) break;
      for (std::string l; std::getline(log, l);) ++lines;
    }
    state.counters["audit_lines_per_call"] =
        static_cast<double>(lines) / static_cast<double>(state.iterations() + 1);
  }
  setLatencyCounters(state, samples_us);
  state.SetItemsProcessed(state.iterations());
}

// kPipelined tools/call requests written back to back, then all their
// responses read (interleaved only if a pipe fills up).
void callThroughput(benchmark::State& state, Route route, const Server& server,
                    const std::string& arguments, const std::string& expected) {
  ProxySession session;
  start(session, route, server);
  if (!session.error.empty()) {
    state.SkipWithError(session.error.c_str());
    return;
  }
  McpPeer& peer = *session.peer;
  std::vector<std::string> lines(kPipelined);
  std::vector<std::string> responses;
  responses.reserve(kPipelined);
  std::vector<double> samples_us;
  for (auto _ : state) {
    const int first_id = session.next_id;
    for (std::string& line : lines)
      line = callLine(session.next_id++, server.tool, arguments) + "\n";
    responses.clear();
    const auto t0 = Clock::now();
    size_t sent = 0;
    while (responses.size() < kPipelined && peer.ok()) {
      while (auto got = peer.bufferedLine()) {
        // A response has no "method" (the echo text does not contain it).
        if (got->find("\"method\"") == std::string_view::npos) responses.emplace_back(*got);
      }
      if (responses.size() == kPipelined) break;
      pollfd fds[2] = {{peer.readFd(), POLLIN, 0},
                       {peer.writeFd(), static_cast<short>(sent < lines.size() ? POLLOUT : 0), 0}};
      if (poll(fds, 2, kTimeoutMs) <= 0) {
        peer.fail("timed out in the pipelined exchange");
        break;
      }
      if (fds[1].revents & (POLLOUT | POLLERR)) {
        for (int r; sent < lines.size() && (r = peer.tryWriteLine(lines[sent])) != 0; ++sent) {
          if (r < 0) break;
        }
      }
      if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) peer.fill(0);
    }
    const auto t1 = Clock::now();
    if (!peer.ok()) break;
    const double seconds = std::chrono::duration<double>(t1 - t0).count();
    state.SetIterationTime(seconds);
    samples_us.push_back(seconds * 1e6);
    // Every id answered once, with the right text.
    std::vector<bool> seen(kPipelined);
    for (const std::string& r : responses) {
      const json response = json::parse(r, nullptr, false);
      std::string text;
      const int index = response.is_object() && response.value("id", json()).is_number_integer()
                            ? response["id"].get<int>() - first_id
                            : -1;
      if (index < 0 || index >= kPipelined || seen[index] || !callText(response, text) ||
          (!expected.empty() && text != expected)) {
        session.error = "pipelined tools/call answered " + r.substr(0, 800);
        break;
      }
      seen[index] = true;
    }
    if (!session.error.empty()) break;
  }
  if (!peer.ok() || !session.error.empty()) {
    if (session.error.empty()) session.error = peer.error();
    state.SkipWithError(session.error.c_str());
    return;
  }
  state.counters["batch_p50_us"] = percentile(samples_us, 0.50);
  state.counters["batch_p99_us"] = percentile(samples_us, 0.99);
  state.SetItemsProcessed(state.iterations() * kPipelined);
}

// ---------------------------------------------------------------- echo server

const Server& echoServer() {
  static const Server server{"echo", "echo", {MCP_ECHO_SERVER}, {}, ""};
  return server;
}

// The echo call's arguments with a text of state.range(0) bytes.
std::string echoText(benchmark::State& state) {
  const size_t bytes = state.range(0) > 0 ? static_cast<size_t>(state.range(0)) : 24;
  std::string text = "hello from toolguard ";
  while (text.size() < bytes) text += text;
  text.resize(bytes);
  return text;
}
std::string echoArguments(const std::string& text) {
  return json{{"text", text}}.dump();
}

void BM_McpCallDirect(benchmark::State& state) {
  const std::string text = echoText(state);
  callLatency(state, Route::kDirect, echoServer(), echoArguments(text), text);
}
BENCHMARK(BM_McpCallDirect)->Arg(32)->Arg(4096)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_McpCallThroughProxy(benchmark::State& state) {
  const std::string text = echoText(state);
  callLatency(state, Route::kProxy, echoServer(), echoArguments(text), text);
}
BENCHMARK(BM_McpCallThroughProxy)
    ->Arg(32)
    ->Arg(4096)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

// As the default does: every decision appended to an audit log (a temp file).
void BM_McpCallThroughProxyAudited(benchmark::State& state) {
  const std::string text = echoText(state);
  callLatency(state, Route::kProxyAudited, echoServer(), echoArguments(text), text);
}
BENCHMARK(BM_McpCallThroughProxyAudited)
    ->Arg(32)
    ->Arg(4096)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

void BM_McpThroughputDirect(benchmark::State& state) {
  const std::string text = echoText(state);
  callThroughput(state, Route::kDirect, echoServer(), echoArguments(text), text);
}
BENCHMARK(BM_McpThroughputDirect)->Arg(32)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_McpThroughputThroughProxy(benchmark::State& state) {
  const std::string text = echoText(state);
  callThroughput(state, Route::kProxy, echoServer(), echoArguments(text), text);
}
BENCHMARK(BM_McpThroughputThroughProxy)->Arg(32)->UseManualTime()->Unit(benchmark::kMillisecond);

// ------------------------------------------- over Streamable HTTP (--url)

// The echo server in its HTTP mode, for one benchmark run: its URL once it
// said where it listens; stopped (its stdin closed) at the end.
struct HttpEchoServer {
  std::optional<McpPeer> process;
  std::string url;
  std::string error;

  HttpEchoServer() {
    McpPeer::Options options;
    options.argv = {MCP_ECHO_SERVER, "--http"};
    McpPeer& peer = process.emplace(options);
    while (peer.ok() && url.empty()) {
      if (auto line = peer.bufferedLine()) {
        const std::string prefix = "listening on ";
        if (line->starts_with(prefix)) url = std::string(line->substr(prefix.size())) + "/mcp";
        break;
      }
      if (!peer.fill()) break;
    }
    if (url.empty()) error = "the echo server did not say where it listens: " + peer.error();
  }
};

// A tools/call of the echo server in its HTTP mode through `route`.
void callOverHttp(benchmark::State& state, Route route) {
  HttpEchoServer echo;
  if (!echo.error.empty()) {
    state.SkipWithError(echo.error.c_str());
    return;
  }
  const std::string text = echoText(state);
  Server server{"echo", "echo", {}, {}, echo.url};
  callLatency(state, route, server, echoArguments(text), text);
}

// A tools/call of the echo server through `toolguard mcp --url`: the
// proxy's HTTP client (kept connections) added to the round trip.
void BM_McpCallThroughProxyOverHttp(benchmark::State& state) {
  callOverHttp(state, Route::kProxy);
}
BENCHMARK(BM_McpCallThroughProxyOverHttp)->Arg(32)->UseManualTime()->Unit(benchmark::kMicrosecond);

// The same calls through `toolguard mcp --gateway` with the echo server as
// its one server (tools named echo__echo): the router's ids and names added
// to the proxy's work; over stdio (floor: BM_McpCallDirect) and over HTTP
// (floor: BM_McpCallDirectOverHttp).
void BM_McpCallThroughGateway(benchmark::State& state) {
  const std::string text = echoText(state);
  callLatency(state, Route::kGateway, echoServer(), echoArguments(text), text);
}
BENCHMARK(BM_McpCallThroughGateway)->Arg(32)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_McpCallThroughGatewayOverHttp(benchmark::State& state) {
  callOverHttp(state, Route::kGateway);
}
BENCHMARK(BM_McpCallThroughGatewayOverHttp)
    ->Arg(32)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

// The initialize a client POSTs to open a session.
std::string initializeBody() {
  return request(0, "initialize",
                 {{"protocolVersion", "2025-06-18"},
                  {"capabilities", json::object()},
                  {"clientInfo", {{"name", "toolguard-bench"}, {"version", "1"}}}})
      .dump();
}

// The response in an HTTP answer's body: the body itself (JSON), or the
// message of an event stream that carries an id (its last).
json answerIn(const std::string& body) {
  if (!body.starts_with("event:") && !body.starts_with("data:") && !body.starts_with("id:")) {
    return json::parse(body, nullptr, false);
  }
  json answer;
  std::istringstream lines(body);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("data:")) continue;
    json message = json::parse(line.substr(5), nullptr, false);
    if (message.is_object() && message.contains("id")) answer = std::move(message);
  }
  return answer;
}

// Echo calls of `tool` POSTed over `client`'s kept connection in the session
// `headers` name (after notifications/initialized), each timed.
void postCalls(benchmark::State& state, httplib::Client& client, const httplib::Headers& headers,
               const std::string& tool) {
  client.Post("/mcp", headers, R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
              "application/json");
  const std::string text = echoText(state);
  const std::string arguments = echoArguments(text);
  std::vector<double> samples_us;
  int id = 1;
  auto call = [&](double* seconds) {
    const std::string line = callLine(id++, tool, arguments);
    const auto t0 = Clock::now();
    auto answered = client.Post("/mcp", headers, line, "application/json");
    const auto t1 = Clock::now();
    std::string got;
    if (!answered || !callText(answerIn(answered->body), got) || got != text) return false;
    if (seconds != nullptr) *seconds = std::chrono::duration<double>(t1 - t0).count();
    return true;
  };
  if (!call(nullptr)) {  // the first call: a server started on demand is started now
    state.SkipWithError("tools/call failed");
    return;
  }
  for (auto _ : state) {
    double seconds = 0;
    if (!call(&seconds)) {
      state.SkipWithError("tools/call failed");
      return;
    }
    state.SetIterationTime(seconds);
    samples_us.push_back(seconds * 1e6);
  }
  setLatencyCounters(state, samples_us);
  state.SetItemsProcessed(state.iterations());
}

// The same calls POSTed straight to the server by a client that keeps its
// connection (cpp-httplib): the floor of the route above.
void BM_McpCallDirectOverHttp(benchmark::State& state) {
  HttpEchoServer echo;
  if (!echo.error.empty()) {
    state.SkipWithError(echo.error.c_str());
    return;
  }
  const std::string origin = echo.url.substr(0, echo.url.size() - 4);  // without "/mcp"
  httplib::Client client(origin);
  client.set_keep_alive(true);
  client.set_tcp_nodelay(true);
  httplib::Headers headers = {{"Accept", "application/json, text/event-stream"}};
  auto started = client.Post("/mcp", headers, initializeBody(), "application/json");
  if (!started || started->status != 200) {
    state.SkipWithError("initialize failed");
    return;
  }
  headers.emplace("Mcp-Session-Id", started->get_header_value("Mcp-Session-Id"));
  postCalls(state, client, headers, "echo");
}
BENCHMARK(BM_McpCallDirectOverHttp)->Arg(32)->UseManualTime()->Unit(benchmark::kMicrosecond);

// The same calls POSTed to `toolguard mcp --gateway FILE --listen` (the
// guarded tools served over Streamable HTTP, with an agent's token) in
// front of the echo server over stdio: the face's HTTP server, its token
// check and session, and the gateway added. Floor: BM_McpCallDirectOverHttp.
void BM_McpCallThroughHttpFace(benchmark::State& state) {
  BenchDir home;
  const std::map<std::string, std::string> env = {
      {"HOME", home.path().string()}, {"TOOLGUARD_HOME", (home.path() / "home").string()}};
  const toolguard::testing::RunResult token = toolguard::testing::runBinary(
      TOOLGUARD_BINARY,
      {"serve", "token", "add", "--role", "agent", "--name", "bench", "--owner", "bench"}, "", env);
  if (token.exit_code != 0) {
    state.SkipWithError(("serve token add failed: " + token.err).c_str());
    return;
  }
  std::vector<std::string> args =
      commandFor(Route::kGateway, echoServer(), home.path() / "audit.jsonl");
  args.erase(args.begin(), args.begin() + 2);  // the binary and "mcp": ServeProcess adds them
  // One token's requests are limited (2,000 a second by default): calls
  // back to back make more.
  args.insert(args.end(), {"--rate", "1000000"});
  std::optional<toolguard::testing::ServeProcess> face;
  try {
    face.emplace(TOOLGUARD_BINARY, args, env, (home.path() / "face.log").string(), "mcp");
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  httplib::Client client("127.0.0.1", face->port());
  client.set_keep_alive(true);
  client.set_tcp_nodelay(true);
  httplib::Headers headers = {
      {"Accept", "application/json, text/event-stream"},
      {"Authorization", "Bearer " + token.out.substr(0, token.out.find('\n'))}};
  auto started = client.Post("/mcp", headers, initializeBody(), "application/json");
  if (!started || started->status != 200) {
    state.SkipWithError("initialize through the face failed");
    return;
  }
  headers.emplace("Mcp-Session-Id", started->get_header_value("Mcp-Session-Id"));
  postCalls(state, client, headers, calledTool(Route::kGateway, "echo", "echo"));
}
BENCHMARK(BM_McpCallThroughHttpFace)->Arg(32)->UseManualTime()->Unit(benchmark::kMicrosecond);

// ------------------------------------------ the reference filesystem server

// `node .../server-filesystem/dist/index.js DIR` with a small file in DIR,
// when node and the pinned package (tests/mcp-peers, npm ci) are there.
std::optional<Server> filesystemServer(const BenchDir& dir, std::string& why) {
#ifdef MCP_PEERS_DIR
  const fs::path script = fs::path(MCP_PEERS_DIR) /
                          "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js";
#else
  const fs::path script;
#endif
  if (script.empty() || !fs::exists(script)) {
    why = "no reference filesystem server (npm ci in tests/mcp-peers)";
    return std::nullopt;
  }
  std::string node;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "");
  for (std::string d; node.empty() && std::getline(dirs, d, ':');) {
    if (!d.empty() && access((fs::path(d) / "node").c_str(), X_OK) == 0)
      node = fs::path(d) / "node";
  }
  if (node.empty()) {
    why = "node is not on PATH";
    return std::nullopt;
  }
  if (!dir.ok()) {
    why = "cannot create a temporary directory";
    return std::nullopt;
  }
  std::ofstream(dir.path() / "small.txt") << "hello from toolguard\n";
  return Server{
      "fs", "read_text_file", {node, script.string(), dir.path().string()}, dir.path(), ""};
}

void filesystemLatency(benchmark::State& state, Route route) {
  BenchDir dir;
  std::string why;
  const std::optional<Server> server = filesystemServer(dir, why);
  if (!server) {
    state.SkipWithError(why.c_str());
    return;
  }
  callLatency(state, route, *server, json{{"path", (dir.path() / "small.txt").string()}}.dump(),
              "hello from toolguard\n");
}

void BM_McpFilesystemReadDirect(benchmark::State& state) {
  filesystemLatency(state, Route::kDirect);
}
BENCHMARK(BM_McpFilesystemReadDirect)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_McpFilesystemReadThroughProxy(benchmark::State& state) {
  filesystemLatency(state, Route::kProxy);
}
BENCHMARK(BM_McpFilesystemReadThroughProxy)->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace
