// The paths each tool reads and writes, read off its words the way the tool
// parses them. One table for every rule that judges paths (docs/paths.md).
#include "command_paths.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

#include "command_args.hpp"
#include "name_lists.hpp"
#include "option_table.hpp"

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

class PathCollector {
 public:
  explicit PathCollector(std::vector<CommandPath>& out) : out_(out) {}

  void add(const ShellWord& word, Kind kind, const std::string& route,
           PathShape shape = PathShape::File) {
    if (word.text.empty() || word.text == "-") return;
    out_.push_back(CommandPath{word, kind, shape, route});
  }
  template <typename Words>
  void addAll(const Words& words, Kind kind, const std::string& route,
              PathShape shape = PathShape::File) {
    for (const ShellWord& w : words) add(w, kind, route, shape);
  }
  // A search tool's file glob, under each directory it searches.
  void addSearchGlobs(const std::vector<ShellWord>& globs, const std::vector<ShellWord>& dirs,
                      const std::string& route) {
    for (const ShellWord& glob : globs) {
      if (glob.text.empty() || glob.text.starts_with('!')) continue;  // an exclusion
      for (const ShellWord& dir : dirs) {
        std::string text = dir.text;
        while (text.size() > 1 && text.back() == '/') text.pop_back();
        text += glob.text.find('/') == std::string::npos ? "/**/" : "/";
        text += glob.text.starts_with('/') ? glob.text.substr(1) : glob.text;
        add(ShellWord{text, true, text}, Kind::Read, route, PathShape::Pattern);
      }
    }
  }

 private:
  std::vector<CommandPath>& out_;
};

ShellWord wordFrom(const ShellWord& original, std::string text) {
  return ShellWord{std::move(text), original.dynamic, original.source};
}

std::vector<ShellWord> dotIfEmpty(std::vector<ShellWord> dirs) {
  if (dirs.empty()) dirs.push_back(ShellWord{".", false, "."});
  return dirs;
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

// grep and its relatives: PATTERN [FILE...], or -e/-f PATTERN with FILEs only.
void grepPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out) {
  const CommandArgs a =
      parseArgs(words, "efmABCdD",
                {"--regexp", "--file", "--max-count", "--after-context", "--before-context",
                 "--context", "--directories", "--devices", "--label", "--include", "--exclude",
                 "--exclude-dir", "--exclude-from", "--binary-files"});
  const bool pattern_given = a.hasAny("ef", {"--regexp", "--file"});
  std::vector<ShellWord> files(a.operands.begin() + (pattern_given || a.operands.empty() ? 0 : 1),
                               a.operands.end());
  bool recursive = a.hasAny("rR", {"--recursive", "--dereference-recursive"});
  for (const ShellWord& d : a.valuesOf({"-d", "--directories"})) {
    recursive = recursive || d.text == "recurse";
  }
  out.addAll(a.valuesOf({"-f", "--file", "--exclude-from"}), Kind::Read, name);
  if (recursive) {
    files = dotIfEmpty(std::move(files));
    out.addAll(files, Kind::Read, name + " -r", PathShape::Tree);
    out.addSearchGlobs(a.valuesOf({"--include"}), files, name + " --include");
  } else {
    out.addAll(files, Kind::Read, name);
  }
}

