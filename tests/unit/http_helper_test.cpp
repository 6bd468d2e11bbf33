// The HTTP client helper is run only from a file nobody else can write, and a
// missing, broken or killed helper makes a request fail (never pass) with
// what went wrong.
#include "http/http_helper.hpp"

#include <gtest/gtest.h>
#include <httplib.h>
#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

namespace toolguard::detail {
namespace http_helper_test {

namespace fs = std::filesystem;

const fs::path kBuilt = fs::path(TOOLGUARD_BUILD_DIR) / "toolguard-http";

class HttpHelperTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("toolguard-http-helper-" + std::to_string(::getpid()));
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
};

// What one POST through a helper gave back.
struct Collected {
  std::vector<int> statuses;
  std::string body;
  bool stop_after_first_piece = false;
  std::atomic<bool> cancel{false};
  std::atomic<bool> got_a_piece{false};  // set once a piece of the body arrived
  toolguard_http_outcome outcome{};
};

void postThrough(const HttpHelper& helper, const std::string& origin, Collected& got,
                 const std::string& body = "{\"q\":1}", const char* path = "/echo") {
  const char* names[] = {"Content-Type"};
  const char* values[] = {"application/json"};
  toolguard_http_post post{};
  post.origin = origin.c_str();
  post.path = path;
  post.body = body.data();
  post.body_size = body.size();
  post.header_names = names;
  post.header_values = values;
  post.header_count = 1;
  post.connect_timeout_ms = 2000;
  post.read_timeout_ms = 5000;
  post.write_timeout_ms = 5000;
  post.context = &got;
  post.on_status = [](void* c, int status, const char*) {
    static_cast<Collected*>(c)->statuses.push_back(status);
  };
  post.on_data = [](void* c, const char* data, size_t size) {
    auto& self = *static_cast<Collected*>(c);
    self.body.append(data, size);
    self.got_a_piece = true;
    return self.stop_after_first_piece ? 0 : 1;
  };
  post.cancelled = [](void* c) { return static_cast<Collected*>(c)->cancel.load() ? 1 : 0; };
  helper.post(post, got.outcome);
}

// A loopback server: /echo answers the body back, /slow sends a piece and
// then nothing for a long time.
class LoopbackServer {
 public:
  LoopbackServer() {
    server_.Post("/echo", [](const httplib::Request& req, httplib::Response& res) {
      res.set_content("echo:" + req.body + ":" + req.get_header_value("Content-Type"),
                      "text/plain");
    });
    server_.Post("/slow", [](const httplib::Request&, httplib::Response& res) {
      res.set_chunked_content_provider("text/plain", [](size_t offset, httplib::DataSink& sink) {
        if (offset == 0) return sink.write("first", 5);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        return sink.write(" ", 1);  // forever, until the client goes
      });
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] {
      server_.listen_after_bind();
      returned_ = true;
    });
    // Until the loop runs, stop() would do nothing and the join would wait forever.
    while (!server_.is_running() && !returned_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  ~LoopbackServer() {
    server_.stop();
    thread_.join();
  }
  std::string origin() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::atomic<bool> returned_{false};
  std::thread thread_;
};

TEST_F(HttpHelperTest, TheBuiltHelperIsFoundAndPosts) {
  auto helper = HttpHelper::from({dir / "none", kBuilt});
  ASSERT_TRUE(helper) << helper.error();
  LoopbackServer server;
  Collected got;
  postThrough(**helper, server.origin(), got);
  EXPECT_EQ(got.outcome.failure, TOOLGUARD_HTTP_OK) << got.outcome.failure_text;
  EXPECT_EQ(got.outcome.client_made, 1);
  ASSERT_FALSE(got.statuses.empty());
  EXPECT_EQ(got.statuses.back(), 200);
  EXPECT_EQ(got.body, "echo:{\"q\":1}:application/json");
}

TEST_F(HttpHelperTest, ALargeBodyAndBinaryBytesGoThroughWhole) {
  auto helper = HttpHelper::from({kBuilt});
  ASSERT_TRUE(helper) << helper.error();
  LoopbackServer server;
  std::string body(3 << 20, 'x');
  for (size_t i = 0; i < body.size(); i += 4099) body[i] = static_cast<char>(i % 256);
  Collected got;
  postThrough(**helper, server.origin(), got, body);
  EXPECT_EQ(got.outcome.failure, TOOLGUARD_HTTP_OK) << got.outcome.failure_text;
  EXPECT_EQ(got.body, "echo:" + body + ":application/json");
}

TEST_F(HttpHelperTest, NoServerIsAFailureWithHttplibsReason) {
  auto helper = HttpHelper::from({kBuilt});
  ASSERT_TRUE(helper) << helper.error();
  Collected got;
  postThrough(**helper, "http://127.0.0.1:1", got);
  EXPECT_NE(got.outcome.failure, TOOLGUARD_HTTP_OK);
  EXPECT_TRUE(got.statuses.empty());
  EXPECT_NE(std::string(got.outcome.failure_text), "");
}

TEST_F(HttpHelperTest, StoppingOrCancellingEndsTheTransfer) {
  auto helper = HttpHelper::from({kBuilt});
  ASSERT_TRUE(helper) << helper.error();
  LoopbackServer server;
  {
    Collected got;
    got.stop_after_first_piece = true;
    postThrough(**helper, server.origin(), got);  // /echo: one piece, then stopped
    EXPECT_STREQ(got.outcome.failure_text, "Canceled");
    EXPECT_EQ(got.outcome.failure, TOOLGUARD_HTTP_OTHER);
  }
  {
    Collected got;
    // Cancelled once the first piece is in (however long the helper took to
    // start on a busy machine), while the server keeps sending.
    std::thread canceller([&] {
      for (int i = 0; i < 1000 && !got.got_a_piece; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      got.cancel = true;
    });
    const auto started = std::chrono::steady_clock::now();
    postThrough(**helper, server.origin(), got, "", "/slow");
    canceller.join();
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
    EXPECT_STREQ(got.outcome.failure_text, "Canceled");
    EXPECT_EQ(got.body.substr(0, 5), "first");
  }
}

TEST_F(HttpHelperTest, AHelperOthersCanWriteIsRefused) {
  const fs::path copy = dir / "toolguard-http";
  fs::copy_file(kBuilt, copy);
  ::chmod(copy.c_str(), 0775);
  auto refused = HttpHelper::from({dir / "none", copy});
  EXPECT_FALSE(refused);
  const std::string& error = refused.error();
  EXPECT_NE(error.find((dir / "none").string() + ": not found"), std::string::npos) << error;
  EXPECT_NE(error.find(copy.string() + ": writable by others"), std::string::npos) << error;
  EXPECT_NE(error.find("reinstall toolguard"), std::string::npos) << error;
  ::chmod(copy.c_str(), 0755);
  auto found = HttpHelper::from({copy});
  EXPECT_TRUE(found) << found.error();
}

TEST_F(HttpHelperTest, ASymbolicLinkOrADirectoryOthersCanWriteIsRefused) {
  const fs::path link = dir / "linked";
  fs::create_symlink(kBuilt, link);
  auto linked = HttpHelper::from({link});
  EXPECT_FALSE(linked);
  EXPECT_NE(linked.error().find(link.string() + ": a symbolic link"), std::string::npos)
      << linked.error();
  const fs::path open_dir = dir / "open";
  fs::create_directories(open_dir);
  fs::copy_file(kBuilt, open_dir / "toolguard-http");
  ::chmod(open_dir.c_str(), 0777);
  auto in_open_dir = HttpHelper::from({open_dir / "toolguard-http"});
  EXPECT_FALSE(in_open_dir);
  EXPECT_NE(in_open_dir.error().find("in a directory others can write"), std::string::npos)
      << in_open_dir.error();
}

TEST_F(HttpHelperTest, TheHelperIsRunFromTheFileThatWasChecked) {
  // Replacing the file after it was found changes nothing: it runs from the
  // descriptor opened at the check.
  const fs::path copy = dir / "toolguard-http";
  fs::copy_file(kBuilt, copy);
  auto helper = HttpHelper::from({copy});
  ASSERT_TRUE(helper) << helper.error();
  fs::remove(copy);
  fs::copy_file("/bin/false", copy);
  LoopbackServer server;
  Collected got;
  postThrough(**helper, server.origin(), got);
  EXPECT_EQ(got.outcome.failure, TOOLGUARD_HTTP_OK) << got.outcome.failure_text;
}

TEST_F(HttpHelperTest, AProgramThatIsNoHelperFailsTheRequest) {
  const fs::path fake = dir / "toolguard-http";
  fs::copy_file("/bin/true", fake);
  auto helper = HttpHelper::from({fake});
  ASSERT_TRUE(helper) << helper.error();  // what it is shows only when it runs
  LoopbackServer server;
  Collected got;
  postThrough(**helper, server.origin(), got);
  EXPECT_EQ(got.outcome.failure, TOOLGUARD_HTTP_OTHER);
  EXPECT_EQ(got.outcome.client_made, 0);
  const std::string text = got.outcome.failure_text;
  EXPECT_NE(text.find("stopped without an answer (exit status 0"), std::string::npos) << text;
  EXPECT_NE(text.find("reinstall toolguard"), std::string::npos) << text;
  EXPECT_TRUE(got.statuses.empty());
}

}  // namespace http_helper_test
}  // namespace toolguard::detail
