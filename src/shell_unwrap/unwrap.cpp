// Commands that run other commands: sudo, env, bash -c, eval, xargs, find
// -exec, ... The inner command is judged as well as the wrapper.
#include "unwrap.hpp"

#include <algorithm>
#include <set>

#include "interpreter_shell_calls.hpp"
#include "xargs_input.hpp"

namespace toolguard::detail {
namespace {

// Which options of a wrapper take an argument. Short options may be
// clustered (`-un root` and `-uroot` both give -u the argument).
struct WrapperOptionSpec {
  std::string short_with_argument;           // e.g. "ugCDhprtTU"
  std::set<std::string> long_with_argument;  // e.g. {"--user"}
  bool digits_are_options = false;           // nice -10
};

bool oneOfName(std::string_view name, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names) {
    if (name == n) return true;
  }
  return false;
}

// Index of the first operand at or after `start`, skipping options.
size_t skipOptions(const std::vector<ShellWord>& words, size_t start,
                   const WrapperOptionSpec& spec) {
  size_t i = start;
  while (i < words.size()) {
    const std::string& w = words[i].text;
    if (w == "--") return i + 1;
    if (w.size() < 2 || w[0] != '-') return i;
    if (w.starts_with("--")) {
      const std::string name = w.substr(0, w.find('='));
      const bool inline_value = w.find('=') != std::string::npos;
      i += (!inline_value && spec.long_with_argument.count(name)) ? 2 : 1;
      continue;
    }
    if (spec.digits_are_options && std::isdigit(static_cast<unsigned char>(w[1]))) {
      ++i;
      continue;
    }
    // A cluster: the first option taking an argument takes the rest, or the next word.
    size_t advance = 1;
    for (size_t k = 1; k < w.size(); ++k) {
      if (spec.short_with_argument.find(w[k]) != std::string::npos) {
        if (k + 1 == w.size()) advance = 2;
        break;
      }
    }
    i += advance;
  }
  // An option that takes a value may be the last word (`parallel -j`): the
  // index never passes the end, so callers may index every word before it.
  return std::min(i, words.size());
}

std::vector<ShellWord> from(const std::vector<ShellWord>& words, size_t start) {
  if (start >= words.size()) return {};
  return std::vector<ShellWord>(words.begin() + static_cast<std::ptrdiff_t>(start), words.end());
}

bool isAssignmentWord(const ShellWord& w) {
  const size_t eq = w.text.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  for (size_t i = 0; i < eq; ++i) {
    const char c = w.text[i];
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return !std::isdigit(static_cast<unsigned char>(w.text[0]));
}

// What a shell's words say it runs: the script of -c (with `$0` and the
// positional parameters after it), or its standard input when it has no
// script file operand.
struct ShellInvocation {
  std::optional<ShellWord> script;
  bool reads_input = false;
  std::optional<std::string> zero;
  std::optional<std::vector<std::string>> positional;
};

ShellInvocation shellInvocation(const std::vector<ShellWord>& words) {
  ShellInvocation out;
  bool has_c = false;
  bool has_s = false;
  size_t i = 1;
  while (i < words.size()) {
    const std::string& w = words[i].text;
    if (w == "--" || w == "-") {
      ++i;
      break;
    }
    if (w.size() < 2 || (w[0] != '-' && w[0] != '+')) break;
    if (w.starts_with("--")) {
      i += (w == "--rcfile" || w == "--init-file") ? 2 : 1;
      continue;
    }
    if (w.find('c') != std::string::npos && w[0] == '-') has_c = true;
    if (w.find('s') != std::string::npos && w[0] == '-') has_s = true;
    // -o OPTION / +o OPTION / -O SHOPT take the next word.
    i += (w.back() == 'o' || w.back() == 'O') ? 2 : 1;
  }
  if (!has_c) {
    out.reads_input = has_s || i >= words.size();
    return out;
  }
  if (i >= words.size()) return out;
  out.script = words[i];
  std::vector<std::string> rest;
  for (size_t k = i + 1; k < words.size(); ++k) {
    if (words[k].dynamic) return out;
    rest.push_back(words[k].text);
  }
  out.zero = rest.empty() ? words[0].text : rest.front();
  if (!rest.empty()) rest.erase(rest.begin());
  out.positional = std::move(rest);
  return out;
}

ShellWord joinShellWords(const std::vector<ShellWord>& words, size_t start) {
  ShellWord joined;
  for (size_t i = start; i < words.size(); ++i) {
    if (i > start) {
      joined.text += ' ';
      joined.source += ' ';
    }
    joined.text += words[i].text;
    joined.source += words[i].source;
    joined.dynamic = joined.dynamic || words[i].dynamic;
  }
  return joined;
}

// `env A=1 cmd`: the assignments apply to the inner command.
void addAssignments(std::vector<Unwrapped>& out, const std::vector<ShellWord>& w, size_t from,
                    size_t to) {
  if (out.empty()) return;
  for (size_t i = from; i < to; ++i) {
    const size_t eq = w[i].text.find('=');
    ShellWord value{w[i].text.substr(eq + 1), w[i].dynamic, w[i].source};
    out.back().assignments.emplace_back(w[i].text.substr(0, eq), std::move(value));
  }
}

// The value a wrapper's option takes (`-C DIR`, `-CDIR`, `--chdir=DIR`,
// `--chdir DIR`), before the command it runs.
std::optional<ShellWord> optionValue(const std::vector<ShellWord>& words, size_t end,
                                     char short_name, const std::string& long_name) {
  std::optional<ShellWord> found;
  for (size_t i = 1; i < end && i < words.size(); ++i) {
    const std::string& t = words[i].text;
    if (t == "--") break;
    if (t == long_name || (t.size() == 2 && t[0] == '-' && t[1] == short_name)) {
      if (i + 1 < words.size()) found = words[i + 1];
    } else if (t.starts_with(long_name + "=")) {
      found = ShellWord{t.substr(long_name.size() + 1), words[i].dynamic, words[i].source};
    } else if (t.size() > 2 && t[0] == '-' && t[1] == short_name && t[1] != '-') {
      found = ShellWord{t.substr(2), words[i].dynamic, words[i].source};
    }
  }
  return found;
}

// Package runners that run a command in a project's environment, or one
// they download: `npm exec -- CMD`, `npx CMD`, `uv run CMD`, `pnpm dlx CMD`,
// `bunx CMD`, `poetry run CMD`, `pipx run CMD`, ... The command is judged.
void unwrapCodeRunner(const SimpleCommand& cmd, std::vector<Unwrapped>& out) {
  const std::string_view name = cmd.commandName();
  const std::vector<ShellWord>& w = cmd.words;
  const std::string sub = w.size() > 1 ? w[1].text : "";
  size_t start = 0;
  std::string wrapper;
  if (name == "npx" || name == "bunx" || name == "uvx") {
    start = 1;
    wrapper = name;
  } else if ((name == "npm" && (sub == "exec" || sub == "x")) ||
             (name == "pnpm" && (sub == "dlx" || sub == "exec")) ||
             (name == "yarn" && (sub == "dlx" || sub == "exec")) || (name == "bun" && sub == "x") ||
             (oneOfName(name, {"uv", "poetry", "pipx", "pdm", "hatch", "rye", "pixi"}) &&
              sub == "run") ||
             (name == "conda" && sub == "run")) {
    start = 2;
    wrapper = std::string(name) + " " + sub;
  } else if (name == "uv" && sub == "tool" && w.size() > 2 && w[2].text == "run") {
    start = 3;
    wrapper = "uv tool run";
  } else {
    return;
  }
  // npm exec -c 'CMD' / npx -c 'CMD': a shell command line.
  for (size_t i = start; i + 1 < w.size(); ++i) {
    if (w[i].text == "--") break;
    if (w[i].text == "-c" || w[i].text == "--call") {
      Unwrapped u;
      u.wrapper = wrapper + " -c";
      u.script = w[i + 1];
      out.push_back(std::move(u));
      return;
    }
  }
  // Built only for a code runner: every other command passes here.
  const WrapperOptionSpec options{"pcnwC", {"--package",       "--call",
                                            "--with",          "--python",
                                            "--from",          "--env",
                                            "--directory",     "--project",
                                            "--name",          "--prefix",
                                            "--spec",          "--group",
                                            "--no-group",      "--only-group",
                                            "--extra",         "--no-extra",
                                            "--color",         "--cache-dir",
                                            "--workspace",     "--filter",
                                            "--index-url",     "--extra-index-url",
                                            "--index",         "--default-index",
                                            "--find-links",    "--with-requirements",
                                            "--with-editable", "--env-file"}};
  const size_t first = skipOptions(w, start, options);
  if (first >= w.size()) return;
  Unwrapped u;
  u.wrapper = wrapper;
  u.words = from(w, first);
  out.push_back(std::move(u));
}

}  // namespace

size_t skipOptionWords(const std::vector<ShellWord>& words, size_t start,
                       const std::string& short_with_argument,
                       const std::set<std::string>& long_with_argument) {
  return skipOptions(words, start, {short_with_argument, long_with_argument});
}

bool runsBashScripts(std::string_view name) {
  return name == "bash" || name == "sh" || name == "zsh" || name == "dash" || name == "ksh" ||
         name == "mksh" || name == "ash";
}

std::vector<Unwrapped> unwrap(const SimpleCommand& cmd) {
  std::vector<Unwrapped> out;
  if (cmd.words.empty() || cmd.nameIsDynamic()) {
    unwrapHiddenCode(cmd, out);  // assignments alone may hold code (PROMPT_COMMAND=...)
    return out;
  }
  const std::string_view name = cmd.commandName();
  const std::vector<ShellWord>& w = cmd.words;
  auto argv = [&](std::string wrapper, size_t start, bool privileged = false) {
    Unwrapped u;
    u.wrapper = std::move(wrapper);
    u.words = from(w, start);
    u.privileged = privileged;
    if (!u.words.empty()) out.push_back(std::move(u));
  };
  auto script = [&](std::string wrapper, ShellWord text, bool privileged = false) {
    Unwrapped u;
    u.wrapper = std::move(wrapper);
    u.script = std::move(text);
    u.privileged = privileged;
    out.push_back(std::move(u));
  };

  if (name == "sudo") {
    size_t i = skipOptions(w, 1,
                           {"ugCDhprtTU",
                            {"--user", "--group", "--close-from", "--chdir", "--host", "--prompt",
                             "--role", "--type", "--command-timeout", "--other-user"}});
    const size_t first_assignment = i;
    while (i < w.size() && isAssignmentWord(w[i])) ++i;
    argv("sudo", i, true);
    addAssignments(out, w, first_assignment, i);
    if (!out.empty()) out.back().working_directory = optionValue(w, i, 'D', "--chdir");
  } else if (name == "doas") {
    argv("doas", skipOptions(w, 1, {"uC", {}}), true);
  } else if (name == "pkexec") {
    argv("pkexec", skipOptions(w, 1, {"", {"--user"}}), true);
  } else if (name == "su") {
    // su [options] [user]: -c COMMAND runs through the user's shell.
    for (size_t i = 1; i + 1 < w.size(); ++i) {
      if (w[i].text == "-c" || w[i].text == "--command") script("su -c", w[i + 1], true);
    }
  } else if (name == "env") {
    // env -S/--split-string gives a whole command line in one word.
    for (size_t i = 1; i < w.size(); ++i) {
      const std::string& t = w[i].text;
      if ((t == "-S" || t == "--split-string") && i + 1 < w.size()) {
        script("env -S", joinShellWords(w, i + 1));
        return out;
      }
      if (t.starts_with("--split-string=")) {
        ShellWord rest = joinShellWords(w, i);
        rest.text = rest.text.substr(std::string("--split-string=").size());
        script("env -S", rest);
        return out;
      }
      if (t.starts_with("-S") && t.size() > 2) {
        ShellWord rest = joinShellWords(w, i);
        rest.text = rest.text.substr(2);
        script("env -S", rest);
        return out;
      }
    }
    size_t i = skipOptions(w, 1, {"uCP", {"--unset", "--chdir"}});
    const size_t first_assignment = i;
    while (i < w.size() && isAssignmentWord(w[i])) ++i;
    argv("env", i);
    addAssignments(out, w, first_assignment, i);
    if (!out.empty()) out.back().working_directory = optionValue(w, i, 'C', "--chdir");
  } else if (name == "command") {
    const size_t i = skipOptions(w, 1, {});
    for (size_t k = 1; k < i; ++k) {
      if (w[k].text.find_first_of("vV") != std::string::npos) return out;  // a lookup, runs nothing
    }
    argv("command", i);
  } else if (name == "builtin" || name == "nohup" || name == "setsid") {
    argv(std::string(name), skipOptions(w, 1, {}));
  } else if (name == "exec") {
    argv("exec", skipOptions(w, 1, {"a", {}}));
  } else if (name == "nice") {
    argv("nice", skipOptions(w, 1, {"n", {"--adjustment"}, true}));
  } else if (name == "ionice") {
    argv("ionice", skipOptions(w, 1, {"cnp", {"--class", "--classdata", "--pid"}}));
  } else if (name == "timeout") {
    const size_t duration = skipOptions(w, 1, {"sk", {"--signal", "--kill-after"}});
    argv("timeout", duration + 1);
  } else if (name == "stdbuf") {
    argv("stdbuf", skipOptions(w, 1, {"ioe", {"--input", "--output", "--error"}}));
  } else if (name == "time") {
    argv("time", skipOptions(w, 1, {"fo", {"--format", "--output"}}));
  } else if (name == "watch") {
    const size_t i = skipOptions(w, 1, {"nq", {"--interval", "--equexit"}});
    bool exec = false;
    for (size_t k = 1; k < i; ++k) exec = exec || w[k].text == "-x" || w[k].text == "--exec";
    if (exec) {
      argv("watch -x", i);
    } else if (i < w.size()) {
      script("watch", joinShellWords(w, i));
    }
  } else if (name == "xargs") {
    unwrapXargs(cmd, out);
  } else if (name == "find") {
    for (size_t i = 1; i < w.size(); ++i) {
      const std::string& t = w[i].text;
      if (t != "-exec" && t != "-execdir" && t != "-ok" && t != "-okdir") continue;
      size_t end = i + 1;
      while (end < w.size() && w[end].text != ";" && w[end].text != "+") ++end;
      Unwrapped u;
      u.wrapper = "find " + t;
      u.words.assign(w.begin() + static_cast<std::ptrdiff_t>(i + 1),
                     w.begin() + static_cast<std::ptrdiff_t>(end));
      u.unknown_extra_arguments = true;  // {} is each file found
      if (!u.words.empty()) out.push_back(std::move(u));
      i = end;
    }
  } else if (runsBashScripts(name) || name == "busybox") {
    std::vector<ShellWord> shell_words = w;
    if (name == "busybox") {
      if (w.size() < 2 || (w[1].text != "sh" && w[1].text != "ash")) {
        argv("busybox", 1);
        return out;
      }
      shell_words.erase(shell_words.begin());
    }
    ShellInvocation run = shellInvocation(shell_words);
    if (run.script) {
      script(std::string(name) + " -c", *run.script);
      out.back().zero = run.zero;
      out.back().positional = run.positional;
      out.back().posix = name != "bash";
    } else if (run.reads_input && cmd.input) {
      // `bash <<< '...'`, `printf 'ls\n' | sh`: the script is its input.
      script(std::string(name) + " reading its input", *cmd.input);
      out.back().posix = name != "bash";
      out.back().script_is_input = true;
    }
  } else if (name == "eval") {
    if (w.size() > 1) {
      script("eval", joinShellWords(w, 1));
      out.back().shell = ScriptShell::Same;
    }
  } else {
    unwrapCodeRunner(cmd, out);
  }
  unwrapInterpreterShellCalls(cmd, out);
  unwrapHiddenCode(cmd, out);
  return out;
}

}  // namespace toolguard::detail
