// Reading a command with its program's table of harmless options: every word
// must be found in the table, or the command is not known.
#include "option_table.hpp"

#include <glob.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "command_paths.hpp"
#include "option_entries.hpp"
#include "program_specs.hpp"
#include "shell_facts.hpp"
#include "toolguard/paths.hpp"

namespace toolguard::detail {
namespace {

// `5`, `-20`, `+3`, `1.5`, `10K`, `30s`: a sign, digits with one point, a unit.
bool isNumber(std::string_view t) {
  size_t i = 0;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) ++i;
  const size_t digits = i;
  bool point = false;
  while (i < t.size() &&
         (std::isdigit(static_cast<unsigned char>(t[i])) || (t[i] == '.' && !point))) {
    point = point || t[i] == '.';
    ++i;
  }
  if (i == digits || !std::isdigit(static_cast<unsigned char>(t[digits]))) return false;
  return std::all_of(t.begin() + static_cast<std::ptrdiff_t>(i), t.end(),
                     [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
}

bool isWord(std::string_view t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_.+-:=").find(c) != std::string_view::npos;
  });
}

bool isChoice(std::string_view kind, std::string_view value) {
  const std::string_view list = kind.substr(1, kind.size() - 2);
  size_t at = 0;
  while (at <= list.size()) {
    size_t end = list.find(',', at);
    if (end == std::string_view::npos) end = list.size();
    if (list.substr(at, end - at) == value) return true;
    at = end + 1;
  }
  return false;
}

// Where the value of one kind stops being known: empty when it is known.
std::string valueProblem(const OptionEntry& entry, const ShellWord& value,
                         const CommandScene* scene) {
  const std::string shown = "'" + value.source + "'";
  // A run-time value split into several words would add words nobody read.
  if (maySplit(value)) return "the value " + shown + " may become several words at run time";
  switch (kindOf(entry.kind)) {
    case ValueKind::Number:
      return !value.dynamic && isNumber(value.text) ? ""
                                                    : "the value " + shown + " is not a number";
    case ValueKind::Word:
      return !value.dynamic && isWord(value.text) ? ""
                                                  : "the value " + shown + " is not a plain name";
    case ValueKind::Choice:
      return !value.dynamic && isChoice(entry.kind, value.text)
                 ? ""
                 : "the value " + shown + " is not one of " + std::string(entry.kind);
    case ValueKind::Inside:
      if (value.dynamic) return "the value " + shown + " is known only at run time";
      if (value.text == "-" || value.text.starts_with("/dev/") ||
          value.text.starts_with("/proc/")) {
        return "the value " + shown + " is the input or a device";
      }
      if (scene == nullptr) return "";  // only the values are wanted
      return scene->view.insideWorkspace(resolvedPath(value, *scene))
                 ? ""
                 : "the value " + shown + " is outside the workspace";
    case ValueKind::Sub:
      return !value.dynamic && isWord(value.text) ? ""
                                                  : "the value " + shown + " is not a plain name";
    case ValueKind::Text:
    case ValueKind::Read:
    case ValueKind::Tree:
    case ValueKind::Write:
    case ValueKind::None:
      break;
  }
  return "";
}

bool mentionsCpuCount(std::span<const ShellWord> words) {
  return std::any_of(words.begin(), words.end(), [](const ShellWord& w) {
    return w.dynamic && (w.source.find("nproc") != std::string::npos ||
                         w.source.find("_NPROCESSORS_ONLN") != std::string::npos);
  });
}

// `make -j$(nproc)`: the number of processors, printed by nproc or getconf,
// is a number whatever the machine; the word is read with one in its place.
std::vector<ShellWord> withCpuCounts(std::span<const ShellWord> words) {
  std::vector<ShellWord> out(words.begin(), words.end());
  for (ShellWord& w : out) {
    if (!w.dynamic) continue;
    std::string source = w.source;
    for (std::string_view count : {"\"$(nproc)\"", "$(nproc)", "\"$(getconf _NPROCESSORS_ONLN)\"",
                                   "$(getconf _NPROCESSORS_ONLN)"}) {
      for (size_t at = source.find(count); at != std::string::npos; at = source.find(count)) {
        source.replace(at, count.size(), "1");
      }
    }
    if (source != w.source && source.find_first_of("$`\"'\\*?[") == std::string::npos) {
      w = ShellWord{source, false, w.source};
    }
  }
  return out;
}

class TableReader {
 public:
  TableReader(std::span<const ShellWord> words, const CommandScene* scene, TableParse& out)
      : owned_(mentionsCpuCount(words) ? withCpuCounts(words) : std::vector<ShellWord>()),
        words_(owned_.empty() ? words : std::span<const ShellWord>(owned_)),
        scene_(scene),
        out_(out) {}

