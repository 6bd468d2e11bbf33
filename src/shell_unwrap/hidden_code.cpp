// Code bash runs where no command seems to run it: trap handlers, alias
// bodies, prompt strings, array subscripts evaluated as arithmetic, scripts
// handed to at/batch, and the commands of coproc, parallel, flock, script,
// taskset, strace and ltrace. Each is unwrapped and judged as a command.
#include <algorithm>

#include "core/shell_quote.hpp"
#include "shell_parse/name_lists.hpp"
#include "unwrap.hpp"
#include "xargs_input.hpp"

namespace toolguard::detail {
namespace {

// A script only known at run time: judged as a command nobody can read.
ShellWord unknownScript(const std::string& what) {
  return ShellWord{what, true, what};
}

class HiddenCode {
 public:
  HiddenCode(const SimpleCommand& cmd, std::vector<Unwrapped>& out) : cmd_(cmd), out_(out) {}

  void script(std::string wrapper, ShellWord text, ScriptShell shell = ScriptShell::Child) {
    Unwrapped u;
    u.wrapper = std::move(wrapper);
    u.script = std::move(text);
    u.shell = shell;
    out_.push_back(std::move(u));
  }

  void argv(std::string wrapper, size_t start, bool unknown_extra_arguments = false) {
    const std::vector<ShellWord>& w = cmd_.words;
    if (start >= w.size()) return;
    Unwrapped u;
    u.wrapper = std::move(wrapper);
    u.words.assign(w.begin() + static_cast<std::ptrdiff_t>(start), w.end());
    u.unknown_extra_arguments = unknown_extra_arguments;
    out_.push_back(std::move(u));
  }

  // A prompt string is expanded like a double-quoted string when shown:
  // its command substitutions run.
  void promptString(const std::string& variable, const ShellWord& value) {
    std::string quoted;
    for (char c : value.text) {
      if (c == '"' || c == '\\') quoted += '\\';
      quoted += c;
    }
    script(variable, ShellWord{": \"" + quoted + "\"", value.dynamic, value.source},
           ScriptShell::Later);
  }

  // NAME=VALUE as an assignment or a declaration's argument.
  void assignment(const std::string& name, const ShellWord& value) {
    if (name == "PROMPT_COMMAND" || name.starts_with("PROMPT_COMMAND[")) {
      script("PROMPT_COMMAND", value, ScriptShell::Later);
    } else if (oneOf(name, {"PS0", "PS1", "PS2", "PS3", "PS4"})) {
      promptString(name, value);
    } else if (name.starts_with("BASH_ALIASES[")) {
      script("alias", value, ScriptShell::Later);
    }
    subscriptCode(name);
  }

  // `a[$(cmd)]`: bash evaluates a subscript as arithmetic, which runs the
  // command substitutions in it, even from a quoted word.
  void subscriptCode(std::string_view text) {
    for (size_t open = text.find('['); open != std::string_view::npos;
         open = text.find('[', open + 1)) {
      const size_t close = text.rfind(']');
      if (close == std::string_view::npos || close < open) return;
      const std::string_view inside = text.substr(open + 1, close - open - 1);
      if (inside.find("$(") == std::string_view::npos &&
          inside.find('`') == std::string_view::npos) {
        continue;
      }
      const std::string body(inside);
      script("array subscript", ShellWord{": \"" + body + "\"", false, body}, ScriptShell::Same);
      return;
    }
  }

  void run() {
    for (const auto& [name, value] : cmd_.assignments) assignment(name, value);
    if (cmd_.words.empty() || cmd_.nameIsDynamic()) return;
    const std::string_view name = cmd_.commandName();
    const std::vector<ShellWord>& w = cmd_.words;
    if (oneOf(name, {"export", "declare", "typeset", "local", "readonly", "alias"})) {
      for (size_t i = 1; i < w.size(); ++i) {
        const size_t eq = w[i].text.find('=');
        if (eq == std::string::npos) {
          subscriptCode(w[i].text);
          continue;
        }
        const ShellWord value{w[i].text.substr(eq + 1), w[i].dynamic, w[i].source};
        if (name == "alias") {
          script("alias", value, ScriptShell::Later);  // runs wherever the alias is used
        } else {
          assignment(w[i].text.substr(0, eq), value);
        }
      }
    } else if (oneOf(name, {"printf", "read", "test", "[", "[[", "let", "unset", "mapfile",
                            "readarray", "wait"})) {
      for (size_t i = 1; i < w.size(); ++i) subscriptCode(w[i].text);
      if (name == "[[" || name == "[") subscriptCode(cmd_.text);
    } else if (name == "trap") {
      trap();
    } else if (name == "at" || name == "batch") {
      atJob();
    } else if (name == "coproc") {
      argv("coproc", 1);
    } else if (name == "parallel") {
      parallel();
    } else if (name == "flock") {
      flock();
    } else if (name == "script") {
      for (size_t i = 1; i + 1 < w.size(); ++i) {
        if (w[i].text == "-c" || w[i].text == "--command") script("script -c", w[i + 1]);
      }
    } else if (name == "taskset") {
      if (std::any_of(w.begin(), w.end(), [](const ShellWord& x) {
            return x.text == "-p" || x.text == "--pid" || x.text.starts_with("-p");
          })) {
        return;  // changes a running process
      }
      const size_t mask = skipOptionWords(w, 1, "", {});
      argv("taskset", mask + 1);
    } else if (name == "valgrind") {
      argv("valgrind", skipOptionWords(w, 1, "", {}));
    } else if (name == "strace" || name == "ltrace") {
      if (std::any_of(w.begin(), w.end(), [](const ShellWord& x) { return x.text == "-p"; })) {
        return;
      }
      argv(std::string(name),
           skipOptionWords(w, 1, "eoOpsuEaPSXbIn", {"--output", "--signal", "--trace"}));
    }
  }

