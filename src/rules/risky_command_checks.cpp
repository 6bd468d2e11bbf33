// The built-in shell rules that ask: privilege, code from the network,
// inline interpreters, secrets sent out, history rewrites, publishing,
// containers and clusters, system state.
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

// ---- ask: risky ---------------------------------------------------------------

Detail privilegeEscalation(const CommandScene& s) {
  const std::string_view name = s.command.commandName();
  if (oneOf(name, {"sudo", "doas", "su", "pkexec", "run0", "sudoedit"})) return std::string(name);
  return std::nullopt;
}

// A shell or interpreter that runs code read from a pipe or a process
// substitution, or `source <(...)`.
Detail remoteCode(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const std::string_view name = c.commandName();
  const auto args = c.arguments();
  const bool from_substitution = std::any_of(
      args.begin(), args.end(), [](const ShellWord& w) { return w.source.starts_with("<("); });
  if ((name == "source" || name == ".") && from_substitution) {
    return "sources the output of another command";
  }
  if (!detail::isInterpreter(name)) return std::nullopt;
  if (from_substitution) return std::string(name) + " runs the output of another command";
  CommandArgs a = parseArgs(args, "oO", {"--rcfile", "--init-file"});
  const bool reads_stdin = a.operands.empty() || a.operands.front().text == "-" || a.has('s');
  const bool inline_code = a.hasAny("ceE", {"--eval", "--command"});
  // A shell whose script is known (`printf 'ls\n' | sh`) runs that script,
  // which is judged as written out (unwrap.cpp).
  const bool known_script = c.input && !c.input->dynamic && detail::runsBashScripts(name);
  if (c.placement.pipeline_position > 0 && reads_stdin && !inline_code && !known_script) {
    return std::string(name) + " runs code piped into it";
  }
  for (const ShellRedirect& r : c.redirects) {
    if (r.op == "<" && r.target.source.starts_with("<("))
      return std::string(name) + " runs downloaded code";
  }
  return std::nullopt;
}

Detail inlineInterpreter(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const std::string_view name = c.commandName();
  const auto args = c.arguments();
  // `-c`, a cluster holding it (`-Bc`, `-ne`), or `--eval` / `--eval=...`.
  auto has = [&](std::initializer_list<const char*> options) {
    return std::any_of(args.begin(), args.end(), [&](const ShellWord& w) {
      return std::any_of(options.begin(), options.end(), [&](const char* o) {
        const std::string_view opt(o);
        if (w.text == opt) return true;
        if (opt.starts_with("--")) return w.text.starts_with(std::string(opt) + "=");
        return opt.size() == 2 && w.text.size() > 2 && w.text[0] == '-' && w.text[1] != '-' &&
               w.text.find(opt[1]) != std::string::npos;
      });
    });
  };
  if ((name.starts_with("python") && has({"-c"})) ||
      ((name == "node" || name == "nodejs" || name == "bun") &&
       has({"-e", "--eval", "-p", "--print"})) ||
      ((name == "perl" || name == "ruby") && has({"-e", "-E"})) || (name == "php" && has({"-r"})) ||
      (name == "deno" && !args.empty() && args[0].text == "eval") ||
      (name == "osascript" && has({"-e"})) || (name == "pwsh" && has({"-c", "-Command"}))) {
    return std::string(name) + " runs code given on the command line";
  }
  return std::nullopt;
}

Detail secretsToNetwork(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  if (!detail::isNetworkSender(c.name())) return std::nullopt;
  // This sender, and a command of the same program that reads a secret file.
  for (const SimpleCommand& other : s.program.commands) {
    std::vector<ShellWord> read(other.arguments().begin(), other.arguments().end());
    for (const ShellRedirect& r : other.redirects) {
      if (r.op == "<") read.push_back(r.target);
    }
    for (const ShellWord& w : read) {
      std::string text = w.text;
      if (text.starts_with("--") && text.find('=') != std::string::npos) {
        text = text.substr(text.find('=') + 1);  // wget --post-file=.env
      }
      if (text.starts_with("@")) text.erase(0, 1);  // curl -d @file
      if (!text.empty() && detail::eitherForm(detail::resolvedPath(ShellWord{text, false, ""}, s),
                                              detail::isSecretFile)) {
        return c.name() + " in a command that reads " + text;
      }
    }
  }
  return std::nullopt;
}

