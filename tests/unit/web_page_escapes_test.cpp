// The web queue's page (src/serve/web/app.js) shows the same characters as
// visible marks as the terminal prompt does: its table of hidden code points
// must equal isInvisibleOrControl, over every code point.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <utility>
#include <vector>

#include "core/unicode_text.hpp"

namespace toolguard {
namespace web_page_escapes_test {

std::vector<std::pair<unsigned, unsigned>> pageRanges() {
  std::ifstream in(std::string(TOOLGUARD_SOURCE_DIR) + "/src/serve/web/app.js");
  std::stringstream text;
  text << in.rdbuf();
  const std::string js = text.str();
  const size_t start = js.find("const hiddenRanges = [");
  const size_t end = js.find("];", start);
  if (start == std::string::npos || end == std::string::npos) return {};
  const std::string table = js.substr(start, end - start);
  std::vector<std::pair<unsigned, unsigned>> ranges;
  const std::regex pair(R"(\[\s*0x([0-9a-fA-F]+)\s*,\s*0x([0-9a-fA-F]+)\s*\])");
  for (auto it = std::sregex_iterator(table.begin(), table.end(), pair);
       it != std::sregex_iterator(); ++it) {
    ranges.emplace_back(std::stoul((*it)[1].str(), nullptr, 16),
                        std::stoul((*it)[2].str(), nullptr, 16));
  }
  return ranges;
}

TEST(WebPageEscapes, ThePagesHiddenCharactersAreTheTerminalPrompts) {
  const auto ranges = pageRanges();
  ASSERT_GT(ranges.size(), 10u) << "the table `const hiddenRanges = [...]` was not found in app.js";
  for (unsigned cp = 0; cp <= 0x10FFFF; ++cp) {
    bool in_page = false;
    for (const auto& [low, high] : ranges) in_page |= cp >= low && cp <= high;
    ASSERT_EQ(in_page, detail::isInvisibleOrControl(cp)) << "U+" << std::hex << cp;
  }
}

}  // namespace web_page_escapes_test
}  // namespace toolguard