// ripgrep, ag, ack: PATTERN [PATH...], each path searched recursively.
void recursiveSearchPaths(const std::string& name, std::span<const ShellWord> words,
                          PathCollector& out) {
  const CommandArgs a = parseArgs(words, "efgmABCjtTMrEdG",
                                  {"--regexp",
                                   "--file",
                                   "--glob",
                                   "--iglob",
                                   "--max-count",
                                   "--after-context",
                                   "--before-context",
                                   "--context",
                                   "--threads",
                                   "--type",
                                   "--type-not",
                                   "--max-columns",
                                   "--replace",
                                   "--encoding",
                                   "--max-depth",
                                   "--type-add",
                                   "--pre",
                                   "--pre-glob",
                                   "--ignore-file",
                                   "--sort",
                                   "--sortr",
                                   "--colors",
                                   "--max-filesize",
                                   "--engine",
                                   "--path-separator",
                                   "--context-separator",
                                   "--file-search-regex",
                                   "--ignore"});
  const bool pattern_given = a.hasAny("ef", {"--regexp", "--file"});
  std::vector<ShellWord> dirs(a.operands.begin() + (pattern_given || a.operands.empty() ? 0 : 1),
                              a.operands.end());
  dirs = dotIfEmpty(std::move(dirs));
  out.addAll(a.valuesOf({"-f", "--file", "--ignore-file"}), Kind::Read, name);
  // rg and ag skip hidden files unless told to read them; ack does not
  // skip them. One that reads them is a recursive read whose route says so
  // (" -r": the named places at the top of the tree are looked for).
  bool hidden = name == "ack" || a.hasLong("--hidden") || a.hasLong("--unrestricted") ||
                a.hasLong("--no-ignore-dot");
  for (const ShellWord& w : words) {
    if (!w.text.starts_with("--") && w.text.starts_with('-') &&
        (w.text.find('.') != std::string::npos ||
         std::count(w.text.begin(), w.text.end(), 'u') >= (name == "ag" ? 1 : 2))) {
      hidden = true;
    }
  }
  out.addAll(dirs, Kind::Read, hidden ? name + " -r" : name, PathShape::Tree);
  if (name == "rg") out.addSearchGlobs(a.valuesOf({"-g", "--glob", "--iglob"}), dirs, "rg -g");
}

// sed SCRIPT FILE..., or -e/-f SCRIPT with FILEs only; -i edits them in place.
void sedPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out) {
  const CommandArgs a = parseArgs(words, "efl", {"--expression", "--file", "--line-length"});
  const bool in_place =
      a.has('i') || a.hasLong("--in-place") ||
      std::any_of(words.begin(), words.end(), [](const ShellWord& w) {
        return !w.dynamic && (w.text.starts_with("-i") || w.text.starts_with("--in-place="));
      });
  const bool script_given = a.hasAny("ef", {"--expression", "--file"});
  const size_t first = script_given || a.operands.empty() ? 0 : 1;
  out.addAll(a.valuesOf({"-f", "--file"}), Kind::Read, name + " -f");
  for (size_t i = first; i < a.operands.size(); ++i) {
    out.add(a.operands[i], Kind::Read, name);
    if (in_place) out.add(a.operands[i], Kind::Write, name + " -i");
  }
}

// awk PROGRAM [var=value | FILE]..., or -f PROGFILE with operands only.
void awkPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out) {
  const CommandArgs a =
      parseArgs(words, "fvFiEl",
                {"--file", "--assign", "--field-separator", "--include", "--exec", "--load"});
  const std::vector<ShellWord> programs = a.valuesOf({"-f", "--file", "-E", "--exec"});
  out.addAll(programs, Kind::Read, name + " -f");
  const size_t first = programs.empty() && !a.operands.empty() ? 1 : 0;
  for (size_t i = first; i < a.operands.size(); ++i) {
    const std::string& t = a.operands[i].text;
    const size_t eq = t.find('=');
    if (eq != std::string::npos && eq > 0 && t.find('/') > eq) continue;  // var=value
    out.add(a.operands[i], Kind::Read, name);
  }
}

// jq FILTER [FILE...]; --arg/--argjson take two words, --slurpfile/--rawfile read a file.
void jqPaths(std::span<const ShellWord> words, PathCollector& out) {
  bool filter_seen = false;
  bool options_end = false;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& t = words[i].text;
    if (!options_end && !words[i].dynamic && t.starts_with('-') && t.size() > 1) {
      if (t == "--") {
        options_end = true;
      } else if (t == "--args" || t == "--jsonargs") {
        break;  // the rest are values, not files
      } else if ((t == "--arg" || t == "--argjson") && i + 2 < words.size()) {
        i += 2;
      } else if ((t == "--slurpfile" || t == "--rawfile") && i + 2 < words.size()) {
        out.add(words[i + 2], Kind::Read, "jq " + t);
        i += 2;
      } else if ((t == "-f" || t == "--from-file") && i + 1 < words.size()) {
        out.add(words[++i], Kind::Read, "jq -f");
        filter_seen = true;
      } else if (t == "-L" || t == "--indent" || t == "--tab") {
        if (t != "--tab" && i + 1 < words.size()) ++i;
      }
      continue;
    }
    if (!filter_seen) {
      filter_seen = true;
      continue;
    }
    out.add(words[i], Kind::Read, "jq");
  }
}

