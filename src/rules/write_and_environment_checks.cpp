// The built-in shell rules about where commands write, what they run after
// writing it, and the environment and names that decide what runs.
#include <algorithm>
#include <set>

#include "commands/build_files.hpp"
#include "commands/command_args.hpp"
#include "commands/command_paths.hpp"
#include "commands/safe_commands.hpp"
#include "commands/shell_facts.hpp"
#include "commands/variable_lists.hpp"
#include "self_approval.hpp"
#include "shell_parse/name_lists.hpp"
#include "shell_rule_checks.hpp"
#include "shell_unwrap/unwrap.hpp"
#include "toolguard/paths.hpp"

namespace toolguard::detail {

// Where a command writes is judged by the path rules, whatever the route
// (docs/paths.md); what they cannot judge is a target only known at run time.
Detail writesUnknownPlace(const CommandScene& s) {
  for (const ShellWord& target : detail::writtenPaths(s.command)) {
    // A glob is expanded and judged by the path rules; a value is not known.
    const bool value = target.text.find_first_of("$`") != std::string::npos;
    if (target.dynamic && value && detail::pathRisk(target, s) != PathRisk::Ordinary) {
      return "writes to " + quoted(target) + ", known only at run time";
    }
  }
  return std::nullopt;
}

// `printf ... > Makefile && make`: a program that writes a file a build or
// test tool runs code from, and then runs that tool.
Detail writesBuildFile(const CommandScene& s) {
  for (const detail::CommandPath& p : detail::commandPaths(s.command)) {
    // Writing its text, not changing its mode or time stamp, removing it,
    // or reformatting it (a formatter keeps what it runs).
    if (p.kind != PathAccessKind::Write || p.route.starts_with("chmod") ||
        p.route.starts_with("chown") || p.route.starts_with("chgrp") ||
        p.route.starts_with("touch") || p.route.starts_with("rm") || p.route.starts_with("shfmt") ||
        p.route.starts_with("prettier") || p.route.starts_with("biome") ||
        p.route.starts_with("dprint")) {
      continue;
    }
    const detail::BuildFile kind = detail::buildFileKind(p.word.text);
    // Git hooks and CI files are the path rules' (code-config-write asks
    // for every write of them, and names itself).
    if (!detail::buildFileHasShellText(kind) || kind == detail::BuildFile::GitHook ||
        kind == detail::BuildFile::GitHubWorkflow || kind == detail::BuildFile::GitLabCi) {
      continue;
    }
    return "writes " + quoted(p.word) + " (" + detail::describeBuildFile(kind) +
           "), whose commands a build or test tool runs; a shell command's writes are not read "
           "as the file tools' are";
  }
  return std::nullopt;
}

Detail writesThenRuns(const CommandScene& s) {
  const auto& commands = s.program.commands;
  const SimpleCommand* self = &s.command;
  if (self < commands.data() || self >= commands.data() + commands.size()) return std::nullopt;
  // Most commands run no build file: then what the earlier ones wrote does
  // not matter (and a long program is not scanned once per command).
  bool runs_one = false;
  for (int k = static_cast<int>(detail::BuildFile::Makefile);
       k <= static_cast<int>(detail::BuildFile::CMake) && !runs_one; ++k) {
    runs_one = detail::runsBuildFile(s.command, static_cast<detail::BuildFile>(k));
  }
  if (!runs_one) return std::nullopt;
  for (const SimpleCommand* c = commands.data(); c < self; ++c) {
    for (const detail::CommandPath& p : detail::commandPaths(*c)) {
      // Writing its text, not changing its mode or time stamp.
      if (p.kind != PathAccessKind::Write || p.word.dynamic || p.route.starts_with("chmod") ||
          p.route.starts_with("chown") || p.route.starts_with("chgrp") ||
          p.route.starts_with("touch") || p.route.starts_with("rm")) {
        continue;
      }
      const detail::BuildFile kind = detail::buildFileKind(p.word.text);
      if (kind == detail::BuildFile::None || !detail::runsBuildFile(s.command, kind)) continue;
      if (kind == detail::BuildFile::ShellScript) {
        // The very script: `bash FILE`, `source FILE`, `./FILE`.
        const auto args = s.command.arguments();
        const ShellWord* run = s.command.words[0].text.find('/') != std::string::npos
                                   ? &s.command.words[0]
                                   : (args.empty() ? nullptr : &args[0]);
        const CommandScene writer{*c, s.program, s.view, s.home};
        if (run == nullptr ||
            detail::absolutePath(*run, s) != detail::absolutePath(p.word, writer)) {
          continue;
        }
      }
      return "writes " + quoted(p.word) + ", then runs " + s.command.name() +
             ", which runs the commands in it";
    }
  }
  return std::nullopt;
}

// Variables that decide which program runs, or that inject code into it.
static bool hijacksEnvironment(const std::string& name) {
  return name == "PATH" || name.starts_with("LD_") || name.starts_with("DYLD_") ||
         name.starts_with("BASH_CMDS") || name.starts_with("BASH_ALIASES") ||
         name.starts_with("GIT_CONFIG") || name.starts_with("PROMPT_COMMAND") ||
         (name.starts_with("CARGO_TARGET_") && name.ends_with("_RUNNER")) ||
         oneOf(name, {"BASH_ENV",
                      "ENV",
                      "IFS",
                      "GIT_SSH_COMMAND",
                      "GIT_SSH",
                      "GIT_EXEC_PATH",
                      "GIT_PAGER",
                      "GIT_EXTERNAL_DIFF",
                      "GIT_ASKPASS",
                      "GIT_PROXY_COMMAND",
                      "GIT_EDITOR",
                      "GIT_SEQUENCE_EDITOR",
                      "GIT_TEMPLATE_DIR",
                      "GIT_DIR",
                      "GIT_WORK_TREE",
                      "PAGER",
                      "MANPAGER",
                      "MANOPT",
                      "LESSOPEN",
                      "LESSCLOSE",
                      "EDITOR",
                      "VISUAL",
                      "BROWSER",
                      "SHELL",
                      "PYTHONSTARTUP",
                      "PYTHONPATH",
                      "PYTHONHOME",
                      "PERL5OPT",
                      "PERL5LIB",
                      "RUBYOPT",
                      "NODE_OPTIONS",
                      "NODE_PATH",
                      "JAVA_TOOL_OPTIONS",
                      "_JAVA_OPTIONS",
                      "RUSTC_WRAPPER",
                      "RUSTC",
                      "GOFLAGS",
                      "MAKEFLAGS",
                      "MFLAGS",
                      "npm_config_script_shell",
                      "NPM_CONFIG_SCRIPT_SHELL",
                      "SHELLOPTS",
                      "BASHOPTS",
                      "PS0",
                      "PS1",
                      "PS2",
                      "PS3",
                      "PS4"});
}

Detail environmentHijack(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  // Closed world: a variable reaching a program's environment must be known
  // to change nothing that runs; a plain shell variable must not be one bash
  // acts on or one the environment usually already exports.
  const bool bare = c.words.empty();
  for (const auto& [name, value] : c.assignments) {
    const bool harmless =
        bare ? shellVariableIsPlain(name) ||
                   (!value.dynamic && environmentVariableIsHarmless(name, value.text, true))
             : !value.dynamic && environmentVariableIsHarmless(name, value.text, true);
    if (!harmless && hijacksEnvironment(name)) return name + "=" + value.text;
    if (!harmless) return name + " is not a variable known to be harmless";
  }
  const auto args = c.arguments();
  if (c.commandName() == "hash" &&
      std::any_of(args.begin(), args.end(), [](const ShellWord& w) { return w.text == "-p"; })) {
    return "hash -p makes a name run another program";
  }
  if (c.commandName() == "shopt" && std::any_of(args.begin(), args.end(), [](const ShellWord& w) {
        return w.text == "expand_aliases";
      })) {
    const bool sets =
        std::any_of(args.begin(), args.end(), [](const ShellWord& w) { return w.text == "-s"; });
    if (sets) return "shopt -s expand_aliases makes aliases run in a script";
  }
  // Globs are expanded here as bash does by default: an option that makes
  // them reach hidden files, any depth or other cases changes what a later
  // `cat *` reads (`shopt -s dotglob; cat *` prints .env).
  if (c.commandName() == "shopt" &&
      std::any_of(args.begin(), args.end(), [](const ShellWord& w) { return w.text == "-s"; })) {
    for (const ShellWord& w : args) {
      if (w.dynamic || oneOf(w.text, {"dotglob", "globstar", "nocaseglob", "extglob",
                                      "globasciiranges", "nullglob", "failglob"})) {
        return "shopt -s " + w.text + " changes what the command's globs find";
      }
    }
  }
  for (const ShellWord& w : c.words) {
    if (w.source.find("@P}") != std::string::npos) {
      return "prompt expansion ${...@P} runs the command substitutions in a value";
    }
  }
  if (oneOf(c.commandName(), {"export", "declare", "typeset", "local", "readonly"})) {
    const auto words = c.arguments();
    const bool exports =
        c.commandName() == "export" ||
        std::any_of(words.begin(), words.end(), [](const ShellWord& w) {
          return w.text.size() >= 2 && w.text[0] == '-' && w.text.find('x') != std::string::npos;
        });
    for (const ShellWord& w : words) {
      if (w.text.starts_with('-') || w.text.starts_with('+')) continue;
      const size_t eq = w.text.find('=');
      const std::string name = w.text.substr(0, eq);
      const std::string value = eq == std::string::npos ? "" : w.text.substr(eq + 1);
      const bool harmless =
          !w.dynamic &&
          (exports
               ? environmentVariableIsHarmless(name, value, eq != std::string::npos)
               : shellVariableIsPlain(name) || environmentVariableIsHarmless(name, value, true));
      if (!harmless && eq != std::string::npos && hijacksEnvironment(name)) return w.text;
      if (!harmless) return name + " is not a variable known to be harmless";
    }
  }
  return std::nullopt;
}

Detail dynamicCommand(const CommandScene& s) {
  if (s.command.nameIsDynamic())
    return "the command name " + quoted(s.command.words[0]) + " is known only at run time";
  return std::nullopt;
}

Detail sourcesFile(const CommandScene& s) {
  const std::string_view name = s.command.commandName();
  if (detail::activatesWorkspaceVenv(s)) return std::nullopt;
  if ((name == "source" || name == ".") && !s.command.arguments().empty()) {
    return "runs the shell code in " + quoted(s.command.arguments()[0]);
  }
  return std::nullopt;
}

}  // namespace toolguard::detail
