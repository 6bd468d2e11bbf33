// A message's top-level id replaced in its text: the same message as
// reading it whole and setting its id, for objects written every way JSON
// allows; and no answer (the caller reads it whole) where the text is not
// plain enough to be sure which id a reader takes.
#include "mcp/message_id_splice.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

namespace toolguard::mcp {
namespace {

using json = nlohmann::json;

TEST(MessageIdSplice, ReplacesOnlyTheTopLevelId) {
  const std::string line =
      R"({"jsonrpc":"2.0","result":{"id":7,"content":[{"text":"\"id\": 7 } {"}]},"id":7})";
  const std::optional<std::string> renamed = withTopLevelId(line, R"("client-1")");
  ASSERT_TRUE(renamed.has_value());
  const json message = json::parse(*renamed);
  EXPECT_EQ(message["id"], "client-1");
  EXPECT_EQ(message["result"]["id"], 7);
  EXPECT_EQ(message["result"]["content"][0]["text"], "\"id\": 7 } {");
}

TEST(MessageIdSplice, LeavesWhatItCannotBeSureOfToTheReader) {
  for (const char* line : {
           R"({"id":1,"id":2,"result":{}})",  // twice
           R"({"\u0069d":1,"result":{}})",    // the key escaped
           R"({"result":{}})",                // none
           R"([{"id":1,"result":{}}])",       // not an object
           R"({})",                           // empty
           R"({"id":1,"result":{}} x)",       // something after it
           R"({"id":1 "result":{}})",         // no comma
       }) {
    EXPECT_FALSE(withTopLevelId(line, "5").has_value()) << line;
  }
}

// Random messages written with random spacing: spliced, they read as the
// message read whole with its id set.
TEST(MessageIdSplice, AgreesWithReadingTheMessageWhole) {
  std::mt19937 random(20261201);
  const std::vector<std::string> strings = {"", "id", "}", "{", "\"", "\\", "a,b", "é", "[\"id\"]"};
  std::function<json(int)> value = [&](int depth) -> json {
    switch (random() % (depth > 2 ? 4 : 6)) {
      case 0:
        return static_cast<int64_t>(random() % 1000) - 500;
      case 1:
        return strings[random() % strings.size()];
      case 2:
        return random() % 2 ? json(true) : json(nullptr);
      case 3:
        return 1.5;
      case 4: {
        json object = json::object();
        for (size_t n = random() % 4; n > 0; --n)
          object[strings[random() % strings.size()]] = value(depth + 1);
        return object;
      }
      default: {
        json array = json::array();
        for (size_t n = random() % 4; n > 0; --n) array.push_back(value(depth + 1));
        return array;
      }
    }
  };
  for (int i = 0; i < 2000; ++i) {
    json message = {{"jsonrpc", "2.0"}, {"id", static_cast<int64_t>(random() % 100)}};
    for (size_t n = random() % 4; n > 0; --n) message["k" + std::to_string(n)] = value(0);
    message["result"] = value(0);
    // Spaces between tokens, as another writer might put them.
    std::string line = message.dump(random() % 2 ? -1 : static_cast<int>(random() % 3));
    const json client_id = random() % 2 ? json("c-" + std::to_string(i)) : json(i);
    const std::optional<std::string> renamed = withTopLevelId(line, client_id.dump());
    ASSERT_TRUE(renamed.has_value()) << line;
    json expected = message;
    expected["id"] = client_id;
    EXPECT_EQ(json::parse(*renamed), expected) << line;
  }
}

}  // namespace
}  // namespace toolguard::mcp