// cp, mv, ln, install, rsync, scp: sources and a destination (or -t DIR).
void copyPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out) {
  const CommandArgs a =
      parseArgs(words, name == "rsync" ? "eBfTM" : (name == "scp" ? "cFiJloPS" : "tSgmo"),
                {"--target-directory", "--suffix", "--owner", "--mode", "--group", "--rsh",
                 "--exclude", "--include", "--filter", "--files-from", "--temp-dir",
                 "--partial-dir", "--backup-dir", "--rsync-path", "--log-file", "--strip-program"});
  // A remote side (host:path, rsync://) is not a local file.
  auto local = [](const ShellWord& w) {
    const size_t colon = w.text.find(':');
    return colon == std::string::npos || w.text.find('/') < colon;
  };
  std::vector<ShellWord> targets = a.valuesOf({"-t", "--target-directory"});
  std::vector<ShellWord> sources = a.operands;
  if (name == "install" && a.hasAny("d", {"--directory"})) {
    out.addAll(sources, Kind::Write, "install -d");
    return;
  }
  if (targets.empty() && sources.size() == 1) {
    // `ln -s TARGET` links into the current directory; a lone source copies nowhere.
    if (name == "ln") out.add(sources.front(), Kind::Read, "ln (target)");
    return;
  }
  if (targets.empty() && !sources.empty()) {
    targets.push_back(sources.back());
    sources.pop_back();
  }
  const bool recursive = a.hasAny("rRa", {"--recursive", "--archive"}) || name == "rsync";
  // A relative symbolic link's target is read from where the link is: the
  // destination's directory (or the destination itself when it is one:
  // resolving one level higher never brings an outside target inside).
  const bool symbolic = name == "ln" && a.hasAny("s", {"--symbolic"});
  std::string link_dir;
  if (symbolic && !targets.empty() && !targets.front().dynamic) {
    const std::string& dest = targets.front().text;
    const bool into_dir = dest.ends_with('/') || sources.size() > 1 ||
                          !a.valuesOf({"-t", "--target-directory"}).empty();
    link_dir =
        into_dir
            ? dest
            : (dest.rfind('/') == std::string::npos ? "" : dest.substr(0, dest.rfind('/') + 1));
    if (!link_dir.empty() && !link_dir.ends_with('/')) link_dir += '/';
  }
  for (const ShellWord& s : sources) {
    if (!local(s)) continue;
    if (name == "mv") {
      out.add(s, Kind::Write, "mv (source)", PathShape::Tree);  // gone from there
    } else if (name == "ln" && symbolic && !link_dir.empty() && !s.text.starts_with('/') &&
               !s.text.starts_with('~') && !s.dynamic) {
      out.add(wordFrom(s, link_dir + s.text), Kind::Read, "ln (target)");
    } else if (name == "ln") {
      out.add(s, Kind::Read, "ln (target)");  // read through the link later
    } else {
      out.add(s, Kind::Read, name + " (source)", recursive ? PathShape::Tree : PathShape::File);
    }
  }
  for (const ShellWord& t : targets) {
    if (local(t)) out.add(t, Kind::Write, name + " (destination)");
  }
  out.addAll(a.valuesOf({"--log-file"}), Kind::Write, name + " --log-file");
  out.addAll(a.valuesOf({"--files-from"}), Kind::Read, name + " --files-from");
}

