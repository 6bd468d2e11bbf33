// The closed world of commands and tools that keep data on this machine.
// A command is local only when it is ordinary work (safe_commands.hpp) AND
// its table is one listed here; every other table, and every program with
// none, is taken to reach outward. A new table is outward until someone
// adds it here (tests/unit/session_rules_test.cpp, OutwardLabel, reviews the list).
#include "local_commands.hpp"

#include <algorithm>

#include "command_accesses.hpp"
#include "option_table.hpp"
#include "safe_commands.hpp"
#include "shell_parse/name_lists.hpp"

namespace toolguard::detail {
namespace {

// Tables (their `command` text exactly) whose ordinary work reaches no
// other machine and runs no code of the workspace. Left out on purpose:
// curl and wget (even to the developer's own server, which may relay),
// `source` (runs a script), git commit, merge, cherry-pick, revert,
// checkout and switch (they run the repository's hooks), git fetch and git
// remote (`git remote show` asks the remote), every
// build, test runner, linter and package manager, and the wrappers that
// fetch what they run (npx, uv run, ...).
constexpr std::string_view kLocalTables[] = {
    // Listing, reading, searching and comparing files.
    "ls", "cat", "head", "tail", "tac", "nl", "wc", "less", "more", "bat|batcat", "tree", "exa",
    "eza", "grep|egrep|fgrep", "rg", "ag", "ack", "fd|fdfind", "look", "diff", "diff3", "sdiff",
    "cmp", "comm", "delta",
    // Text filters, bytes, checksums, paths, words and the system's own facts.
    "sort", "uniq", "cut", "tr", "paste", "join", "column", "fold", "fmt", "expand", "unexpand",
    "rev", "shuf", "tsort", "numfmt", "pr", "jq",
    "sha1sum|sha224sum|sha256sum|sha384sum|sha512sum|md5sum", "b2sum", "cksum", "base64|base32",
    "xxd", "od", "hexdump", "strings", "file", "stat", "du", "df", "realpath", "readlink",
    "dirname", "basename", "pwd", "which", "whereis", "echo", "printf", "yes", "seq", "sleep",
    "true|false", "test", "[|[[", "expr", "bc", "date", "whoami", "id", "uname", "hostname",
    "locale", "nproc", "uptime", "free", "ps", "pgrep", "getconf", "tput", "clear", "man",
    // File operations and the shell's own builtins.
    "mkdir", "touch", "cp", "mv", "rm", "rmdir", "ln", "chmod", "tee", "sed", "awk|gawk|mawk|nawk",
    "find", "tar", "cd|pushd|popd", "read", "export", "declare|typeset|local", "set", "shopt",
    "command", "type", "hash", "alias", "help", "wait", "times", "umask", "printenv",
    // Version queries.
    "node", "java", "ruby", "perl", "php", "deno", "docker",
    // git's local work: reading history, the index, branches, tags, stashes.
    "git", "git status", "git log|show|whatchanged", "git diff", "git rev-parse", "git ls-files",
    "git blame", "git describe", "git shortlog", "git grep", "git rev-list", "git cat-file",
    "git ls-tree", "git reflog", "git merge-base", "git name-rev", "git cherry",
    "git count-objects", "git show-ref", "git for-each-ref", "git check-ignore", "git check-attr",
    "git var", "git version", "git help", "git config", "git branch", "git tag", "git stash",
    "git add", "git mv", "git init", "git restore", "git clean", "git rm",
    // Wrappers: their own words (what they run is a command of its own).
    "timeout", "nice", "nohup|setsid", "stdbuf", "time", "env", "ionice"};

bool isLocalTable(std::string_view command) {
  return std::find(std::begin(kLocalTables), std::end(kLocalTables), command) !=
         std::end(kLocalTables);
}

// Places whose files are another machine's: the automounter's network
// roots, and bash's network "devices".
bool reachesAnotherMachine(std::string_view path) {
  for (std::string_view root : {"/net", "/afs", "/Network", "/dev/tcp", "/dev/udp"}) {
    if (path == root || (path.starts_with(root) && path[root.size()] == '/')) return true;
  }
  return false;
}

// A redirection to a device (other than the harmless ones) or to a target
// known only at run time may lead anywhere.
bool redirectStaysLocal(const ShellRedirect& r) {
  if (r.op == "<<" || r.op == "<<-" || r.op == "<<<") return true;  // text, not a file
  if (r.target.dynamic) return false;
  const std::string& target = r.target.text;
  if (r.op.find('&') != std::string::npos &&
      target.find_first_not_of("0123456789-") == std::string::npos) {
    return true;  // `2>&1`, `>&-`: another descriptor
  }
  if (!target.starts_with("/dev/")) return !reachesAnotherMachine(target);
  if (target.starts_with("/dev/fd/")) {
    return target.find_first_not_of("0123456789", 8) == std::string::npos;
  }
  return oneOf(target, {"/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty",
                        "/dev/zero", "/dev/urandom", "/dev/random"});
}

// Whether the tool runs its commands on this machine: the agent's own
// shell does; an MCP server's command tool hands the command (and with it
// the call's data) to a server that may be anywhere.
bool toolRunsCommandsHere(const ToolInfo& tool) {
  return tool.metadata.category != "mcp" && !tool.name.starts_with("mcp_");
}

}  // namespace

bool commandStaysLocal(const CommandScene& scene) {
  const SimpleCommand& command = scene.command;
  // Run from the workspace (a virtual environment's `ls`): not the system's program.
  if (!toolRunsCommandsHere(scene.view.tool()) || command.runsFromUnusualPlace()) return false;
  if (!std::all_of(command.redirects.begin(), command.redirects.end(), redirectStaysLocal)) {
    return false;
  }
  // Ordinary work, read by the innermost (sub)command's table
  // (`git stash list`), which says what runs.
  std::string unknown;
  const ProgramSpec* table = nullptr;
  if (!ordinaryWork(scene, unknown, &table) || table == nullptr) return false;
  for (const PathAccess& access : commandAccesses(scene)) {
    if (reachesAnotherMachine(access.path.lexical) || reachesAnotherMachine(access.path.resolved)) {
      return false;
    }
  }
  return isLocalTable(table->command);
}

bool toolStaysLocal(const ToolInfo& tool) {
  // An MCP tool's arguments go to its server, whatever its listing claims
  // (annotations are the server's own word, and the server may be anywhere).
  if (!toolRunsCommandsHere(tool)) return false;
  if (tool.kind == ToolKind::Shell || tool.kind == ToolKind::Network) return false;
  const SideEffect effect = tool.metadata.side_effect;
  return effect == SideEffect::None || effect == SideEffect::LocalRead ||
         effect == SideEffect::LocalWrite;
}

std::span<const std::string_view> localTableCommands() {
  return kLocalTables;
}

}  // namespace toolguard::detail
