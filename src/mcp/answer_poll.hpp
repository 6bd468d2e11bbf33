// The answers a relay loop waits for besides its own descriptors: those of
// upstreams that read what the loop's thread sent them on that thread
// (Upstream::pollAnswersInOwnerLoop), added to the loop's poll set and
// handed back to their upstream when they are ready.
#pragma once

#include <poll.h>

#include <memory>
#include <utility>
#include <vector>

#include "mcp/upstream.hpp"

namespace toolguard::mcp {

class AnswerPoll {
 public:
  /// Forgets the descriptors of the last round.
  void clear() { waiting_.clear(); }
  /// The answer descriptors `upstream` waits on now (Upstream::answerFds).
  void collect(const std::shared_ptr<Upstream>& upstream) {
    std::vector<int> fds;
    upstream->answerFds(fds);
    for (int fd : fds) waiting_.emplace_back(fd, upstream);
  }
  /// Appends each descriptor to `fds`, after the loop's own.
  void addTo(std::vector<pollfd>& fds) {
    first_ = fds.size();
    for (const auto& answer : waiting_) fds.push_back({answer.first, POLLIN, 0});
  }
  /// Hands each descriptor that polled ready to its upstream.
  void dispatch(const std::vector<pollfd>& fds) const {
    for (size_t i = 0; i < waiting_.size(); ++i) {
      const pollfd& polled = fds[first_ + i];
      if (polled.revents != 0) waiting_[i].second->answerReady(polled.fd);
    }
  }

 private:
  std::vector<std::pair<int, std::shared_ptr<Upstream>>> waiting_;
  size_t first_ = 0;
};

}  // namespace toolguard::mcp