// chmod MODE FILE..., chown OWNER FILE..., or --reference=REF FILE...
void modePaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out) {
  const CommandArgs a = parseArgs(words, "", {"--reference"});
  const size_t skip = a.operands.empty() || a.hasLong("--reference") ? 0 : 1;
  const bool recursive = a.hasAny("R", {"--recursive"});
  for (size_t i = skip; i < a.operands.size(); ++i) {
    out.add(a.operands[i], Kind::Write, recursive ? name + " -R" : name,
            recursive ? PathShape::Tree : PathShape::File);
  }
}

// curl: files it uploads or sends (-d @FILE, -F name=@FILE, -T FILE) and writes (-o FILE).
void curlPaths(std::span<const ShellWord> words, PathCollector& out) {
  const CommandArgs a = parseArgs(
      words, "AbcCdDeEFHKmoPQrTuUwxXyYzt",
      {"--data",        "--data-ascii",  "--data-binary", "--data-raw",    "--data-urlencode",
       "--json",        "--form",        "--form-string", "--upload-file", "--config",
       "--output",      "--dump-header", "--cookie-jar",  "--cookie",      "--trace",
       "--trace-ascii", "--stderr",      "--header",      "--user-agent",  "--user",
       "--request",     "--url",         "--proxy",       "--max-time",    "--connect-timeout",
       "--output-dir",  "--referer",     "--cert",        "--key",         "--cacert",
       "--capath",      "--resolve",     "--retry",       "--write-out"});
  for (const ShellWord& v : a.valuesOf(
           {"-d", "--data", "--data-ascii", "--data-binary", "--data-urlencode", "--json"})) {
    const size_t at = v.text.find('@');
    // `@file`, or `name@file` for --data-urlencode.
    if (at != std::string::npos && (at == 0 || v.text.find('=') == std::string::npos)) {
      out.add(wordFrom(v, v.text.substr(at + 1)), Kind::Read, "curl -d @FILE");
    }
  }
  for (const ShellWord& v : a.valuesOf({"-F", "--form"})) {
    const size_t eq = v.text.find('=');
    if (eq == std::string::npos || eq + 1 >= v.text.size()) continue;
    if (v.text[eq + 1] != '@' && v.text[eq + 1] != '<') continue;
    std::string file = v.text.substr(eq + 2);
    file = file.substr(0, file.find(';'));  // ;type=... ;filename=...
    out.add(wordFrom(v, file), Kind::Read, "curl -F name=@FILE");
  }
  out.addAll(a.valuesOf({"-T", "--upload-file", "-K", "--config"}), Kind::Read, "curl");
  out.addAll(a.valuesOf({"-o", "--output", "-D", "--dump-header", "-c", "--cookie-jar", "--trace",
                         "--trace-ascii", "--stderr"}),
             Kind::Write, "curl -o");
}

void wgetPaths(std::span<const ShellWord> words, PathCollector& out) {
  const CommandArgs a =
      parseArgs(words, "OoaiPUtTwQeDARlB",
                {"--output-document",  "--output-file", "--append-output", "--input-file",
                 "--directory-prefix", "--post-file",   "--body-file",     "--load-cookies",
                 "--save-cookies",     "--user-agent",  "--header",        "--tries",
                 "--timeout",          "--wait",        "--execute",       "--domains",
                 "--accept",           "--reject",      "--level",         "--base",
                 "--method",           "--body-data",   "--post-data"});
  out.addAll(a.valuesOf({"--post-file", "--body-file", "-i", "--input-file", "--load-cookies"}),
             Kind::Read, "wget");
  out.addAll(a.valuesOf({"-O", "--output-document", "-o", "--output-file", "-a", "--append-output",
                         "-P", "--directory-prefix", "--save-cookies"}),
             Kind::Write, "wget -O");
}

