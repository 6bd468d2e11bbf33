// The stdio transport's server: a child process on pipes (mcp/upstream.hpp).
#include <signal.h>

#include "child_process.hpp"
#include "upstream.hpp"

namespace toolguard::mcp {
namespace {

class ChildUpstream final : public Upstream {
 public:
  explicit ChildUpstream(const std::vector<std::string>& command) : child_(command) {}
  int releaseInput() override { return child_.releaseStdin(); }
  int outputFd() const override { return child_.stdoutFd(); }
  void escalate(int level) override { ::kill(child_.pid(), level == 1 ? SIGTERM : SIGKILL); }
  UpstreamEnd stop(std::chrono::milliseconds grace) override {
    const int status = child_.stop(grace);
    return UpstreamEnd{exitCodeOf(status), describeWaitStatus(status), child_.wasSignalled()};
  }

 private:
  ChildProcess child_;
};

}  // namespace

std::unique_ptr<Upstream> childUpstream(const std::vector<std::string>& command) {
  return std::make_unique<ChildUpstream>(command);
}

}  // namespace toolguard::mcp
