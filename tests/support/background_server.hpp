#pragma once
// A server under test started in the background with PORT=N in its
// environment (the reference MCP servers, the recording server), ready once
// it accepts connections on 127.0.0.1:N, killed when the object goes.
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "support/prepared_exec.hpp"
#include "support/run_binary.hpp"

namespace toolguard::testing {

/// A server process listening on 127.0.0.1:port, its output in `log`.
class BackgroundServer {
 public:
  BackgroundServer(const std::string& program, const std::vector<std::string>& args,
                   std::map<std::string, std::string> env, int port, const std::string& log)
      : port_(port) {
    env["PORT"] = std::to_string(port);
    const PreparedExec exec(program, args, env);
    pid_ = fork();
    if (pid_ == 0) {
      const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
      dup2(out, 1);
      dup2(out, 2);
      exec.exec();
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!accepts() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!accepts()) {
      kill();
      throw std::runtime_error("the server did not start; its log: " + slurp(log));
    }
  }
  ~BackgroundServer() { kill(); }
  BackgroundServer(const BackgroundServer&) = delete;
  BackgroundServer& operator=(const BackgroundServer&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/mcp"; }
  int port() const { return port_; }

  void kill() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
  }

 private:
  bool accepts() const {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<uint16_t>(port_));
    const bool connected = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    close(fd);
    return connected;
  }

  int port_;
  pid_t pid_ = -1;
};

}  // namespace toolguard::testing