// tar: the archive it writes or reads, the files it archives, -C DIR it extracts into.
void tarPaths(std::span<const ShellWord> words, PathCollector& out) {
  std::vector<ShellWord> rest(words.begin(), words.end());
  // Old style: `tar czf out.tgz src` (first word without a dash is flags).
  if (!rest.empty() && !rest.front().dynamic && !rest.front().text.starts_with('-')) {
    rest.front().text = "-" + rest.front().text;
  }
  const CommandArgs a =
      parseArgs(rest, "fCTXbHKLNV",
                {"--file", "--directory", "--files-from", "--exclude-from", "--exclude",
                 "--transform", "--owner", "--group", "--mode", "--format",
                 "--use-compress-program", "--to-command", "--index-file"});
  const bool creates = a.hasAny("cru", {"--create", "--append", "--update"});
  const std::vector<ShellWord> archives = a.valuesOf({"-f", "--file"});
  out.addAll(archives, creates ? Kind::Write : Kind::Read, "tar -f");
  out.addAll(a.valuesOf({"-T", "--files-from", "-X", "--exclude-from"}), Kind::Read, "tar -T");
  if (creates) {
    out.addAll(a.operands, Kind::Read, "tar (archived)", PathShape::Tree);
  } else if (a.hasAny("x", {"--extract", "--get"})) {
    out.addAll(a.valuesOf({"-C", "--directory"}), Kind::Write, "tar -x -C");
  }
}

void zipPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out) {
  if (name == "unzip") {
    const CommandArgs a = parseArgs(words, "dxP", {});
    if (!a.operands.empty()) out.add(a.operands.front(), Kind::Read, "unzip");
    out.addAll(a.valuesOf({"-d"}), Kind::Write, "unzip -d");
    return;
  }
  const CommandArgs a = parseArgs(words, "bnPtxi", {"--exclude", "--include", "--password"});
  if (a.operands.empty()) return;
  out.add(a.operands.front(), Kind::Write, "zip (archive)");
  const bool recursive = a.hasAny("r", {"--recurse-paths"});
  for (size_t i = 1; i < a.operands.size(); ++i) {
    out.add(a.operands[i], Kind::Read, "zip", recursive ? PathShape::Tree : PathShape::File);
  }
}

// gzip and friends replace the file unless told to keep it or write to stdout.
void compressPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out) {
  const CommandArgs a = parseArgs(words, "S", {"--suffix"});
  out.addAll(a.operands, Kind::Read, name);
  if (!a.hasAny("cktl", {"--stdout", "--to-stdout", "--keep", "--test", "--list"})) {
    out.addAll(a.operands, Kind::Write, name);
  }
}

// The files whose committed or staged content a git command prints: the
// PATH of `REV:PATH`, `:PATH` and `:N:PATH`, and every other operand, which
// git takes as a path when it names one (`git log -p .env`, `git blame
// .env`, pathspecs after `--`). Each is a read of that name in the work
// tree, so the secret rules meet `git show HEAD:.env` as they meet `cat
// .env`; a revision read as a path names nothing secret.
void committedFileReads(const std::string& sub, const std::vector<ShellWord>& operands,
                        PathCollector& out) {
  const std::string route = "git " + sub + " (a committed file)";
  for (size_t i = 0; i < operands.size(); ++i) {
    const ShellWord& w = operands[i];
    if (w.text.starts_with('-') || w.text.starts_with(":/")) continue;
    if (sub == "grep" && i == 0) continue;  // the pattern
    const size_t colon = w.text.find(':');
    if (colon == std::string::npos) {
      out.add(w, Kind::Read, route);
      continue;
    }
    std::string path = w.text.substr(colon + 1);
    // `:N:PATH`, a stage of the index.
    if (colon == 0 && path.size() >= 2 && std::isdigit(static_cast<unsigned char>(path[0])) &&
        path[1] == ':') {
      path = path.substr(2);
    }
    if (path.empty()) continue;
    out.add(ShellWord{path, w.dynamic, w.source}, Kind::Read, route);
  }
}