  void read(const ProgramSpec& spec) {
    out_.spec = &spec;
    bool options_end = false;
    for (; at_ < words_.size() && out_.known(); ++at_) {
      const ShellWord& w = words_[at_];
      const std::string& t = w.text;
      if (!options_end && !w.dynamic && t == "--") {
        options_end = true;
        continue;
      }
      if (options_end || !looksLikeOption(w)) {
        if (!operand(spec, w, options_end)) return;
        if (spec.operands == OperandRule::Sub) {
          enterSubcommand(spec, w);
          return;
        }
        if (spec.options_end_at_operand) options_end = true;
        continue;
      }
      if (w.dynamic && !globOnlyInValue(w)) {
        fail("'" + w.source + "' is an option known only at run time");
        return;
      }
      if (spec.response_files && t.starts_with('@')) {
        fail("'" + t + "' reads more options from a file");
        return;
      }
      if (spec.style == OptionStyle::Gnu) {
        gnuOption(spec);
      } else {
        longOption(spec);
      }
    }
    // Without a subcommand only the program's help or version query is
    // known, or what the program runs then when that has a table.
    if (out_.known() && spec.operands == OperandRule::Sub && !spec.without_subcommand.empty()) {
      const ProgramSpec* implied = findProgramSpec(canonicalCommand(spec.command) + " " +
                                                   std::string(spec.without_subcommand));
      if (implied != nullptr) {
        out_.spec = implied;
        return;
      }
    }
    if (out_.known() && spec.operands == OperandRule::Sub &&
        (out_.options.empty() ||
         !std::all_of(out_.options.begin(), out_.options.end(), [](const FoundOption& o) {
           return o.spelling == "--version" || o.spelling == "--help" || o.spelling == "-V" ||
                  o.spelling == "-h" || o.spelling == "-version" || o.spelling == "-v";
         }))) {
      fail(std::string(spec.command) + " without a subcommand");
    }
  }

 private:
  // A word the program would read as an option (or that may become one).
  bool looksLikeOption(const ShellWord& w) const {
    if (w.dynamic && out_.spec->words_are_data) return false;
    if (w.dynamic && globOnlyInValue(w)) return true;
    if (w.dynamic) return !wordIsFixedOperand(w) && !globFindsNoOption(w);
    if (w.text.size() >= 2 && w.text[0] == '-') return true;
    return w.text.starts_with('@') && out_.spec->response_files;
  }

  // `--include=*.py`: an option written out whose value is a glob; what the
  // glob may find starts with the same option.
  static bool globOnlyInValue(const ShellWord& w) {
    const std::string& t = w.text;
    const size_t eq = t.find('=');
    return t.starts_with('-') && eq != std::string::npos &&
           w.source.find_first_of("$`") == std::string::npos &&
           t.substr(0, eq).find_first_of("*?[") == std::string::npos;
  }

  // `*.py`, `*/`: a glob of no expansion that, expanded now where the
  // command runs, finds no name starting with `-`, and that no earlier
  // command of the program may add names to.
  bool globFindsNoOption(const ShellWord& w) const {
    if (scene_ == nullptr || w.source.find_first_of("$`\"'") != std::string::npos ||
        w.text.find('/') == 0) {
      return false;
    }
    const std::optional<std::string> cwd = effectiveCwd(*scene_);
    if (!cwd || *cwd == kUnknownDirectory) return false;
    for (const SimpleCommand& c : scene_->program.commands) {
      if (&c == &scene_->command) break;
      const std::vector<CommandPath> paths = commandPaths(c);
      if (std::any_of(paths.begin(), paths.end(),
                      [](const CommandPath& p) { return p.kind == PathAccessKind::Write; })) {
        return false;  // it may create a file named `-x` first
      }
    }
    glob_t found{};
    const std::string pattern = *cwd + "/" + w.text;
    const int rc = ::glob(pattern.c_str(), GLOB_NOSORT, nullptr, &found);
    bool harmless = rc == 0 || rc == GLOB_NOMATCH;
    for (size_t i = 0; harmless && rc == 0 && i < found.gl_pathc; ++i) {
      const std::string_view name = found.gl_pathv[i] + cwd->size() + 1;
      harmless = !name.starts_with('-');
    }
    ::globfree(&found);
    return harmless;
  }

  bool operand(const ProgramSpec& spec, const ShellWord& w, bool after_double_dash) {
    if (spec.words_are_data) {
      out_.operands.push_back(w);
      return true;
    }
    if (after_double_dash ? maySplit(w) : !wordIsFixedOperand(w) && !globFindsNoOption(w)) {
      fail("'" + w.source + "' may become an option or several words at run time");
      return false;
    }
    if (spec.operands == OperandRule::None) {
      fail(std::string(spec.command) + " takes no operand like '" + w.source + "'");
      return false;
    }
    out_.operands.push_back(w);
    return true;
  }

