// The HTTP client plugin is loaded only from a file nobody else can write,
// and a missing plugin makes a request fail (never pass) with what was tried.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "http/http_plugin_loader.hpp"
#include "toolguard/chat_client.hpp"

namespace toolguard::detail {
namespace {

namespace fs = std::filesystem;

const fs::path kBuilt = fs::path(TOOLGUARD_BUILD_DIR) / "libtoolguard-http.so";

class HttpPlugin : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("toolguard-http-plugin-" + std::to_string(::getpid()));
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
};

TEST_F(HttpPlugin, TheBuiltPluginLoads) {
  std::string error;
  EXPECT_NE(loadHttpPluginFrom({dir / "none.so", kBuilt}, error), nullptr) << error;
}

TEST_F(HttpPlugin, APluginOthersCanWriteIsRefused) {
  const fs::path copy = dir / "libtoolguard-http.so";
  fs::copy_file(kBuilt, copy);
  ::chmod(copy.c_str(), 0775);
  std::string error;
  EXPECT_EQ(loadHttpPluginFrom({dir / "none.so", copy}, error), nullptr);
  EXPECT_NE(error.find((dir / "none.so").string() + ": not found"), std::string::npos) << error;
  EXPECT_NE(error.find(copy.string() + ": writable by others"), std::string::npos) << error;
  ::chmod(copy.c_str(), 0755);
  EXPECT_NE(loadHttpPluginFrom({copy}, error), nullptr) << error;
}

TEST_F(HttpPlugin, ASymbolicLinkOrADirectoryOthersCanWriteIsRefused) {
  const fs::path link = dir / "linked.so";
  fs::create_symlink(kBuilt, link);
  std::string error;
  EXPECT_EQ(loadHttpPluginFrom({link}, error), nullptr);
  EXPECT_NE(error.find(link.string() + ": a symbolic link"), std::string::npos) << error;
  const fs::path open_dir = dir / "open";
  fs::create_directories(open_dir);
  fs::copy_file(kBuilt, open_dir / "plugin.so");
  ::chmod(open_dir.c_str(), 0777);
  EXPECT_EQ(loadHttpPluginFrom({open_dir / "plugin.so"}, error), nullptr);
  EXPECT_NE(error.find("in a directory others can write"), std::string::npos) << error;
}

TEST_F(HttpPlugin, AFileThatIsNoPluginIsRefused) {
  const fs::path fake = dir / "not-a-plugin.so";  // (a loaded path is never loaded anew)
  fs::copy_file("/bin/true", fake);
  std::string error;
  EXPECT_EQ(loadHttpPluginFrom({fake}, error), nullptr);
  EXPECT_NE(error.find(fake.string() + ": "), std::string::npos) << error;
  EXPECT_NE(error.find("reinstall toolguard"), std::string::npos) << error;
}

}  // namespace
}  // namespace toolguard::detail