void gitPaths(std::span<const ShellWord> words, PathCollector& out) {
  const CommandArgs top =
      parseArgs(words, "CcFt", {"--git-dir", "--work-tree", "--file", "--template"});
  if (top.operands.empty()) return;
  const std::string sub = top.operands.front().text;
  const std::vector<ShellWord> rest(top.operands.begin() + 1, top.operands.end());
  if (sub == "commit" || sub == "tag") {
    out.addAll(top.valuesOf({"-F", "--file", "-t", "--template"}), Kind::Read,
               "git " + sub + " -F");
  } else if (sub == "diff" && top.hasLong("--no-index")) {
    out.addAll(rest, Kind::Read, "git diff --no-index");
  } else if (sub == "clone" && rest.size() >= 2) {
    out.add(rest.back(), Kind::Write, "git clone (destination)");
  } else if (sub == "init" && !rest.empty()) {
    out.add(rest.back(), Kind::Write, "git init");
  } else if (oneOf(sub, {"show", "log", "whatchanged", "diff", "blame", "annotate", "cat-file",
                         "grep", "format-patch", "shortlog", "range-diff", "difftool"})) {
    committedFileReads(sub, rest, out);
  }
}

// find: its start points are listed (deleted with -delete); -fprint FILE writes.
void findPaths(const SimpleCommand& c, PathCollector& out) {
  const auto args = c.arguments();
  const bool deletes =
      std::any_of(args.begin(), args.end(), [](const ShellWord& w) { return w.text == "-delete"; });
  const std::vector<ShellWord> starts = findStarts(c);
  const std::vector<ShellWord> names = findNameGlobs(c);
  if (deletes && !names.empty()) {
    for (const ShellWord& start : starts) {
      for (const ShellWord& name : names) {
        const std::string text = start.text + "/**/" + name.text;
        out.add(ShellWord{text, true, text}, Kind::Write, "find -delete", PathShape::Pattern);
      }
    }
  } else {
    out.addAll(starts, deletes ? Kind::Write : Kind::Read, deletes ? "find -delete" : "find",
               PathShape::Tree);
  }
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (oneOf(args[i].text, {"-fprint", "-fprint0", "-fprintf", "-fls"})) {
      out.add(args[i + 1], Kind::Write, "find " + args[i].text);
    }
  }
}

void openSslPaths(std::span<const ShellWord> words, PathCollector& out) {
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    const std::string& t = words[i].text;
    if (oneOf(t, {"-in", "-inkey", "-key", "-kfile", "-passin"})) {
      std::string file = words[i + 1].text;
      if (t == "-passin") {
        if (!file.starts_with("file:")) continue;
        file = file.substr(5);
      }
      out.add(wordFrom(words[i + 1], file), Kind::Read, "openssl " + t);
    } else if (t == "-out" || t == "-keyout") {
      out.add(words[i + 1], Kind::Write, "openssl " + t);
    }
  }
}

// Formatters that rewrite the files they are given (always, or with a flag).
bool formatterWrites(const std::string& name, std::span<const ShellWord> words) {
  if (oneOf(name, {"black", "isort", "rustfmt"})) return true;
  if (!oneOf(name, {"ruff", "prettier", "gofmt", "goimports", "clang-format", "shfmt", "eslint",
                    "biome", "autopep8", "yapf", "clang-tidy"})) {
    return false;
  }
  return std::any_of(words.begin(), words.end(), [&](const ShellWord& w) {
    return oneOf(w.text, {"-w", "-i", "--write", "--fix", "--in-place", "format"}) ||
           w.text.starts_with("--fix");
  });
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
    out.addAll(a.operands, Kind::Read, std::string(name) + (recursive ? " -r" : ""),
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
void tableValuePaths(const SimpleCommand& c, std::vector<CommandPath>& out) {
  const ProgramSpec* spec = programSpec(c.commandName());
  if (spec == nullptr) return;
  const TableParse parse = parseWithTable(*spec, c.arguments(), nullptr);
  const size_t before = out.size();
  PathCollector collector(out);
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

bool sameWord(const ShellWord& a, const ShellWord& b) {
  return a.dynamic == b.dynamic && a.text == b.text && a.source == b.source;
}

// The last commands' paths: several rules ask for the paths of the same
// command in one decision (what it writes, what it deletes, every access).
// A result is reused only for the same command object holding the same
// words and redirections (what the paths are read from).
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

constexpr size_t kPathsMemoSize = 4;

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