Detail gitRewrite(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  if (c.commandName() != "git") return std::nullopt;
  CommandArgs top = parseArgs(c.arguments(), "Cc", {"--git-dir", "--work-tree", "--namespace"});
  if (top.operands.empty()) return std::nullopt;
  const std::string sub = top.operands.front().text;
  std::vector<ShellWord> rest(top.operands.begin() + 1, top.operands.end());
  // parseArgs put the subcommand's options with git's: re-read after the subcommand.
  std::vector<ShellWord> after;
  bool seen = false;
  for (const ShellWord& w : c.arguments()) {
    if (seen) after.push_back(w);
    if (!seen && w.text == sub && !w.dynamic) seen = true;
  }
  CommandArgs a = parseArgs(after);
  if (sub == "push") {
    if (a.hasAny("f", {"--force", "--force-with-lease", "--force-if-includes", "--mirror",
                       "--delete", "--prune"}) ||
        a.has('d')) {
      return "git push overwrites or deletes remote history";
    }
    for (const ShellWord& w : a.operands) {
      if (w.text.starts_with("+") || w.text.starts_with(":")) {
        return "git push " + w.text + " overwrites or deletes a remote branch";
      }
    }
  }
  if (sub == "reset" && a.hasLong("--hard")) return "git reset --hard discards work";
  if (sub == "clean" && a.hasAny("f", {"--force"})) return "git clean -f deletes untracked files";
  if (sub == "config" && a.hasAny("", {"--global", "--system"})) {
    const bool reads = a.hasAny("l", {"--get", "--get-all", "--list", "--get-regexp"});
    if (!reads) return "git config changes settings beyond this repository";
  }
  if (sub == "filter-branch" || sub == "filter-repo") return "git " + sub + " rewrites history";
  if (sub == "update-ref" && a.has('d')) return "git update-ref -d deletes a ref";
  if (sub == "branch" && a.has('D')) return "git branch -D deletes an unmerged branch";
  if (sub == "checkout" || sub == "restore") {
    for (const ShellWord& w : after) {
      if (w.text == "." && sub == "checkout") return "git checkout . discards changes";
    }
  }
  return std::nullopt;
}

Detail publish(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const std::string_view name = c.commandName();
  const auto args = c.arguments();
  const std::string first = args.empty() ? "" : args[0].text;
  if ((oneOf(name, {"npm", "yarn", "pnpm", "cargo", "poetry", "bun", "flit", "hatch", "uv"}) &&
       first == "publish") ||
      (name == "twine" && first == "upload") || (name == "gem" && first == "push") ||
      (oneOf(name, {"docker", "podman"}) && first == "push") ||
      (name == "mvn" && std::any_of(args.begin(), args.end(),
                                    [](const ShellWord& w) { return w.text == "deploy"; })) ||
      (name == "gh" && args.size() > 1 && first == "release" && args[1].text == "create")) {
    return std::string(name) + " " + first;
  }
  return std::nullopt;
}

Detail containersAndClusters(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const std::string_view name = c.commandName();
  CommandArgs a =
      parseArgs(c.arguments(), "nHc", {"--namespace", "--context", "--host", "--kubeconfig"});
  const std::string sub = a.operands.empty() ? "" : a.operands.front().text;
  if (oneOf(name, {"docker", "podman", "nerdctl"}) &&
      oneOf(sub, {"run", "exec", "rm", "rmi", "kill", "stop", "system", "volume", "network",
                  "compose", "container", "image", "build", "cp"})) {
    return std::string(name) + " " + sub;
  }
  if (oneOf(name, {"kubectl", "oc"}) &&
      oneOf(sub, {"delete", "apply", "exec", "drain", "cordon", "scale", "replace", "patch", "edit",
                  "create", "rollout", "run", "cp", "port-forward"})) {
    return std::string(name) + " " + sub;
  }
  if (name == "helm" && oneOf(sub, {"install", "uninstall", "upgrade", "delete", "rollback"})) {
    return std::string(name) + " " + sub;
  }
  if (oneOf(name, {"terraform", "tofu", "pulumi"}) &&
      oneOf(sub, {"destroy", "apply", "up", "import", "state", "taint"})) {
    return std::string(name) + " " + sub;
  }
  return std::nullopt;
}

Detail systemState(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  const std::string_view name = c.commandName();
  const auto args = c.arguments();
  auto arg = [&](const char* text) {
    return std::any_of(args.begin(), args.end(),
                       [&](const ShellWord& w) { return w.text == text; });
  };
  if (oneOf(name, {"shutdown", "reboot", "poweroff", "halt", "init", "telinit", "killall", "pkill",
                   "mount", "umount", "swapoff", "modprobe", "rmmod", "insmod", "sysctl", "ufw",
                   "nft", "launchctl", "kextunload"})) {
    return std::string(name);
  }
  if (name == "systemctl" || name == "service") {
    for (const char* verb : {"stop", "disable", "mask", "restart", "kill", "poweroff", "reboot",
                             "halt", "isolate", "daemon-reload", "enable", "start", "reload"}) {
      if (arg(verb)) return std::string(name) + " " + verb;
    }
  }
  if (name == "kill") {
    for (const ShellWord& w : args) {
      if (w.text == "-1" || w.text == "1") return "kill of every process (" + w.text + ")";
    }
  }
  if (oneOf(name, {"iptables", "ip6tables"}) &&
      (arg("-F") || arg("--flush") || arg("-X") || arg("-P") || arg("-D") || arg("--delete"))) {
    return std::string(name) + " changes the firewall";
  }
  if (name == "crontab" && (arg("-r") || arg("-e") || arg("-")))
    return "crontab changes scheduled jobs";
  if (name == "history" && (arg("-c") || arg("-w"))) return "history -c erases the shell history";
  if ((name == "chmod" || name == "chown") && s.command.privileged)
    return std::string(name) + " as root";
  return std::nullopt;
}

}  // namespace toolguard::detail
