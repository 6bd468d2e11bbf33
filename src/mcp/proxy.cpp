// runMcpProxy: the server process, the two readers in one poll loop, the
// writer threads, and shutdown as the MCP stdio transport defines it.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "mcp/answer_poll.hpp"
#include "mcp/http_upstream.hpp"
#include "mcp/line_io.hpp"
#include "mcp/relay_io.hpp"
#include "mcp/session.hpp"
#include "mcp/upstream.hpp"
#include "toolguard/mcp_proxy.hpp"
#include "toolguard/mcp_tools.hpp"

namespace toolguard {

int runMcpProxy(int client_in, int client_out, Policy policy, GuardOptions guard_options,
                const McpProxyOptions& options) {
  if (std::string error = mcpServerNameError(options.server_name); !error.empty()) {
    throw std::invalid_argument(error);
  }
  if (options.command.empty() == options.url.empty()) {
    throw std::invalid_argument("give the server as a command or as a URL (one of the two)");
  }
  using Clock = std::chrono::steady_clock;
  const std::string& name = options.server_name;
  mcp::StopSignals signals;
  std::shared_ptr<mcp::Upstream> server =
      options.url.empty()
          ? mcp::childUpstream(options.command)
          : mcp::httpUpstream(mcp::HttpUpstreamOptions{options.url, options.url_headers, name,
                                                       options.max_message_bytes, mcp::logLine});

  // Back pressure: a writer that drained below its bound wakes the poll
  // loop through this pipe, which then reads its sources again. The writers
  // share it (a writer kept alive by a decision thread never writes to a
  // closed descriptor).
  auto room_pipe = std::make_shared<mcp::WakePipe>();
  auto on_room = [room_pipe] { room_pipe->wake(); };
  auto to_client = std::make_shared<mcp::LineWriter>(
      client_out, false,
      [](const std::string& e) { mcp::logLine("toolguard mcp: cannot write to the client: " + e); },
      options.max_queued_bytes, on_room);
  auto to_server = std::make_shared<mcp::LineWriter>(
      server->releaseInput(), true,
      [name](const std::string& e) {
        mcp::logLine("toolguard mcp: cannot write to the server \"" + name + "\": " + e);
      },
      options.max_queued_bytes, on_room);
  mcp::SessionSinks sinks{[to_client](std::string line) { to_client->push(std::move(line)); },
                          mcp::sendToUpstream(server, to_server), mcp::logLine};
  auto session =
      mcp::Session::create(std::move(policy), std::move(guard_options), options, std::move(sinks));
  // An upstream with threads of its own hands the server's messages to the
  // session itself (no hand-over to this loop, which then only sees the end).
  // (A weak pointer: the session's sink holds the upstream.)
  server->deliverTo(
      [weak = std::weak_ptr<mcp::Session>(session)](std::string_view line) {
        if (auto live = weak.lock()) live->fromServer(line);
      },
      [to_client] { return to_client->full(); });
  // Answers to what this thread sent (trySendNow) are waited for below.
  server->pollAnswersInOwnerLoop(std::this_thread::get_id());

  mcp::LineSplitter client_lines(options.max_message_bytes);
  mcp::LineSplitter server_lines(options.max_message_bytes);
  auto from_client = [&](std::string_view line) { session->fromClient(line); };
  auto from_server = [&](std::string_view line) { session->fromServer(line); };
  auto client_too_long = [&] { session->clientLineTooLong(options.max_message_bytes); };
  auto server_too_long = [&] { session->serverLineTooLong(options.max_message_bytes); };

  bool client_open = true;
  bool server_open = true;
  // After the client left: when to send the next stop signal to the server.
  // (max: no escalation pending; a sentinel, not std::optional, which GCC 12
  // at -O2 wrongly calls maybe-uninitialized.)
  Clock::time_point next_escalation = Clock::time_point::max();
  int escalation = 0;  // 0: stdin closed, 1: SIGTERM sent, 2: SIGKILL sent
  auto stop_relaying_client = [&] {
    client_open = false;
    session->clientGone();
    to_server->closeWhenDrained();  // the server's cue to exit
    next_escalation = Clock::now() + options.shutdown_grace;
  };

  std::string buffer;
  mcp::AnswerPoll answers;
  while (server_open) {
    // What the server says goes to the client; what the client says goes to
    // the server, and its refusals and errors to the client. A side is read
    // only while the queues its messages go to have room. (The server is not
    // held back by a full queue to itself: a server that stops reading while
    // it writes would then never get its output read.)
    const bool client_full = to_client->full();
    const bool read_client = client_open && !client_full && !to_server->full();
    std::vector<pollfd> fds(4);
    fds[0] = {read_client ? client_in : -1, POLLIN, 0};
    fds[1] = {client_full ? -1 : server->outputFd(), POLLIN, 0};
    fds[2] = {signals.fd(), POLLIN, 0};
    fds[3] = {room_pipe->readFd(), POLLIN, 0};
    // Answers waited for here (only while the client's queue has room).
    answers.clear();
    if (!client_full) answers.collect(server);
    answers.addTo(fds);
    int timeout = -1;
    if (next_escalation != Clock::time_point::max()) {
      auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(next_escalation - Clock::now());
      timeout = static_cast<int>(std::max<int64_t>(0, left.count()));
    }
    int ready = ::poll(fds.data(), fds.size(), timeout);
    if (ready < 0 && errno != EINTR) {
      mcp::logLine(std::string("toolguard mcp: poll failed: ") + std::strerror(errno));
      break;
    }
    if (fds[3].revents != 0) room_pipe->drain();
    if (fds[2].revents != 0) {
      signals.drain();
      if (client_open) stop_relaying_client();
    }
    answers.dispatch(fds);
    if (fds[1].revents != 0) {
      if (mcp::readSome(server->outputFd(), buffer)) {
        server_lines.feed(buffer, from_server, server_too_long);
      } else {
        server_lines.finish(from_server);
        server_open = false;
      }
    }
    if (read_client && fds[0].revents != 0) {
      if (mcp::readSome(client_in, buffer)) {
        client_lines.feed(buffer, from_client, client_too_long);
      } else {
        client_lines.finish(from_client);
        stop_relaying_client();
      }
    }
    if (next_escalation != Clock::time_point::max() && Clock::now() >= next_escalation) {
      ++escalation;
      server->escalate(escalation);
      next_escalation =
          escalation == 1 ? Clock::now() + options.shutdown_grace : Clock::time_point::max();
    }
  }

  // The server closed its output: it has exited or is about to.
  const mcp::UpstreamEnd end = server->stop(options.shutdown_grace);
  const std::string& why = end.why;
  if (client_open) mcp::logLine("toolguard mcp: the server \"" + name + "\" ended (" + why + ")");
  // A client that closed its input may still read: it gets its answers.
  session->serverGone(why);
  session->clientGone();
  session->waitForDecisions(options.shutdown_grace);
  to_server->finish();
  to_client->finish();
  // A server the proxy had to stop after the client left ended normally.
  bool stopped_by_us = !client_open && (escalation > 0 || end.stopped_by_us);
  return stopped_by_us ? 0 : end.exit_code;
}

}  // namespace toolguard
