// The paths each tool reads and writes, read off its words the way the tool
// parses them. One table for every rule that judges paths (docs/paths.md).
// Here: redirections, the tools that take only files, the choice of reader
// by program name, the paths of the tables of harmless options, and the
// memo. The readers of the programs whose words need more (grep, sed, cp,
// curl, tar, git, find, ...) are in command_paths_by_program.cpp.
#include "command_paths.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

#include "command_args.hpp"
#include "command_paths_by_program.hpp"
#include "option_table.hpp"
#include "shell_parse/name_lists.hpp"

namespace toolguard::detail {
namespace {

using Kind = PathAccessKind;

// Options that take a value, as the tool reads them.
struct PathOptionSpec {
  const char* short_with_value = "";
  OptionNames long_with_value;
};

// Tools whose operands are all files they read (content or listing).
const std::map<std::string, PathOptionSpec, std::less<>>& plainReaders() {
  static const std::map<std::string, PathOptionSpec, std::less<>> kReaders = {
      {"cat", {}},
      {"tac", {"s", {"--separator"}}},
      {"nl", {"bdfhilnsvw", {}}},
      {"head", {"nc", {"--lines", "--bytes"}}},
      {"tail", {"ncs", {"--lines", "--bytes", "--sleep-interval", "--pid"}}},
      {"less", {"bhjkoOpPtTxyz", {}}},
      {"more", {"n", {}}},
      {"most", {}},
      {"od", {"AjNtwS", {"--address-radix", "--skip-bytes", "--read-bytes", "--format"}}},
      {"hexdump", {"efns", {}}},
      {"hd", {"efns", {}}},
      {"strings", {"nteT", {"--bytes", "--radix", "--encoding", "--target"}}},
      {"base64", {"w", {"--wrap"}}},
      {"base32", {"w", {"--wrap"}}},
      {"basenc", {"w", {"--wrap"}}},
      {"md5sum", {}},
      {"sha1sum", {}},
      {"sha224sum", {}},
      {"sha256sum", {}},
      {"sha384sum", {}},
      {"sha512sum", {}},
      {"b2sum", {"l", {"--length"}}},
      {"cksum", {"a", {"--algorithm"}}},
      {"sum", {}},
      {"wc", {}},
      {"cut", {"bcdf", {"--bytes", "--characters", "--delimiter", "--fields"}}},
      {"paste", {"d", {"--delimiters"}}},
      {"fold", {"w", {"--width"}}},
      {"fmt", {"wpg", {"--width", "--prefix", "--goal"}}},
      {"expand", {"t", {"--tabs"}}},
      {"unexpand", {"t", {"--tabs"}}},
      {"rev", {}},
      {"column", {"csoNRHWl", {"--separator", "--output-separator", "--table-columns"}}},
      {"comm", {}},
      {"join", {"12aejotv", {}}},
      {"tsort", {}},
      {"numfmt", {}},
      {"bat", {"lmHr", {"--language", "--map-syntax", "--highlight-line", "--line-range"}}},
      {"batcat", {"lmHr", {"--language", "--map-syntax", "--highlight-line", "--line-range"}}},
      {"view", {"cSiuTwWstq", {}}},
      {"cmp", {"in", {"--ignore-initial", "--bytes"}}},
      {"diff3", {"L", {"--label"}}},
      {"ls",
       {"wTI",
        {"--hide", "--ignore", "--format", "--width", "--tabsize", "--sort", "--time",
         "--time-style", "--block-size", "--quoting-style", "--indicator-style"}}},
      {"exa", {"LIs", {"--level", "--ignore-glob", "--sort"}}},
      {"eza", {"LIs", {"--level", "--ignore-glob", "--sort"}}},
  };
  return kReaders;
}

// Tools whose operands are all files they change.
const std::map<std::string, PathOptionSpec, std::less<>>& plainWriters() {
  static const std::map<std::string, PathOptionSpec, std::less<>> kWriters = {
      {"tee", {}},
      {"touch", {"dtr", {"--date", "--reference", "--time"}}},
      {"mkdir", {"m", {"--mode", "--context"}}},
      {"rmdir", {}},
      {"unlink", {}},
      {"shred", {"ns", {"--iterations", "--size", "--random-source"}}},
      {"truncate", {"sr", {"--size", "--reference"}}},
      {"dos2unix", {}},
      {"unix2dos", {}},
      {"vi", {"cSiuTwWstq", {}}},
      {"vim", {"cSiuTwWstq", {}}},
      {"nvim", {"cSiuTwWstq", {}}},
      {"nano", {"TrYoQsX", {}}},
      {"pico", {}},
      {"micro", {}},
      {"emacs", {}},
      {"ed", {"p", {"--prompt"}}},
      {"setfacl", {"mMxX", {"--modify", "--modify-file", "--remove", "--remove-file"}}},
  };
  return kWriters;
}

void redirections(const SimpleCommand& c, PathCollector& out) {
  for (const ShellRedirect& r : c.redirects) {
    const std::string route = r.op + " (redirection)";
    if (r.op == "<") {
      out.add(r.target, Kind::Read, route);
    } else if (r.op == "<>") {
      out.add(r.target, Kind::Read, route);
      out.add(r.target, Kind::Write, route);
    } else if (r.op == ">&" || r.op == "&>" || r.op == "&>>") {
      // `>& 2` and `>&-` duplicate or close a descriptor; `>& file` writes a file.
      const std::string& t = r.target.text;
      if (r.op != ">&" || (!t.empty() && !std::isdigit(static_cast<unsigned char>(t[0])) &&
                           t != "-" && !t.ends_with('-'))) {
        out.add(r.target, Kind::Write, route);
      }
    } else if (r.op.find('>') != std::string::npos && r.op != "<&") {
      out.add(r.target, Kind::Write, route);
    }
  }
}

void commandPathsByName(const SimpleCommand& c, PathCollector& out) {
  const std::string name = c.name();
  const std::span<const ShellWord> words = c.arguments();
  if (const auto it = plainReaders().find(name); it != plainReaders().end()) {
    const CommandArgs a = parseArgs(words, it->second.short_with_value, it->second.long_with_value);
    const bool recursive = name == "ls" && a.hasAny("R", {"--recursive"});
    out.addAll(a.operands, Kind::Read, name, recursive ? PathShape::Tree : PathShape::File);
    return;
  }
  if (const auto it = plainWriters().find(name); it != plainWriters().end()) {
    const CommandArgs a = parseArgs(words, it->second.short_with_value, it->second.long_with_value);
    for (const ShellWord& w : a.operands) {
      if (!w.text.starts_with('+')) out.add(w, Kind::Write, name);  // vim +LINE
    }
    return;
  }
  if (name == "rm") {
    const CommandArgs a = parseArgs(words);
    const bool recursive = a.hasAny("rR", {"--recursive"});
    out.addAll(a.operands, Kind::Write, recursive ? "rm -r" : "rm",
               recursive ? PathShape::Tree : PathShape::File);
  } else if (oneOf(name, {"grep", "egrep", "fgrep", "zgrep"})) {
    grepPaths(name, words, out);
  } else if (oneOf(name, {"rg", "ag", "ack", "ack-grep"})) {
    recursiveSearchPaths(name, words, out);
  } else if (name == "sed" || name == "perl") {
    if (name == "sed") {
      sedPaths(name, words, out);
    } else if (std::any_of(words.begin(), words.end(), [](const ShellWord& w) {
                 return !w.dynamic && w.text.starts_with('-') && !w.text.starts_with("--") &&
                        w.text.find('i') != std::string::npos;
               })) {
      // perl -pi -e SCRIPT FILE...: the files after the script are edited in place.
      const CommandArgs a = parseArgs(words, "eEIMmlx", {});
      const size_t first = a.hasAny("eE", {}) || a.operands.empty() ? 0 : 1;
      for (size_t i = first; i < a.operands.size(); ++i) {
        out.add(a.operands[i], Kind::Write, "perl -i");
      }
    }
  } else if (oneOf(name, {"awk", "gawk", "mawk", "nawk"})) {
    awkPaths(name, words, out);
  } else if (name == "jq") {
    jqPaths(words, out);
  } else if (oneOf(name, {"cp", "mv", "ln", "install", "rsync", "scp"})) {
    copyPaths(name, words, out);
  } else if (oneOf(name, {"chmod", "chown", "chgrp"})) {
    modePaths(name, words, out);
  } else if (name == "diff" || name == "sdiff") {
    const CommandArgs a =
        parseArgs(words, "UCFILSxXDWo",
                  {"--label", "--exclude", "--exclude-from", "--ignore-matching-lines",
                   "--starting-file", "--from-file", "--to-file", "--output", "--width"});
    const bool recursive = a.hasAny("r", {"--recursive"});
    // diff -r compares what links lead to (as -R readers do).
    out.addAll(a.operands, Kind::Read, std::string(name) + (recursive ? " -R" : ""),
               recursive ? PathShape::Tree : PathShape::File);
    out.addAll(a.valuesOf({"--from-file", "--to-file"}), Kind::Read, name);
    if (name == "sdiff") out.addAll(a.valuesOf({"-o", "--output"}), Kind::Write, "sdiff -o");
  } else if (name == "xxd" || name == "uniq" || name == "iconv" || name == "patch") {
    // IN [OUT]
    const CommandArgs a =
        parseArgs(words, name == "xxd" ? "cgloOsn" : (name == "uniq" ? "fsw" : "ftoipdBDFrVYzg"),
                  {"--skip-fields", "--skip-chars", "--check-chars", "--from-code", "--to-code",
                   "--output", "--input", "--directory"});
    if (name == "patch") {
      if (!a.operands.empty()) out.add(a.operands[0], Kind::Write, "patch");
      if (a.operands.size() > 1) out.add(a.operands[1], Kind::Read, "patch");
      out.addAll(a.valuesOf({"-i", "--input"}), Kind::Read, "patch -i");
    } else {
      if (!a.operands.empty()) out.add(a.operands[0], Kind::Read, name);
      if (a.operands.size() > 1)
        out.add(a.operands[1], Kind::Write, std::string(name) + " (output)");
    }
    out.addAll(a.valuesOf({"-o", "--output"}), Kind::Write, std::string(name) + " -o");
  } else if (name == "sort" || name == "shuf") {
    const CommandArgs a =
        parseArgs(words, name == "sort" ? "kotST" : "noi",
                  {"--key", "--output", "--field-separator", "--buffer-size",
                   "--temporary-directory", "--files0-from", "--compress-program", "--parallel",
                   "--batch-size", "--random-source", "--head-count", "--input-range"});
    if (!a.hasAny("ei", {"--echo", "--input-range"}) || name == "sort") {
      out.addAll(a.operands, Kind::Read, name);
    }
    out.addAll(a.valuesOf({"-o", "--output"}), Kind::Write, std::string(name) + " -o");
  } else if (name == "dd") {
    for (const ShellWord& w : words) {
      if (w.text.starts_with("of=")) out.add(wordFrom(w, w.text.substr(3)), Kind::Write, "dd of=");
      if (w.text.starts_with("if=")) out.add(wordFrom(w, w.text.substr(3)), Kind::Read, "dd if=");
    }
  } else if (name == "tree" || name == "du") {
    const CommandArgs a =
        parseArgs(words, name == "tree" ? "LPIo" : "BdtX",
                  {"--filelimit", "--charset", "--timefmt", "--sort", "--max-depth", "--block-size",
                   "--threshold", "--exclude-from", "--exclude", "--time-style"});
    out.addAll(a.operands, Kind::Read, name, PathShape::Tree);
    if (name == "tree") out.addAll(a.valuesOf({"-o"}), Kind::Write, "tree -o");
  } else if (name == "find") {
    findPaths(c, out);
  } else if (name == "fd" || name == "fdfind") {
    const CommandArgs a = parseArgs(words, "etEdcjxXS", {"--extension", "--type", "--exclude"});
    for (size_t i = 1; i < a.operands.size(); ++i) {
      out.add(a.operands[i], Kind::Read, name, PathShape::Tree);
    }
  } else if (name == "source" || name == ".") {
    if (!words.empty()) out.add(words[0], Kind::Read, name);
  } else if (name == "curl") {
    curlPaths(words, out);
  } else if (name == "wget") {
    wgetPaths(words, out);
  } else if (name == "tar") {
    tarPaths(words, out);
  } else if (name == "zip" || name == "unzip") {
    zipPaths(name, words, out);
  } else if (oneOf(name, {"gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "lz4"})) {
    compressPaths(name, words, out);
  } else if (name == "git") {
    gitPaths(words, out);
  } else if (name == "openssl") {
    openSslPaths(words, out);
  } else if (oneOf(name, {"gcc", "g++", "cc", "c++", "clang", "clang++"})) {
    out.addAll(parseArgs(words, "oIDLlUx", {}).valuesOf({"-o"}), Kind::Write,
               std::string(name) + " -o");
  } else if (name == "go") {
    out.addAll(parseArgs(words, "o", {"-o"}).valuesOf({"-o"}), Kind::Write, "go -o");
  } else if (name == "make" || name == "gmake") {
    const CommandArgs a = parseArgs(words, "CfIEWojl", {"--directory", "--file", "--makefile"});
    out.addAll(a.valuesOf({"-f", "--file", "--makefile"}), Kind::Read, std::string(name) + " -f");
  } else if (name == "pytest" ||
             (name.starts_with("python") && !words.empty() && words[0].text == "-m")) {
    // pytest deletes and recreates its --basetemp directory.
    const CommandArgs a = parseArgs(words, "cpmk", {"--basetemp", "--rootdir", "-c"});
    out.addAll(a.valuesOf({"--basetemp"}), Kind::Write, "pytest --basetemp", PathShape::Tree);
    if (words.size() >= 3 && words[1].text == "json.tool") {
      out.add(words[2], Kind::Read, "python -m json.tool");
    }
  } else if (name == "cargo") {
    out.addAll(parseArgs(words, "", {"--target-dir", "--manifest-path"}).valuesOf({"--target-dir"}),
               Kind::Write, "cargo --target-dir");
  } else if (formatterWrites(name, words)) {
    const CommandArgs a = parseArgs(words, "", {"--config", "--line-length", "--target-version"});
    for (const ShellWord& w : a.operands) {
      if (!oneOf(w.text, {"format", "check", "run", "fmt"})) out.add(w, Kind::Write, name);
    }
  } else if (name == "toolguard") {
    out.addAll(parseArgs(words, "o", {"--output"}).valuesOf({"-o", "--output"}), Kind::Write,
               "toolguard -o");
  } else if (name == "xargs") {
    const CommandArgs a = parseArgs(words, "adEILnPs", {"--arg-file"});
    out.addAll(a.valuesOf({"-a", "--arg-file"}), Kind::Read, "xargs -a");
  }
}

}  // namespace

std::vector<ShellWord> findStarts(const SimpleCommand& find) {
  std::vector<ShellWord> starts;
  auto args = find.arguments();
  size_t i = 0;
  // Options before the start points: -H -L -P, -D debugopts, -Olevel.
  while (i < args.size() && (args[i].text == "-H" || args[i].text == "-L" || args[i].text == "-P" ||
                             args[i].text == "-D" || args[i].text.starts_with("-O"))) {
    i += args[i].text == "-D" ? 2 : 1;
  }
  for (; i < args.size(); ++i) {
    const ShellWord& w = args[i];
    if (w.text.starts_with("-") || w.text == "(" || w.text == "!") break;
    starts.push_back(w);
  }
  if (starts.empty()) starts.push_back(ShellWord{".", false, "."});
  return starts;
}

std::vector<ShellWord> findNameGlobs(const SimpleCommand& find) {
  std::vector<ShellWord> globs;
  const auto args = find.arguments();
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (oneOf(args[i].text, {"-name", "-iname", "-path", "-ipath", "-wholename"})) {
      std::string glob = args[i + 1].text;
      // -path globs are matched against the whole path: keep what follows the last '/'.
      if (args[i].text != "-name" && args[i].text != "-iname") {
        glob = glob.substr(glob.rfind('/') == std::string::npos ? 0 : glob.rfind('/') + 1);
      }
      if (!glob.empty()) globs.push_back(ShellWord{glob, true, args[i + 1].source});
    }
  }
  return globs;
}

namespace {

// The option values a program's table of harmless options says are paths
// (`sort -o FILE`, `git commit -F FILE`), where the code above did not
// already take them.
bool sameWord(const ShellWord& a, const ShellWord& b) {
  return a.dynamic == b.dynamic && a.text == b.text && a.source == b.source;
}

// The programs whose operands commandPathsByName reads as what they are;
// any other program's operands may each be a file it reads.
bool operandsReadByName(std::string_view name) {
  return plainReaders().contains(name) || plainWriters().contains(name) ||
         oneOf(name, {"rm", "grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "ack-grep", "sed",
                      "perl", "awk", "gawk", "mawk", "nawk", "jq", "cp", "mv", "ln", "install",
                      "rsync", "scp", "chmod", "chown", "chgrp", "diff", "sdiff", "xxd", "uniq",
                      "iconv", "patch", "sort", "shuf", "dd", "tree", "du", "find", "fd", "fdfind",
                      "source", ".", "curl", "wget", "tar", "zip", "unzip", "git", "openssl",
                      "xargs", "echo", "printf", "test", "[", "mkdir", "rmdir", "touch",
                      // Names and metadata only, never content.
                      "cd", "pushd", "realpath", "readlink", "dirname", "basename", "stat", "which",
                      "whereis", "type", "command",
                      // Operands that name targets, scripts, packages, tests, processes or
                      // values: make's targets (its makefiles come by -f), npm's scripts,
                      // cargo's and go's packages and filters, pids, counts and dates.
                      "make", "gmake", "just", "npm", "yarn", "pnpm", "bun", "cargo", "go", "pip",
                      "pip3", "uv", "poetry", "kill", "sleep", "seq", "date", "printenv", "nproc",
                      "uname", "id", "groups", "hostname", "whoami", "true", "false"});
}

void tableValuePaths(const SimpleCommand& c, std::vector<CommandPath>& out) {
  const ProgramSpec* spec = programSpec(c.commandName());
  if (spec == nullptr) return;
  const TableParse parse = parseWithTable(*spec, c.arguments(), nullptr);
  const size_t before = out.size();
  PathCollector collector(out);
  // A linter, formatter, compiler or test runner reads the files it is
  // given and quotes their lines in what it prints (`shellcheck
  // ~/.ssh/id_rsa` prints the key): each operand of a program whose
  // operands are not read above is a file it may read.
  // A word known only at run time (xargs's names) is one too, whether or
  // not the table could place it.
  if (!spec->words_are_data && !operandsReadByName(c.name())) {
    const std::string route = std::string(c.commandName()) + " (operand)";
    for (const ShellWord& operand : parse.operands) collector.add(operand, Kind::Read, route);
    for (const ShellWord& word : c.arguments()) {
      const bool placed = std::any_of(parse.operands.begin(), parse.operands.end(),
                                      [&](const ShellWord& o) { return sameWord(o, word); });
      if (word.dynamic && !placed) collector.add(word, Kind::Read, route);
    }
  }
  for (const FoundOption& o : parse.options) {
    Kind kind = Kind::Read;
    PathShape shape = PathShape::File;
    if (o.kind == ValueKind::Write) {
      kind = Kind::Write;
    } else if (o.kind == ValueKind::Tree) {
      shape = PathShape::Tree;
    } else if (o.kind != ValueKind::Read && o.kind != ValueKind::Inside) {
      continue;
    }
    const bool known = std::any_of(
        out.begin(), out.begin() + static_cast<std::ptrdiff_t>(before),
        [&](const CommandPath& p) { return p.kind == kind && p.word.text == o.value.text; });
    if (!known)
      collector.add(o.value, kind, std::string(c.commandName()) + " " + o.spelling, shape);
  }
}

}  // namespace

namespace {

// The last commands' paths: several rules ask for the paths of the same
// command in one decision (what it writes, what it deletes, every access).
// A result is reused only for the same command object holding the same
// words and redirections (what the paths are read from). Sixteen: the
// commands of a kept shell program (shell_program_cache.hpp) keep their
// address from one call to the next, so a process that meets a command line
// again finds its commands' paths here too.
struct PathsMemo {
  const SimpleCommand* command = nullptr;
  std::vector<ShellWord> words;
  std::vector<ShellRedirect> redirects;
  std::vector<CommandPath> paths;

