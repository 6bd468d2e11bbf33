// The builder's effects: what a command does to the variables after it runs.
#include <algorithm>
#include <utility>

#include "known_output.hpp"
#include "program_builder.hpp"
#include "toolguard/paths.hpp"
#include "unterminated_quote.hpp"
#include "word_value.hpp"

namespace toolguard::detail {
namespace {

// POSIX's special builtins: in sh (POSIX mode), assignments before them stay.
bool isSpecialBuiltin(std::string_view name) {
  return isOneOf(name, {":", ".", "break", "continue", "eval", "exec", "exit", "export", "readonly",
                        "return", "set", "shift", "source", "times", "trap", "unset"});
}

std::optional<long long> count(const std::string& text) {
  if (text.empty() || text.size() > 6 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stoll(text);
}

}  // namespace

void ProgramBuilder::declarationEffects(const SimpleCommand& cmd,
                                        const std::vector<size_t>& assigned_words,
                                        const std::vector<size_t>& appended_words) {
  const std::string_view keyword = cmd.commandName();
  if ((keyword == "local" && function_depth_ == 0) ||
      (env_.posix() && (keyword == "declare" || keyword == "typeset"))) {
    // Outside a function bash refuses `local`; inside one run through eval
    // it works. dash has no declare. What they name is not followed.
    for (const auto& [name, value] : cmd.assignments) env_.forget(name.substr(0, name.find('[')));
    for (size_t i = 1; i < cmd.words.size(); ++i) {
      const std::string& w = cmd.words[i].text;
      if (cmd.words[i].dynamic) {
        env_.makeOpaque();
        return;
      }
      if (isVariableName(w.substr(0, w.find('=')))) env_.forget(w.substr(0, w.find('=')));
    }
    return;
  }
  bool readonly = keyword == "readonly";
  bool attributes = false;
  std::vector<std::string> names;
  for (size_t i = 1; i < cmd.words.size(); ++i) {
    const ShellWord& w = cmd.words[i];
    if (w.dynamic) {
      env_.makeOpaque();
      return;
    }
    if ((w.text.starts_with("-") || w.text.starts_with("+")) && w.text.size() > 1) {
      if (w.text.find('n') != std::string::npos) {
        env_.makeOpaque();  // a nameref: assignments land elsewhere
        return;
      }
      if (w.text.find('f') != std::string::npos || w.text.find('F') != std::string::npos) return;
      if (w.text.find('r') != std::string::npos) readonly = true;
      if (w.text.find_first_not_of("-+xgpr") != std::string::npos) attributes = true;
      continue;
    }
    names.push_back(w.text.substr(0, w.text.find('=')));
  }
  for (size_t index : assigned_words) {
    const auto& [name, value] = cmd.assignments[index];
    const std::string base = name.substr(0, name.find('['));
    const bool append = std::find(appended_words.begin(), appended_words.end(), index) !=
                        appended_words.end();  // `export D+=x`: not followed
    if (attributes || append || base != name || value.dynamic || !isVariableName(name)) {
      attributes ? env_.forgetForGood(base) : env_.forget(base);
    } else if (keyword == "local" || keyword == "declare" || keyword == "typeset" ||
               keyword == "export" || keyword == "readonly") {
      env_.set(name, value.text);
    }
    if (readonly) env_.markReadonly(base);
  }
  // Names without a value: export and readonly keep it; local, declare and
  // typeset make a new variable whose value is not followed.
  for (const std::string& name : names) {
    if (!isVariableName(name)) continue;
    if (attributes) {
      env_.forgetForGood(name);
    } else if (keyword != "export" && keyword != "readonly") {
      env_.forget(name);
    }
    if (readonly) env_.markReadonly(name);
  }
}

void ProgramBuilder::effects(const SimpleCommand& cmd, ShellPlacement placement,
                             const Redirects& redirects) {
  if (cmd.words.empty()) return;  // assignments alone were applied as they were read
  if (cmd.nameIsDynamic()) {
    env_.makeOpaque();  // `$cmd X` may be `read X`, `eval ...`
    return;
  }
  const std::vector<ShellWord>& w = cmd.words;
  std::string_view name = cmd.commandName();
  size_t first = 0;
  bool bypasses_functions = false;
  while ((name == "builtin" || name == "command") && first + 1 < w.size()) {
    bypasses_functions = true;
    ++first;
    while (first < w.size() && w[first].text.starts_with("-")) {
      if (w[first].text.find_first_of("vV") != std::string::npos) return;  // a lookup
      ++first;
    }
    if (first >= w.size() || w[first].dynamic) {
      env_.makeOpaque();
      return;
    }
    name = w[first].text;
  }
  if (isSpecialBuiltin(name)) {
    // In POSIX mode (sh) assignments before a special builtin stay.
    for (const auto& [n, value] : cmd.assignments) env_.forget(n.substr(0, n.find('[')));
  }
  if (!bypasses_functions) {
    if (auto it = functions_.find(name); it != functions_.end()) {
      callFunction(cmd, it->second, placement, redirects);
      return;
    }
  }
  if (isOneOf(name, {"eval", "source", ".", "trap", "alias", "enable", "fc", "coproc", "declare",
                     "typeset", "local", "export", "readonly"})) {
    env_.makeOpaque();
  } else if (name == "hash") {
    env_.distrustOutputs();  // `hash -p PATH cat`: cat is another program
  } else if (name == "let") {
    for (size_t i = first + 1; i < w.size(); ++i) {
      arithmetic(w[i].text);
    }
  } else if (name == "printf" && first + 2 < w.size() && w[first + 1].text.starts_with("-v")) {
    // printf -v NAME FORMAT ARGS: NAME gets what printf would print.
    const bool separate = w[first + 1].text == "-v";
    const std::string target = separate ? w[first + 2].text : w[first + 1].text.substr(2);
    std::vector<std::string> rest;
    bool known = true;
    size_t format = first + (separate ? 3 : 2);
    if (format < w.size() && w[format].text == "--") ++format;  // the end of the options
    for (size_t i = format; i < w.size(); ++i) {
      known = known && !w[i].dynamic;
      rest.push_back(w[i].text);
    }
    std::optional<std::string> value = known ? printfOutput(rest) : std::nullopt;
    if (value && isVariableName(target) && env_.outputsKnown() && !env_.posix()) {
      env_.set(target, std::move(*value));
    } else {
      env_.forget(target.substr(0, target.find('[')));
    }
  } else if (name == "unset") {
    for (size_t i = first + 1; i < w.size(); ++i) {
      if (w[i].dynamic) return env_.makeOpaque();
      if (w[i].text == "-f") return;  // functions
      if (w[i].text == "-n") return env_.makeOpaque();
      if (w[i].text.starts_with("-")) continue;
      const std::string& n = w[i].text;
      if (isVariableName(n)) {
        env_.unset(n);
      } else {
        env_.forget(n.substr(0, n.find('[')));
      }
    }
  } else if (changesNamedVariables(name)) {
    // read, mapfile, getopts, wait -p, printf without -v: every name given.
    for (size_t i = first + 1; i < w.size(); ++i) {
      if (w[i].dynamic) return env_.makeOpaque();
      std::string_view t = w[i].text;
      if (t.starts_with("-") && t.size() > 2) t.remove_prefix(2);
      if (isVariableName(t)) env_.forget(t);
    }
  } else if (name == "set") {
    for (size_t i = first + 1; i < w.size(); ++i) {
      const std::string& t = w[i].text;
      if (w[i].dynamic) return env_.forgetPositional();
      if (t == "-o" || t == "+o") {
        ++i;
        continue;
      }
      if (t == "--" || t == "-" || !(t.starts_with("-") || t.starts_with("+"))) {
        std::vector<std::string> values;
        for (size_t k = (t == "--" || t == "-") ? i + 1 : i; k < w.size(); ++k) {
          if (w[k].dynamic) return env_.forgetPositional();
          values.push_back(w[k].text);
        }
        env_.setPositional(std::move(values));
        return;
      }
    }
  } else if (name == "shift") {
    const std::vector<std::string>* positional = env_.positional();
    const std::optional<long long> n =
        first + 1 < w.size() ? count(w[first + 1].text) : std::optional<long long>(1);
    if (positional == nullptr || !n || w.size() > first + 2) return env_.forgetPositional();
    if (static_cast<size_t>(*n) <= positional->size()) {
      env_.setPositional(std::vector<std::string>(
          positional->begin() + static_cast<std::ptrdiff_t>(*n), positional->end()));
    }
  }
}

}  // namespace toolguard::detail