  void enterSubcommand(const ProgramSpec& spec, const ShellWord& w) {
    if (w.dynamic) {
      fail("the subcommand '" + w.source + "' is known only at run time");
      return;
    }
    const std::string key = canonicalCommand(spec.command) + " " + w.text;
    const ProgramSpec* sub = findProgramSpec(key);
    if (sub == nullptr) {
      fail("'" + key + "' is not a subcommand known to be harmless");
      return;
    }
    out_.operands.pop_back();  // the subcommand's name is not an operand
    ++at_;
    read(*sub);
  }

  void gnuOption(const ProgramSpec& spec) {
    const ShellWord& w = words_[at_];
    const std::string& t = w.text;
    if (t.starts_with("--")) {
      const size_t eq = t.find('=');
      const std::string_view name = std::string_view(t).substr(0, eq);
      const std::optional<Match> m = findSpelling(spec.options, name);
      if (!m) {
        fail("'" + std::string(name) + "' is not an option known to be harmless");
        return;
      }
      if (eq != std::string::npos) {
        if (m->entry.kind.empty()) {
          fail("'" + std::string(name) + "' takes no value");
          return;
        }
        take(*m, ShellWord{t.substr(eq + 1), w.dynamic, t.substr(eq + 1)});
      } else if (m->entry.kind.empty() || m->entry.optional_value) {
        out_.options.push_back(
            FoundOption{std::string(m->spelling), m->entry.spellings, ValueKind::None, {}});
      } else {
        takeNext(*m);
      }
      return;
    }
    // A cluster of short options: `-rf`, `-n5`, `-o file`.
    for (size_t k = 1; k < t.size(); ++k) {
      const char letter = t[k];
      if (k == 1 && std::isdigit(static_cast<unsigned char>(letter))) {
        if (findSpelling(spec.options, "-#") && isNumber(std::string_view(t).substr(1))) {
          out_.options.push_back(FoundOption{"-#", "-#", ValueKind::Number,
                                             ShellWord{t.substr(1), false, t.substr(1)}});
          return;
        }
      }
      const std::string name = std::string("-") + letter;
      const std::optional<Match> m = findSpelling(spec.options, name);
      if (!m) {
        fail("'" + name + "' (in '" + t + "') is not an option known to be harmless");
        return;
      }
      if (m->entry.kind.empty()) {
        out_.options.push_back(FoundOption{name, m->entry.spellings, ValueKind::None, {}});
        continue;
      }
      if (k + 1 < t.size()) {
        take(*m, ShellWord{t.substr(k + 1), w.dynamic, t.substr(k + 1)});
      } else if (m->entry.optional_value) {
        out_.options.push_back(FoundOption{name, m->entry.spellings, ValueKind::None, {}});
      } else {
        takeNext(*m);
      }
      return;
    }
  }

  void longOption(const ProgramSpec& spec) {
    const ShellWord& w = words_[at_];
    const std::string& t = w.text;
    if (std::optional<Match> m = findSpelling(spec.options, t)) {
      flagOrNextValue(*m);
      return;
    }
    // `-name=value`, `--name=value`
    if (const size_t eq = t.find('='); eq != std::string::npos) {
      const std::string_view name = std::string_view(t).substr(0, eq);
      std::optional<Match> m = findSpelling(spec.options, name);
      if (!m && name.starts_with("--")) m = findSpelling(spec.options, name.substr(1));
      if (m && !m->entry.kind.empty()) {
        take(*m, ShellWord{t.substr(eq + 1), w.dynamic, t.substr(eq + 1)});
        return;
      }
      if (m && m->entry.kind.empty()) {
        // Go's boolean flags take `=true` / `=false`.
        const std::string value = t.substr(eq + 1);
        if (value == "true" || value == "false" || value == "1" || value == "0") {
          out_.options.push_back(
              FoundOption{std::string(m->spelling), m->entry.spellings, ValueKind::None, {}});
          return;
        }
      }
    }
    // Go also reads `--name` as `-name`.
    if (t.starts_with("--")) {
      if (std::optional<Match> m = findSpelling(spec.options, std::string_view(t).substr(1))) {
        flagOrNextValue(*m);
        return;
      }
    }
    // A family (`-Wall`) or a one-letter option with its value glued (`-Idir`, `-O2`).
    if (std::optional<Match> m = findFamily(spec.options, t)) {
      take(*m, ShellWord{t.substr(m->spelling.size()), w.dynamic, t.substr(m->spelling.size())});
      return;
    }
    if (spec.style == OptionStyle::Long && t.size() > 2 && t[1] != '-') {
      if (std::optional<Match> m = findSpelling(spec.options, t.substr(0, 2));
          m && !m->entry.kind.empty()) {
        take(*m, ShellWord{t.substr(2), w.dynamic, t.substr(2)});
        return;
      }
    }
    fail("'" + t + "' is not an option known to be harmless");
  }

