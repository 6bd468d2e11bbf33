// The stdio transport's server: a child process on pipes (mcp/upstream.hpp).
#include <signal.h>

#include "child_process.hpp"
#include "line_io.hpp"
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

std::function<void(std::string)> sendToUpstream(std::shared_ptr<Upstream> upstream,
                                                std::shared_ptr<LineWriter> writer) {
  return [upstream = std::move(upstream), writer = std::move(writer)](std::string line) {
    if (writer->heldBytes() == 0 && upstream->trySendNow(line)) return;
    writer->push(std::move(line));
  };
}

}  // namespace toolguard::mcp
