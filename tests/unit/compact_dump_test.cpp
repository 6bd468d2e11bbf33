// appendCompactDump writes what nlohmann's dump() writes, byte for byte: the
// approval keys stored in approval files depend on it.
#include "json/compact_dump.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace toolguard::detail {
namespace compact_dump_test {

using nlohmann::json;

std::string compact(const json& value) {
  std::string out;
  appendCompactDump(out, value);
  return out;
}

std::string randomText(std::mt19937& random) {
  static const std::vector<std::string> pieces = {
      "a",    "Z",    " ",    "\"",       "\\",           "/",
      "\b",   "\f",   "\n",   "\r",       "\t",           std::string(1, '\0'),
      "\x01", "\x1f", "\x7f", "\xc3\xa9", "\xe2\x84\xaa", "\xf0\x9f\x98\x80",
      "{",    "}",    ":",    ","};
  std::string text;
  const int n = static_cast<int>(random() % 8);
  for (int i = 0; i < n; ++i) text += pieces[random() % pieces.size()];
  return text;
}

json randomValue(std::mt19937& random, int depth) {
  switch (random() % (depth > 3 ? 7 : 9)) {
    case 0:
      return nullptr;
    case 1:
      return random() % 2 == 0;
    case 2:
      return static_cast<std::int64_t>(random()) - (1LL << 31);
    case 3:
      return static_cast<std::uint64_t>(random()) << 32 | random();
    case 4:
      return std::uniform_real_distribution<double>(-1e6, 1e6)(random);
    case 5:
    case 6:
      return randomText(random);
    case 7: {
      json object = json::object();
      const int n = static_cast<int>(random() % 4);
      for (int i = 0; i < n; ++i) object[randomText(random)] = randomValue(random, depth + 1);
      return object;
    }
    default: {
      json array = json::array();
      const int n = static_cast<int>(random() % 4);
      for (int i = 0; i < n; ++i) array.push_back(randomValue(random, depth + 1));
      return array;
    }
  }
}

TEST(CompactDump, WritesWhatDumpWrites) {
  std::mt19937 random(5);
  for (int i = 0; i < 5000; ++i) {
    const json value = randomValue(random, 0);
    ASSERT_EQ(compact(value), value.dump()) << value.dump();
  }
  for (const json& edge : {json(-0.0), json(1e300), json(INT64_MIN), json(UINT64_MAX),
                           json::object(), json::array(), json(""), json("\x7f")}) {
    EXPECT_EQ(compact(edge), edge.dump());
  }
}

TEST(CompactDump, InvalidUtf8ThrowsAsDumpDoes) {
  const json bad = {{"k", std::string("\xff\xfe")}};
  EXPECT_THROW(bad.dump(), json::type_error);
  EXPECT_THROW(compact(bad), json::type_error);
  const json bad_key = {{std::string("\xc3"), 1}};
  EXPECT_THROW(compact(bad_key), json::type_error);
}

TEST(CompactDump, InvalidUtf8IsReplacedAsDumpReplacesIt) {
  std::mt19937 random(9);
  for (int i = 0; i < 2000; ++i) {
    json value = json::object();
    value["v"] = randomValue(random, 0);
    value[std::string("k\xff") + randomText(random)] =
        std::string("\xc3(\xe2\x28") + randomText(random);
    EXPECT_EQ(compactDump(value, BadUtf8::Replace),
              value.dump(-1, ' ', false, json::error_handler_t::replace));
  }
}

}  // namespace compact_dump_test
}  // namespace toolguard::detail
