// The built-in shell rules that deny outright: recursive deletes, disk
// writes, fork bombs, ownership changes and moves of protected places,
// reverse shells, deletes inside inline interpreter code.
#include <algorithm>
#include <set>

#include "commands/build_files.hpp"
#include "commands/command_args.hpp"
#include "commands/command_paths.hpp"
#include "commands/safe_commands.hpp"
#include "commands/shell_facts.hpp"
#include "self_approval.hpp"
#include "shell_parse/name_lists.hpp"
#include "shell_rule_checks.hpp"
#include "shell_unwrap/unwrap.hpp"
#include "toolguard/paths.hpp"

namespace toolguard::detail {

// The first operand of a recursive operation that is a protected place.
static Detail protectedOperand(const std::vector<ShellWord>& operands, const CommandScene& s) {
  for (const ShellWord& w : operands) {
    if (detail::pathRisk(w, s) == PathRisk::Protected)
      return quoted(w) + " is a protected location";
  }
  return std::nullopt;
}

// ---- deny: catastrophic -----------------------------------------------------

Detail recursiveDelete(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  if (c.commandName() != "rm") return std::nullopt;
  CommandArgs a = parseArgs(c.arguments());
  if (!a.hasAny("rR", {"--recursive"})) return std::nullopt;
  return protectedOperand(a.operands, s);
}

// find -delete, or a delete that find -exec/-ok runs on every file found.
Detail findDelete(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  if (c.commandName() == "find") {
    const auto args = c.arguments();
    const bool deletes = std::any_of(args.begin(), args.end(),
                                     [](const ShellWord& w) { return w.text == "-delete"; });
    return deletes ? protectedOperand(findStarts(c), s) : std::nullopt;
  }
  if (c.wrappers.empty() || !c.wrappers.back().name.starts_with("find -") ||
      !oneOf(c.commandName(), {"rm", "shred", "unlink", "rmdir"})) {
    return std::nullopt;
  }
  const size_t index = c.wrappers.back().command_index;
  if (index >= s.program.commands.size()) return std::nullopt;
  return protectedOperand(findStarts(s.program.commands[index]), s);
}

Detail diskDestroy(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const std::string_view name = c.commandName();
  if (name.starts_with("mkfs") || name == "wipefs" || name == "mkswap") {
    return "'" + std::string(name) + "' formats or wipes a disk";
  }
  for (const ShellWord& target : detail::writtenPaths(c)) {
    const ResolvedPath path = detail::resolvedPath(target, s);
    if (detail::eitherForm(path, detail::isBlockDevice)) {
      return "writes to the block device " + path.lexical;
    }
  }
  const auto args = c.arguments();
  const bool lists = std::any_of(args.begin(), args.end(), [](const ShellWord& w) {
    return w.text == "-l" || w.text == "--list" || w.text == "print";
  });
  if (oneOf(name, {"shred", "fdisk", "sfdisk", "parted", "sgdisk", "blkdiscard"}) && !lists) {
    for (const ShellWord& w : c.arguments()) {
      if (detail::eitherForm(detail::resolvedPath(w, s), detail::isBlockDevice)) {
        return std::string(name) + " on " + w.text;
      }
    }
  }
  return std::nullopt;
}

Detail forkBomb(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const std::string& fn = c.placement.function_name;
  if (!c.placement.in_function || fn.empty() || c.name() != fn) return std::nullopt;
  if (c.placement.pipeline_length > 1 || c.placement.background) {
    return "function '" + fn + "' starts copies of itself";
  }
  return std::nullopt;
}

Detail recursiveOwnership(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const std::string_view name = c.commandName();
  if (!oneOf(name, {"chmod", "chown", "chgrp", "setfacl"})) return std::nullopt;
  CommandArgs a = parseArgs(c.arguments(), "", {"--reference"});
  if (!a.hasAny("R", {"--recursive"})) return std::nullopt;
  // The first operand of chmod/chown is the mode or owner, unless --reference gives it.
  const size_t skip = a.operands.empty() || a.hasLong("--reference") ? 0 : 1;
  std::vector<ShellWord> targets(a.operands.begin() + static_cast<std::ptrdiff_t>(skip),
                                 a.operands.end());
  return protectedOperand(targets, s);
}

Detail moveProtected(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  if (c.commandName() != "mv") return std::nullopt;
  CommandArgs a = parseArgs(c.arguments(), "tS", {"--target-directory", "--suffix"});
  const bool target_option = a.has('t') || a.hasLong("--target-directory");
  if (a.operands.size() < 2 && !target_option) return std::nullopt;
  std::vector<ShellWord> sources = a.operands;
  if (!target_option) sources.pop_back();
  return protectedOperand(sources, s);
}

Detail reverseShell(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  auto devTcp = [](const ShellWord& w) {
    return w.text.find("/dev/tcp/") != std::string::npos ||
           w.text.find("/dev/udp/") != std::string::npos;
  };
  for (const ShellRedirect& r : c.redirects) {
    if (devTcp(r.target)) return "redirects to " + r.target.text;
  }
  for (const ShellWord& w : c.words) {
    if (devTcp(w)) return "uses " + w.text;
  }
  const std::string_view name = c.commandName();
  if (detail::isInterpreter(name)) {
    CommandArgs a = parseArgs(c.arguments());
    const bool talks_to_network = std::any_of(
        s.program.commands.begin(), s.program.commands.end(), [](const SimpleCommand& other) {
          return oneOf(other.commandName(), {"nc", "ncat", "netcat", "socat", "telnet", "openssl"});
        });
    if (a.has('i') && talks_to_network)
      return std::string(name) + " -i wired to a network connection";
  }
  if (oneOf(name, {"nc", "ncat", "netcat"})) {
    CommandArgs a = parseArgs(c.arguments(), "ecpswqiIOPTx", {"--exec", "--sh-exec"});
    if (a.hasAny("ec", {"--exec", "--sh-exec", "--lua-exec"}))
      return std::string(name) + " runs a program for the remote side";
  }
  if (name == "socat") {
    for (const ShellWord& w : c.arguments()) {
      const std::string t = w.text;
      if (t.find("EXEC:") != std::string::npos || t.find("exec:") != std::string::npos ||
          t.find("SYSTEM:") != std::string::npos || t.find("system:") != std::string::npos) {
        return "socat runs a program for the remote side";
      }
    }
  }
  return std::nullopt;
}

// String literals of a script ('...' and "..."), and the literals of each
// [...] list joined with spaces (subprocess.run(["rm", "-rf", "/"])).
static std::vector<std::string> scriptLiterals(const std::string& script) {
  std::vector<std::string> out;
  std::string list;
  bool in_list = false;
  for (size_t i = 0; i < script.size(); ++i) {
    const char c = script[i];
    if (c == '[') {
      in_list = true;
      list.clear();
    } else if (c == ']' && in_list) {
      if (!list.empty()) out.push_back(list);
      in_list = false;
    } else if (c == '\'' || c == '"') {
      size_t end = i + 1;
      while (end < script.size() && script[end] != c) end += script[end] == '\\' ? 2 : 1;
      if (end >= script.size()) break;
      std::string literal = script.substr(i + 1, end - i - 1);
      if (in_list) list += (list.empty() ? "" : " ") + literal;
      out.push_back(std::move(literal));
      i = end;
    }
  }
  return out;
}

Detail recursiveDelete(const CommandScene& s);

// A shell command inside a script literal (os.system('rm -rf /')).
static Detail literalDeletes(const std::string& literal, const CommandScene& s) {
  ShellParseOptions options;
  options.home = s.home;
  const ShellProgram inner = parseShellProgram(literal, options);
  for (const SimpleCommand& command : inner.commands) {
    const CommandScene scene{command, inner, s.view, s.home};
    if (Detail d = recursiveDelete(scene)) return d;
  }
  return std::nullopt;
}

Detail interpreterDeletes(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const std::string_view name = c.commandName();
  // Shells whose -c scripts are unwrapped are judged command by command instead.
  if (!detail::isInterpreter(name) || detail::runsBashScripts(name)) return std::nullopt;
  for (const ShellWord& w : c.arguments()) {
    const std::string& t = w.text;
    for (const std::string& literal : scriptLiterals(t)) {
      if (Detail d = literalDeletes(literal, s)) return std::string(name) + " script runs " + *d;
    }
    for (const char* call : {"rmtree(", "remove_tree(", "rm -rf", "rm -fr", "rmSync(", "rimraf(",
                             "rm_rf(", "rm_r(", "rmdir("}) {
      const size_t at = t.find(call);
      if (at == std::string::npos) continue;
      // The literal argument that follows the call.
      size_t q = t.find_first_of("'\" ", at + std::string_view(call).size());
      if (q == std::string::npos) continue;
      size_t start = q + 1;
      size_t end = t.find_first_of("'\"), ;", start);
      ShellWord target{t.substr(start, end == std::string::npos ? std::string::npos : end - start),
                       false, ""};
      if (target.text.empty()) continue;
      if (target.text.starts_with("~")) target.text = s.home + target.text.substr(1);
      if (detail::pathRisk(target, s) == PathRisk::Protected) {
        return std::string(name) + " script deletes '" + target.text + "'";
      }
    }
  }
  return std::nullopt;
}

}  // namespace toolguard::detail