  // A spelling written alone: a flag, or an option whose value is the next word.
  void flagOrNextValue(const Match& m) {
    if (m.entry.kind.empty() || m.entry.optional_value) {
      out_.options.push_back(
          FoundOption{std::string(m.spelling), m.entry.spellings, ValueKind::None, {}});
    } else {
      takeNext(m);
    }
  }

  void takeNext(const Match& m) {
    if (at_ + 1 >= words_.size()) {
      fail("'" + std::string(m.spelling) + "' without its value");
      return;
    }
    ++at_;
    take(m, words_[at_]);
  }

  void take(const Match& m, const ShellWord& value) {
    const std::string problem = valueProblem(m.entry, value, scene_);
    if (!problem.empty()) {
      fail(std::string(m.spelling) + ": " + problem);
      return;
    }
    out_.options.push_back(
        FoundOption{std::string(m.spelling), m.entry.spellings, kindOf(m.entry.kind), value});
    if (kindOf(m.entry.kind) == ValueKind::Sub) {
      const std::string key =
          canonicalCommand(out_.spec->command) + " " + std::string(m.spelling) + " " + value.text;
      const ProgramSpec* sub = findProgramSpec(key);
      if (sub == nullptr) {
        fail("'" + key + "' is not known to be harmless");
        return;
      }
      ++at_;
      read(*sub);
      at_ = words_.size();  // the rest was read with the module's table
    }
  }

  void fail(std::string why) {
    if (out_.unknown.empty()) out_.unknown = std::move(why);
  }

  std::vector<ShellWord> owned_;
  std::span<const ShellWord> words_;
  const CommandScene* scene_;
  TableParse& out_;
  size_t at_ = 0;
};

}  // namespace

namespace {

bool spelledBy(const FoundOption& o, std::string_view spelling) {
  return o.spelling == spelling ||
         forEachSpelling(o.spellings, [&](std::string_view s) { return s == spelling; });
}

}  // namespace

bool TableParse::has(std::string_view spelling) const {
  return std::any_of(options.begin(), options.end(),
                     [&](const FoundOption& o) { return spelledBy(o, spelling); });
}

std::vector<ShellWord> TableParse::valuesOf(std::string_view spelling) const {
  std::vector<ShellWord> out;
  for (const FoundOption& o : options) {
    if (o.kind != ValueKind::None && spelledBy(o, spelling)) out.push_back(o.value);
  }
  return out;
}

TableParse parseWithTable(const ProgramSpec& spec, std::span<const ShellWord> arguments,
                          const CommandScene* scene) {
  TableParse parse;
  TableReader(arguments, scene, parse).read(spec);
  if (parse.known() && scene != nullptr && parse.spec->check != nullptr &&
      !parse.spec->check(parse, *scene)) {
    parse.unknown =
        std::string(parse.spec->command) + ": not known to be harmless with these words";
  }
  return parse;
}

bool maySplit(const ShellWord& word) {
  if (!word.dynamic) return false;
  const std::string& s = word.source;
  bool in_double = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\\') {
      ++i;
    } else if (c == '"') {
      in_double = !in_double;
    } else if (c == '\'' && !in_double) {
      const size_t close = s.find('\'', i + 1);
      if (close == std::string::npos) return true;
      i = close;
    } else if ((c == '$' || c == '`') && !in_double) {
      // `$'...'` is a quoted string, not an expansion.
      if (c == '$' && i + 1 < s.size() && s[i + 1] == '\'') continue;
      return true;
    }
  }
  return false;
}

bool wordIsFixedOperand(const ShellWord& word) {
  if (!word.dynamic) return !word.text.starts_with('-');
  if (maySplit(word)) return false;
  // The first character bash produces must be a literal one other than `-`:
  // not an expansion, not a glob that may find a file named `-x`.
  const std::string& s = word.source;
  size_t i = 0;
  bool quoted = false;
  while (i < s.size() && (s[i] == '"' || (s[i] == '\'' && i + 1 < s.size() && s[i + 1] == '\''))) {
    if (s[i] == '"') {
      quoted = true;
      ++i;
    } else {
      i += 2;  // an empty '' before the word
    }
  }
  if (i >= s.size()) return false;
  const char first = s[i];
  if (first == '$' || first == '`' || first == '-' || first == '\\' || first == '\'') return false;
  if (!quoted && (first == '*' || first == '?' || first == '[' || first == '{')) return false;
  return !word.text.starts_with('-');
}

}  // namespace toolguard::detail