 private:
  // trap [-lp] [[ACTION] SIGNAL...]: ACTION runs when the signal comes.
  void trap() {
    const std::vector<ShellWord>& w = cmd_.words;
    size_t i = 1;
    while (i < w.size() && (w[i].text == "-p" || w[i].text == "-l" || w[i].text == "-P")) ++i;
    if (i < w.size() && w[i].text == "--") ++i;
    if (i + 1 >= w.size() || w[i].text == "-") return;  // printing, or resetting
    script("trap", w[i], ScriptShell::Later);
  }

  // at/batch read the job from their input or from -f FILE.
  void atJob() {
    const std::vector<ShellWord>& w = cmd_.words;
    for (const ShellWord& x : w) {
      if (x.text == "-l" || x.text == "-d" || x.text == "-r" || x.text == "-c") return;
    }
    for (size_t i = 1; i < w.size(); ++i) {
      if (w[i].text == "-f") {
        script("at -f", unknownScript("the job in " + (i + 1 < w.size() ? w[i + 1].text : "")));
        return;
      }
    }
    for (const ShellRedirect& r : cmd_.redirects) {
      if (r.op == "<<<") {
        script("at", r.target, ScriptShell::Later);
        return;
      }
      if (r.op == "<<" || r.op == "<<-") {
        script("at", r.document, ScriptShell::Later);
        return;
      }
    }
    script("at", unknownScript("the job at reads from its input"));
  }

  // parallel [options] COMMAND ::: ARGS, or commands read from the input.
  // parallel runs each command line through a shell, with the value quoted
  // where a replacement string stands (or at the end).
  void parallel() {
    const std::vector<ShellWord>& w = cmd_.words;
    const size_t start =
        skipOptionWords(w, 1, "jSXaIdEk", {"--jobs", "--sshlogin", "--arg-file", "--delimiter"});
    std::string replace = "{}";
    for (size_t i = 1; i + 1 < start; ++i) {
      if (w[i].text == "-I" || w[i].text == "--replace") replace = w[i + 1].text;
    }
    size_t end = start;
    while (end < w.size() && !w[end].text.starts_with(":::") && w[end].text != "::::") ++end;
    // `{= perl =}` and --rpl replacement strings run perl code on each value;
    // a word known only at run time may hold one.
    for (size_t i = 1; i < end; ++i) {
      const std::string& t = w[i].text;
      if (w[i].dynamic || t.find("{=") != std::string::npos || t.starts_with("--rpl") ||
          t.starts_with("--parens")) {
        script("parallel", unknownScript("perl code in a replacement string"));
        return;
      }
    }
    if (end == start) {
      if (cmd_.input && !cmd_.input->dynamic) {
        script("parallel reading its input", *cmd_.input);
      } else {
        script("parallel", unknownScript("the commands parallel reads"));
      }
      return;
    }
    std::vector<ShellWord> base(w.begin() + static_cast<std::ptrdiff_t>(start),
                                w.begin() + static_cast<std::ptrdiff_t>(end));
    // Without `:::`, parallel reads its arguments from its input.
    bool known =
        end < w.size() && w[end].text == ":::" && end + 1 < w.size() && w.size() - end - 1 <= 64;
    for (size_t i = end + 1; i < w.size() && known; ++i) {
      known = !w[i].dynamic && !w[i].text.starts_with(":::") && w[i].text != "::::";
    }
    for (const ShellWord& b : base) {
      known = known && !b.dynamic && b.text.find("{.}") == std::string::npos &&
              b.text.find("{/") == std::string::npos && b.text.find("{#}") == std::string::npos &&
              b.text.find("{%}") == std::string::npos;
    }
    if (known) {
      for (size_t i = end + 1; i < w.size(); ++i) {
        std::string line;
        bool placed = false;
        for (const ShellWord& b : base) {
          std::string text = b.text;
          for (size_t at = text.find(replace); !replace.empty() && at != std::string::npos;
               at = text.find(replace, at)) {
            const std::string quoted = singleQuoted(w[i].text);
            text.replace(at, replace.size(), quoted);
            at += quoted.size();
            placed = true;
          }
          line += (line.empty() ? "" : " ") + text;
        }
        if (!placed) line += " " + singleQuoted(w[i].text);
        script("parallel", ShellWord{line, false, line});
      }
      return;
    }
    Unwrapped u;
    u.wrapper = "parallel";
    u.words = std::move(base);
    u.unknown_extra_arguments = true;  // {} and the ::: values
    markPlaceholders(u.words, {"{}", "{.}", "{/}", "{//}", "{/.}", "{#}", "{%}"}, "parallel");
    markPlaceholder(u.words, replace, "parallel");
    out_.push_back(std::move(u));
  }

  // flock [options] FILE -c COMMAND, or flock [options] FILE COMMAND ARGS...
  void flock() {
    const std::vector<ShellWord>& w = cmd_.words;
    for (size_t i = 1; i + 1 < w.size(); ++i) {
      if (w[i].text == "-c" || w[i].text == "--command") {
        script("flock -c", w[i + 1]);
        return;
      }
    }
    const size_t lock = skipOptionWords(w, 1, "wE", {"--timeout", "--conflict-exit-code"});
    if (lock < w.size()) argv("flock", skipOptionWords(w, lock + 1, "wE", {}));
  }

  const SimpleCommand& cmd_;
  std::vector<Unwrapped>& out_;
};

}  // namespace

void unwrapHiddenCode(const SimpleCommand& cmd, std::vector<Unwrapped>& out) {
  HiddenCode(cmd, out).run();
}

}  // namespace toolguard::detail
