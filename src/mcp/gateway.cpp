// runMcpGateway: the gateway on the MCP stdio transport. The client's lines
// go to the router; what the router sends goes to the client through one
// writer; the client's end (or a stop signal) stops every server.
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "mcp/gateway_router.hpp"
#include "mcp/line_io.hpp"
#include "mcp/relay_io.hpp"
#include "toolguard/mcp_gateway.hpp"
#include "toolguard/mcp_tools.hpp"

namespace toolguard {

std::string mcpGatewayOptionsError(const McpGatewayOptions& options) {
  if (options.servers.empty()) return "the gateway has no servers";
  if (options.flat && options.servers.size() != 1) return "only one server can be served flat";
  std::set<std::string> names;
  for (const McpGatewayServer& server : options.servers) {
    const std::string& name = server.proxy.server_name;
    if (std::string error = mcpServerNameError(name); !error.empty()) {
      return "the server name \"" + name + "\": " + error;
    }
    if (!names.insert(name).second) return "two servers are named \"" + name + "\"";
    if (server.proxy.command.empty() == server.proxy.url.empty()) {
      return "the server \"" + name + "\" needs a command or a URL (one of the two)";
    }
  }
  return "";
}

int runMcpGateway(int client_in, int client_out, McpGatewayOptions options) {
  mcp::StopSignals signals;
  auto room = std::make_shared<mcp::WakePipe>();
  auto to_client = std::make_shared<mcp::LineWriter>(
      client_out, false,
      [](const std::string& e) { mcp::logLine("toolguard mcp: cannot write to the client: " + e); },
      options.max_queued_bytes, [room] { room->wake(); });
  const size_t max_message_bytes = options.max_message_bytes;
  mcp::GatewayRouter router(
      std::move(options),
      mcp::GatewayClientHooks{[to_client](std::string line) { to_client->push(std::move(line)); },
                              mcp::logLine, [to_client] { return to_client->full(); },
                              std::this_thread::get_id()});
  mcp::LineSplitter lines(max_message_bytes);
  auto from_client = [&](std::string_view line) { router.fromClient(line); };
  auto too_long = [&] { router.clientLineTooLong(max_message_bytes); };
  std::string buffer;
  mcp::AnswerPoll answers;
  for (;;) {
    // The client is not read while its own queue is full (its answers
    // would queue there too).
    const bool full = to_client->full();
    std::vector<pollfd> fds = {
        {full ? -1 : client_in, POLLIN, 0}, {signals.fd(), POLLIN, 0}, {room->readFd(), POLLIN, 0}};
    // The servers' answers to what this thread sent them (not while the
    // client's queue is full).
    answers.clear();
    if (!full) router.answerFds(answers);
    answers.addTo(fds);
    if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) {
      mcp::logLine(std::string("toolguard mcp: poll failed: ") + std::strerror(errno));
      break;
    }
    answers.dispatch(fds);
    if (fds[2].revents != 0) room->drain();
    if (fds[1].revents != 0) break;
    if (fds[0].revents != 0) {
      if (!mcp::readSome(client_in, buffer)) {
        lines.finish(from_client);
        break;
      }
      lines.feed(buffer, from_client, too_long);
    }
  }
  router.close();
  to_client->finish();
  return 0;
}

}  // namespace toolguard