  bool holds(const SimpleCommand& c) const {
    if (command != &c || words.size() != c.words.size() || redirects.size() != c.redirects.size()) {
      return false;
    }
    for (size_t i = 0; i < words.size(); ++i) {
      if (!sameWord(words[i], c.words[i])) return false;
    }
    for (size_t i = 0; i < redirects.size(); ++i) {
      const ShellRedirect& a = redirects[i];
      const ShellRedirect& b = c.redirects[i];
      if (a.op != b.op || a.fd != b.fd || !sameWord(a.target, b.target) ||
          !sameWord(a.document, b.document)) {
        return false;
      }
    }
    return true;
  }
};

constexpr size_t kPathsMemoSize = 16;

}  // namespace

std::vector<CommandPath> commandPaths(const SimpleCommand& command) {
  thread_local std::array<PathsMemo, kPathsMemoSize> memo;
  thread_local size_t next_slot = 0;
  for (const PathsMemo& m : memo) {
    if (m.holds(command)) return m.paths;
  }
  PathsMemo& slot = memo[next_slot];
  next_slot = (next_slot + 1) % kPathsMemoSize;
  slot.paths = readCommandPaths(command);
  slot.command = &command;
  slot.words = command.words;
  slot.redirects = command.redirects;
  return slot.paths;
}

std::vector<CommandPath> readCommandPaths(const SimpleCommand& command) {
  std::vector<CommandPath> out;
  PathCollector collector(out);
  redirections(command, collector);
  if (!command.words.empty() && !command.nameIsDynamic()) {
    commandPathsByName(command, collector);
    tableValuePaths(command, out);
  }
  return out;
}

}  // namespace toolguard::detail
