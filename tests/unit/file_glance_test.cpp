// The file system as one decision sees it: each place asked once while a
// glance is open, asked afresh once it is closed.
#include "paths/file_glance.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace toolguard::detail {
namespace file_glance_test {

std::string freshDirectory() {
  std::string pattern = (std::filesystem::temp_directory_path() / "glance-XXXXXX").string();
  return ::mkdtemp(pattern.data());
}

TEST(FileGlance, APlaceIsAskedOnceWhileItIsOpen) {
  const std::string dir = freshDirectory();
  const std::string file = dir + "/later";
  struct stat st {};
  {
    const FileGlance glance;
    EXPECT_FALSE(glanceLstat(file, st));
    std::ofstream(file) << "x";
    EXPECT_FALSE(glanceLstat(file, st)) << "the decision keeps the answer it began with";
    EXPECT_TRUE(glanceStat(file, st)) << "stat and lstat are remembered apart";
    {
      const FileGlance nested;  // adds nothing: the outer glance goes on
      EXPECT_FALSE(glanceLstat(file, st));
    }
    EXPECT_FALSE(glanceLstat(file, st));
  }
  EXPECT_TRUE(glanceLstat(file, st)) << "a closed glance remembers nothing";
  EXPECT_TRUE(S_ISREG(st.st_mode));
  std::filesystem::remove(file);
  EXPECT_FALSE(glanceLstat(file, st)) << "without a glance every call asks the kernel";
  std::filesystem::remove_all(dir);
}

TEST(FileGlance, EachThreadHasItsOwn) {
  const std::string dir = freshDirectory();
  const std::string file = dir + "/f";
  struct stat st {};
  const FileGlance glance;
  EXPECT_FALSE(glanceLstat(file, st));
  std::ofstream(file) << "x";
  bool seen_by_other = false;
  std::thread([&] { seen_by_other = glanceLstat(file, st); }).join();
  EXPECT_TRUE(seen_by_other);
  std::filesystem::remove_all(dir);
}

}  // namespace file_glance_test
}  // namespace toolguard::detail
