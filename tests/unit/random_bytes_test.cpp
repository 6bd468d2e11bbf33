// Random bytes for ids: small requests come from a per-thread buffer that a
// fork empties (src/core/random_bytes.cpp).
#include "core/random_bytes.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <set>
#include <string>

namespace toolguard::detail {
namespace random_bytes_test {

// Ids come from a per-thread buffer of random bytes; a forked child must
// not hand out the bytes its parent hands out next.
TEST(RandomBytes, AForkedChildNeverRepeatsItsParentsIds) {
  for (int round = 0; round < 20; ++round) {
    randomHex(16);  // the parent's buffer is filled
    int pipe_fds[2];
    ASSERT_EQ(::pipe(pipe_fds), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      const std::string id = randomHex(16);
      const bool written = ::write(pipe_fds[1], id.data(), id.size()) == 32;
      ::_exit(written ? 0 : 1);
    }
    ::close(pipe_fds[1]);
    const std::string parents = randomHex(16);
    std::string childs(32, '\0');
    ASSERT_EQ(::read(pipe_fds[0], childs.data(), childs.size()), 32);
    ::close(pipe_fds[0]);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_NE(parents, childs) << "round " << round;
  }
}

TEST(RandomBytes, SmallRequestsNeverRepeat) {
  std::set<std::string> ids;
  for (int i = 0; i < 5000; ++i) ids.insert(randomHex(8 + i % 9));  // 8 to 16 bytes
  EXPECT_EQ(ids.size(), 5000u);
}

}  // namespace random_bytes_test
}  // namespace toolguard::detail
