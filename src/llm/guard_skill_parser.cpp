// Guard skill files: a `---` line, YAML front matter, a `---` line, then the
// Markdown body. Errors name the file, line and column (lines of the whole
// file: the front matter starts on line 2).
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <optional>
#include <set>

#include "policy/yaml_json.hpp"
#include "toolguard/guard_skills.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard {
namespace {

constexpr std::array<std::string_view, 6> kLanguages = {"",   "bash", "python",
                                                        "go", "js",   "powershell"};
constexpr size_t kMaxNameLength = 64;
constexpr std::string_view kExpectedKeys = "name, description, language, auto_invoke";

// One line of the file, without its line break (`\n` or `\r\n`).
struct Line {
  std::string_view text;
  size_t end = 0;  // offset just past the line break
};

std::vector<Line> splitLines(std::string_view text) {
  std::vector<Line> lines;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t newline = text.find('\n', begin);
    const size_t end = newline == std::string_view::npos ? text.size() : newline + 1;
    std::string_view line =
        text.substr(begin, (newline == std::string_view::npos ? end : newline) - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back({line, end});
    begin = end;
  }
  return lines;
}

// `---`, allowing trailing blanks.
bool isFence(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  return line == "---";
}

std::string withoutCarriageReturns(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    out += text[i];
  }
  return out;
}

// The body without leading blank lines and trailing white space.
std::string trimBody(std::string body) {
  const size_t last = body.find_last_not_of(" \t\r\n");
  if (last == std::string::npos) return {};
  body.erase(last + 1);
  size_t first = 0;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\n') {
      first = i + 1;
    } else if (body[i] != ' ' && body[i] != '\t') {
      break;
    }
  }
  return body.substr(first);
}

bool isValidName(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameLength || name.front() == '-') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

// Reads the front matter's YAML mapping into a skill, collecting every error.
class FrontMatterReader {
 public:
  FrontMatterReader(std::string source, int first_line)
      : source_(std::move(source)), first_line_(first_line) {}

  void read(const std::string& yaml, GuardSkill& skill) {
    YAML::Node root;
    try {
      root = YAML::Load(yaml);
    } catch (const YAML::Exception& e) {
      throw PolicyError(at(e.mark), "invalid YAML in the front matter: " + e.msg);
    }
    if (!root.IsNull() && !root.IsMap()) {
      error(where(root),
            "the front matter must be a mapping with keys " + std::string(kExpectedKeys));
      finish();
    }
    std::set<std::string> seen;
    for (const auto& item : root) {  // nothing when the front matter is empty
      const YAML::Node& key = item.first;
      if (!key.IsScalar()) {
        error(where(key), "expected a plain key");
      } else if (!seen.insert(key.Scalar()).second) {
        error(where(key), "duplicate key '" + key.Scalar() + "'");
      } else {
        readEntry(key, item.second, skill);
      }
    }
    const SourceLocation start{source_, first_line_, 1};
    if (!seen.contains("name")) error(start, "the front matter has no 'name'");
    if (!seen.contains("description")) error(start, "the front matter has no 'description'");
    if (auto_invoke_where_ && skill.auto_invoke && skill.language.empty() && !bad_language_) {
      error(*auto_invoke_where_,
            "auto_invoke: true needs a language (a skill is loaded automatically for calls in its "
            "language)");
    }
    finish();
  }

 private:
  void readEntry(const YAML::Node& key, const YAML::Node& value, GuardSkill& skill) {
    const std::string& k = key.Scalar();
    if (k == "name") {
      if (auto name = string(key, value)) {
        if (isValidName(*name)) {
          skill.name = *name;
        } else {
          error(where(value), "name: '" + *name +
                                  "' is not a skill name (lowercase letters, digits and '-', "
                                  "not starting with '-', at most " +
                                  std::to_string(kMaxNameLength) + " characters)");
        }
      }
    } else if (k == "description") {
      if (auto description = string(key, value)) {
        if (description->find_first_not_of(" \t") == std::string::npos ||
            description->find_first_of("\r\n") != std::string::npos) {
          error(where(value), "description: expected one non-empty line");
        } else {
          skill.description = *description;
        }
      }
    } else if (k == "language") {
      auto language = string(key, value);
      bad_language_ = true;
      if (!language) return;
      if (std::find(kLanguages.begin(), kLanguages.end(), *language) == kLanguages.end()) {
        error(where(value), "language: unknown language '" + *language +
                                "' (expected \"\", bash, python, go, js or powershell)");
        return;
      }
      bad_language_ = false;
      skill.language = *language;
    } else if (k == "auto_invoke") {
      const nlohmann::json flag = value.IsScalar() ? detail::yamlToJson(value) : nullptr;
      if (flag.is_boolean()) {
        skill.auto_invoke = flag.get<bool>();
        auto_invoke_where_ = where(value);
      } else {
        error(where(value), "auto_invoke: expected true or false");
      }
    } else {
      error(where(key), "unknown key '" + k + "' (expected " + std::string(kExpectedKeys) + ")");
    }
  }

  SourceLocation at(const YAML::Mark& mark) const {
    if (mark.is_null()) return SourceLocation{source_, first_line_, 1};
    return SourceLocation{source_, first_line_ + mark.line, mark.column + 1};
  }
  SourceLocation where(const YAML::Node& node) const { return at(node.Mark()); }

  void error(SourceLocation where, std::string message) {
    errors_.push_back({std::move(where), std::move(message)});
  }

  void finish() {
    if (!errors_.empty()) throw PolicyError(std::move(errors_));
  }

  // A string value: a scalar that is not a plain number, boolean or null. A
  // missing value is reported at its key (yaml-cpp places it on the next token).
  std::optional<std::string> string(const YAML::Node& key, const YAML::Node& value) {
    if (value.IsScalar() && detail::yamlToJson(value).is_string()) return value.Scalar();
    if (value.IsNull()) {
      error(where(key), key.Scalar() + ": expected a string, found no value");
    } else {
      error(where(value), key.Scalar() + ": expected a string (quote values such as true or 1)");
    }
    return std::nullopt;
  }

  std::string source_;
  int first_line_;
  std::vector<PolicyDiagnostic> errors_;
  std::optional<SourceLocation> auto_invoke_where_;  // set when auto_invoke is a boolean
  bool bad_language_ = false;                        // `language` is there but unusable
};

}  // namespace

GuardSkill parseGuardSkill(std::string_view text, const std::string& source_name) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 byte order mark
  const std::vector<Line> lines = splitLines(text);
  if (lines.empty() || !isFence(lines[0].text)) {
    throw PolicyError(SourceLocation{source_name, 1, 1},
                      "expected '---' on the first line, opening the YAML front matter");
  }
  size_t close = 1;
  while (close < lines.size() && !isFence(lines[close].text)) ++close;
  if (close == lines.size()) {
    throw PolicyError(SourceLocation{source_name, 1, 1},
                      "the front matter opened here is never closed by a '---' line");
  }

  GuardSkill skill;
  skill.source = source_name;
  const size_t yaml_begin = lines[0].end;
  const size_t yaml_end = lines[close - 1].end;  // == yaml_begin for empty front matter
  FrontMatterReader(source_name, 2)
      .read(withoutCarriageReturns(text.substr(yaml_begin, yaml_end - yaml_begin)), skill);

  skill.body = trimBody(withoutCarriageReturns(text.substr(lines[close].end)));
  if (skill.body.empty()) {
    throw PolicyError(SourceLocation{source_name, static_cast<int>(close) + 2, 1},
                      "the skill has no text after its front matter");
  }
  return skill;
}

}  // namespace toolguard
