#pragma once
// A real `toolguard serve` process for a test: started on a free loopback
// port, ready once it printed "listening on http://HOST:PORT", stopped
// (SIGTERM, or SIGKILL when asked) when the test is done. And a throw-away
// PostgreSQL cluster (scripts/pg-cluster.sh) for the PostgreSQL store.

#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/loopback_listener.hpp"
#include "support/run_binary.hpp"

namespace toolguard::testing {

/// A free TCP port on 127.0.0.1 (bound and released).
inline int freePort() {
  int port = 0;
  close(loopbackListener(port));
  return port;
}

class ServeProcess {
 public:
  /// Starts `binary serve --listen 127.0.0.1:0 args...` with `env` added
  /// (`command`: another sub-command that listens, such as "mcp").
  ServeProcess(const std::string& binary, const std::vector<std::string>& args,
               const std::map<std::string, std::string>& env, const std::string& log_path,
               const std::string& command = "serve") {
    int out[2];
    if (pipe(out) != 0) throw std::runtime_error("pipe failed");
    std::vector<std::string> all = {command, "--listen", "127.0.0.1:0"};
    all.insert(all.end(), args.begin(), args.end());
    const PreparedExec program(binary, all, env);
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], 1);
      const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
      dup2(log, 2);
      close(out[0]);
      program.exec();
    }
    close(out[1]);
    out_ = out[0];
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (line.find('\n') == std::string::npos) {
      pollfd p{out_, POLLIN, 0};
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            deadline - std::chrono::steady_clock::now())
                            .count();
      if (left <= 0 || poll(&p, 1, static_cast<int>(left)) <= 0) break;
      char c[256];
      const ssize_t n = read(out_, c, sizeof c);
      if (n <= 0) break;
      line.append(c, static_cast<size_t>(n));
    }
    const std::string host = "127.0.0.1:";
    const std::string prefix = "listening on http://" + host;
    const std::string tls_prefix = "listening on https://" + host;
    if (!line.starts_with(prefix) && !line.starts_with(tls_prefix)) {
      stop(SIGKILL);
      throw std::runtime_error("toolguard " + command + " did not start: '" + line +
                               "'; its log: " + slurp(log_path));
    }
    tls_ = line.starts_with(tls_prefix);
    port_ = std::stoi(line.substr(tls_ ? tls_prefix.size() : prefix.size()));
  }
  ~ServeProcess() { stop(SIGTERM); }
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  int port() const { return port_; }
  std::string url() const {
    return (tls_ ? "https://127.0.0.1:" : "http://127.0.0.1:") + std::to_string(port_);
  }

  /// Sends `signal` and waits for the process; its wait status (-1 when it
  /// was stopped before).
  int stop(int signal) {
    if (pid_ <= 0) return -1;
    kill(pid_, signal);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    if (out_ >= 0) close(out_);
    out_ = -1;
    return status;
  }

  void signal(int s) const { kill(pid_, s); }

  /// The serve process's id.
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int out_ = -1;
  int port_ = 0;
  bool tls_ = false;
};

/// A PostgreSQL cluster in `dir`, removed with the directory.
class PgCluster {
 public:
  explicit PgCluster(const std::string& dir) : dir_(dir), port_(freePort()) { start(); }

  /// Starts it (again, after stop()).
  void start() {
    RunResult r =
        runBinary("/bin/bash", {std::string(TOOLGUARD_SOURCE_DIR) + "/scripts/pg-cluster.sh",
                                "start", dir_, std::to_string(port_)});
    if (r.exit_code != 0) throw std::runtime_error("PostgreSQL did not start: " + r.err);
    url_ = r.out.substr(0, r.out.find('\n'));
  }
  ~PgCluster() { stop(); }
  PgCluster(const PgCluster&) = delete;
  PgCluster& operator=(const PgCluster&) = delete;

  const std::string& url() const { return url_; }

  /// psql of the installed PostgreSQL, run on `url` (the cluster trusts loopback).
  static RunResult psql(const std::string& url, const std::string& sql) {
    std::string bin;
    for (const auto& e : std::filesystem::directory_iterator("/usr/lib/postgresql")) {
      if (std::filesystem::exists(e.path() / "bin/psql")) bin = (e.path() / "bin/psql").string();
    }
    return runBinary(bin, {url, "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql});
  }
  /// psql on this cluster's database.
  RunResult psql(const std::string& sql) const { return psql(url_, sql); }

  void stop() const {
    runBinary("/bin/bash",
              {std::string(TOOLGUARD_SOURCE_DIR) + "/scripts/pg-cluster.sh", "stop", dir_});
  }
  void restart() const {
    runBinary("/bin/bash",
              {std::string(TOOLGUARD_SOURCE_DIR) + "/scripts/pg-cluster.sh", "restart", dir_});
  }

 private:
  std::string dir_;
  int port_;
  std::string url_;
};

}  // namespace toolguard::testing
