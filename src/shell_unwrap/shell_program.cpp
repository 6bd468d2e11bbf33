// Parsing a command line into a ShellProgram, unwrapping wrappers.
#include <algorithm>
#include <cctype>
#include <map>

#include "shell_parse/bash_tree.hpp"
#include "shell_parse/program_builder.hpp"
#include "toolguard/paths.hpp"
#include "unwrap.hpp"

namespace toolguard {
namespace {

// Directories whose programs are the system's own tools.
constexpr std::string_view kSystemDirectories[] = {
    "/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/", "/usr/local/bin/", "/usr/local/sbin/"};

void parseInto(ShellProgram& program, std::vector<detail::ShellEnv>& envs, std::string_view script,
               const SimpleCommand& prototype, detail::ShellEnv env, detail::BuildBudget& budget,
               bool script_is_input = false) {
  detail::BashTree tree(script);
  detail::ProgramBuilder builder(tree, program, envs, prototype, std::move(env), budget);
  if (script_is_input) builder.readsItsScriptFromItsInput();
  builder.build();
}

// `hash -p PATH NAME` and `BASH_CMDS[NAME]=PATH` make NAME run PATH: the
// commands after them named NAME are judged as PATH (`hash -p /bin/rm ls;
// ls -rf ~` is `rm -rf ~`).
void runHashedPrograms(SimpleCommand& command, std::map<std::string, ShellWord>& hashed) {
  if (!command.words.empty() && !command.nameIsDynamic()) {
    if (auto it = hashed.find(command.words.front().text); it != hashed.end()) {
      command.words.front() = it->second;
    }
  }
  for (const auto& [name, value] : command.assignments) {
    if (name.starts_with("BASH_CMDS[") && name.ends_with("]")) {
      hashed[name.substr(10, name.size() - 11)] = value;
    }
  }
  if (command.commandName() != "hash") return;
  const auto& w = command.words;
  for (size_t i = 1; i + 2 < w.size(); ++i) {
    if (w[i].text == "-p") hashed[w[i + 2].text] = w[i + 1];
  }
}

}  // namespace

std::string SimpleCommand::name() const {
  return std::string(commandName());
}

std::string_view SimpleCommand::commandName() const {
  if (words.empty()) return {};
  const std::string_view first = words.front().text;
  const size_t slash = first.rfind('/');
  return slash == std::string_view::npos ? first : first.substr(slash + 1);
}

std::string SimpleCommand::nameWithSubcommand() const {
  std::string out = name();
  if (words.size() < 2 || words[1].dynamic || nameIsDynamic()) return out;
  const std::string& sub = words[1].text;
  const bool plain =
      !sub.empty() && sub.size() <= 32 && std::isalpha(static_cast<unsigned char>(sub[0])) &&
      std::all_of(sub.begin(), sub.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':';
      });
  if (plain) out += " " + sub;
  return out;
}

bool SimpleCommand::nameIsDynamic() const {
  return !words.empty() && words.front().dynamic;
}

bool SimpleCommand::runsFromUnusualPlace() const {
  if (words.empty()) return false;
  const std::string& first = words.front().text;
  if (first.find('/') == std::string::npos) return false;
  return std::none_of(
      std::begin(kSystemDirectories), std::end(kSystemDirectories), [&](std::string_view dir) {
        return first.starts_with(dir) && first.find('/', dir.size()) == std::string::npos;
      });
}

std::span<const ShellWord> SimpleCommand::arguments() const {
  if (words.size() <= 1) return {};
  return std::span<const ShellWord>(words).subspan(1);
}

ShellProgram parseShellProgram(std::string_view script, const ShellParseOptions& options) {
  ShellProgram program;
  const std::string home = options.home.empty() ? homeDirectory() : options.home;
  // The environment each command runs in, parallel to program.commands.
  std::vector<detail::ShellEnv> envs;
  detail::BuildBudget budget;
  parseInto(program, envs, script, SimpleCommand{}, detail::ShellEnv::fresh(home), budget);

  // Unwrap breadth-first; commands added here are unwrapped in turn.
  std::map<std::string, ShellWord> hashed;  // `hash -p PATH NAME`: NAME runs PATH
  for (size_t i = 0; i < program.commands.size(); ++i) {
    runHashedPrograms(program.commands[i], hashed);
    std::vector<detail::Unwrapped> inner = detail::unwrap(program.commands[i]);
    if (inner.empty()) continue;
    if (program.commands[i].wrappers.size() >= options.max_unwrap_depth) {
      program.too_deep = true;
      continue;
    }
    const SimpleCommand outer = program.commands[i];  // copied: push_back moves the vector
    const detail::ShellEnv outer_env = envs[i];
    for (detail::Unwrapped& u : inner) {
      SimpleCommand prototype;
      prototype.placement = outer.placement;
      prototype.wrappers = outer.wrappers;
      prototype.wrappers.push_back(ShellWrapper{u.wrapper, i});
      prototype.privileged = outer.privileged || u.privileged;
      prototype.unknown_extra_arguments =
          outer.unknown_extra_arguments || u.unknown_extra_arguments;
      prototype.working_directory =
          u.working_directory ? u.working_directory : outer.working_directory;
      if (u.script) {
        // xargs -I{} / find -exec paste run-time names into `{}`: the script
        // that runs is not the one written.
        if (prototype.unknown_extra_arguments && u.script->text.find("{}") != std::string::npos) {
          u.script->dynamic = true;
        }
        if (u.script->dynamic) {
          // The script is only known at run time: a command nobody can judge.
          SimpleCommand unknown = prototype;
          unknown.words.push_back(*u.script);
          unknown.text = u.script->source;
          program.commands.push_back(std::move(unknown));
          envs.push_back(outer_env);
        } else {
          // A script runs in a new shell (bash -c), later (a trap), or in
          // this one now (eval): each starts with what it can know.
          detail::ShellEnv env = u.shell == detail::ScriptShell::Same
                                     ? outer_env
                                     : outer_env.forChild(u.shell == detail::ScriptShell::Later);
          // Arguments added at run time (find -exec's `{}`, xargs's input)
          // make `$0` and the positional parameters unknown.
          if (!prototype.unknown_extra_arguments) {
            env.setZero(u.zero);
            if (u.positional) env.setPositional(*u.positional);
          }
          if (u.posix) env.setPosix(*u.posix);
          parseInto(program, envs, u.script->text, prototype, std::move(env), budget,
                    u.script_is_input);
        }
        continue;
      }
      SimpleCommand cmd = prototype;
      cmd.words = std::move(u.words);
      cmd.assignments = std::move(u.assignments);
      for (const ShellWord& word : cmd.words) {
        if (!cmd.text.empty()) cmd.text += ' ';
        cmd.text += word.source.empty() ? word.text : word.source;
      }
      program.commands.push_back(std::move(cmd));
      envs.push_back(outer_env);
    }
  }
  return program;
}

}  // namespace toolguard
