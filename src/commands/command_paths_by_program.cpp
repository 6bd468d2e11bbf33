// The paths read and written by the programs whose words need more than a
// list of options: search and text tools (grep, rg, sed, awk, jq, find),
// copies and modes (cp, mv, rsync, chmod), network tools (curl, wget),
// archivers (tar, zip, gzip and friends), git, openssl, and the formatters
// that rewrite files. Each reads the words the way the program parses them.
#include "command_paths_by_program.hpp"

#include <algorithm>
#include <cctype>

#include "command_args.hpp"
#include "shell_parse/name_lists.hpp"

namespace toolguard::detail {
namespace {

std::vector<ShellWord> dotIfEmpty(std::vector<ShellWord> dirs) {
  if (dirs.empty()) dirs.push_back(ShellWord{".", false, "."});
  return dirs;
}

}  // namespace

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
  out.addAll(a.valuesOf({"-f", "--file", "--exclude-from"}), PathAccessKind::Read, name);
  if (recursive) {
    files = dotIfEmpty(std::move(files));
    // -R follows every link it meets; -r only those named on the command line.
    const bool follows = a.has('R') || a.hasLong("--dereference-recursive");
    out.addAll(files, PathAccessKind::Read, name + (follows ? " -R" : " -r"), PathShape::Tree);
    out.addSearchGlobs(a.valuesOf({"--include"}), files, name + " --include");
  } else {
    out.addAll(files, PathAccessKind::Read, name);
  }
}

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
  out.addAll(a.valuesOf({"-f", "--file", "--ignore-file"}), PathAccessKind::Read, name);
  // rg and ag skip hidden files unless told to read them; ack does not
  // skip them. Either way it is a recursive read whose route says so (the
  // named places in the tree are looked for: " -r" for every file, " -r
  // (not hidden files)" for the others: `id_rsa` at the top, not `.env`).
  // A glob of files to search (`-g '*'`, `--iglob '.ENV'`) overrides the
  // hidden-file filter; `-u` counts across words (`-u -u`).
  bool hidden = name == "ack" || a.hasLong("--hidden") || a.hasLong("--unrestricted") ||
                a.hasLong("--no-ignore-dot") || !a.valuesOf({"-g", "--glob", "--iglob"}).empty() ||
                a.hasLong("--glob-case-insensitive");
  size_t unrestricted = 0;
  bool follows = name == "ag" ? a.has('f') || a.hasLong("--follow")
                              : a.hasLong("--follow") || (name == "rg" && a.has('L'));
  for (const ShellWord& w : words) {
    if (!w.text.starts_with("--") && w.text.starts_with('-')) {
      unrestricted += static_cast<size_t>(std::count(w.text.begin(), w.text.end(), 'u'));
      if (w.text.find('.') != std::string::npos) hidden = true;
    }
  }
  if (unrestricted >= (name == "ag" ? 1u : 2u)) hidden = true;
  // " -r" reads every file, " -R" follows links too; "(not hidden files)"
  // skips the hidden ones.
  out.addAll(dirs, PathAccessKind::Read,
             name + (follows ? " -R" : " -r") + (hidden ? "" : " (not hidden files)"),
             PathShape::Tree);
  if (name == "rg") out.addSearchGlobs(a.valuesOf({"-g", "--glob", "--iglob"}), dirs, "rg -g");
}

void sedPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out) {
  const CommandArgs a = parseArgs(words, "efl", {"--expression", "--file", "--line-length"});
  const bool in_place =
      a.has('i') || a.hasLong("--in-place") ||
      std::any_of(words.begin(), words.end(), [](const ShellWord& w) {
        return !w.dynamic && (w.text.starts_with("-i") || w.text.starts_with("--in-place="));
      });
  const bool script_given = a.hasAny("ef", {"--expression", "--file"});
  const size_t first = script_given || a.operands.empty() ? 0 : 1;
  out.addAll(a.valuesOf({"-f", "--file"}), PathAccessKind::Read, name + " -f");
  for (size_t i = first; i < a.operands.size(); ++i) {
    out.add(a.operands[i], PathAccessKind::Read, name);
    if (in_place) out.add(a.operands[i], PathAccessKind::Write, name + " -i");
  }
}

void awkPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out) {
  const CommandArgs a =
      parseArgs(words, "fvFiEl",
                {"--file", "--assign", "--field-separator", "--include", "--exec", "--load"});
  const std::vector<ShellWord> programs = a.valuesOf({"-f", "--file", "-E", "--exec"});
  out.addAll(programs, PathAccessKind::Read, name + " -f");
  const size_t first = programs.empty() && !a.operands.empty() ? 1 : 0;
  for (size_t i = first; i < a.operands.size(); ++i) {
    const std::string& t = a.operands[i].text;
    const size_t eq = t.find('=');
    if (eq != std::string::npos && eq > 0 && t.find('/') > eq) continue;  // var=value
    out.add(a.operands[i], PathAccessKind::Read, name);
  }
}

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
        out.add(words[i + 2], PathAccessKind::Read, "jq " + t);
        i += 2;
      } else if ((t == "-f" || t == "--from-file") && i + 1 < words.size()) {
        out.add(words[++i], PathAccessKind::Read, "jq -f");
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
    out.add(words[i], PathAccessKind::Read, "jq");
  }
}

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
    out.addAll(sources, PathAccessKind::Write, "install -d");
    return;
  }
  if (targets.empty() && sources.size() == 1) {
    // `ln -s TARGET` links into the current directory; a lone source copies nowhere.
    if (name == "ln") out.add(sources.front(), PathAccessKind::Read, "ln (target)");
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
      out.add(s, PathAccessKind::Write, "mv (source)", PathShape::Tree);  // gone from there
    } else if (name == "ln" && symbolic && !link_dir.empty() && !s.text.starts_with('/') &&
               !s.text.starts_with('~') && !s.dynamic) {
      out.add(wordFrom(s, link_dir + s.text), PathAccessKind::Read, "ln (target)");
    } else if (name == "ln") {
      out.add(s, PathAccessKind::Read, "ln (target)");  // read through the link later
    } else {
      out.add(s, PathAccessKind::Read, name + " (source)",
              recursive ? PathShape::Tree : PathShape::File);
    }
  }
  for (const ShellWord& t : targets) {
    if (local(t)) out.add(t, PathAccessKind::Write, name + " (destination)");
  }
  out.addAll(a.valuesOf({"--log-file"}), PathAccessKind::Write, name + " --log-file");
  out.addAll(a.valuesOf({"--files-from"}), PathAccessKind::Read, name + " --files-from");
}

void modePaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out) {
  const CommandArgs a = parseArgs(words, "", {"--reference"});
  const size_t skip = a.operands.empty() || a.hasLong("--reference") ? 0 : 1;
  const bool recursive = a.hasAny("R", {"--recursive"});
  for (size_t i = skip; i < a.operands.size(); ++i) {
    out.add(a.operands[i], PathAccessKind::Write, recursive ? name + " -R" : name,
            recursive ? PathShape::Tree : PathShape::File);
  }
}

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
      out.add(wordFrom(v, v.text.substr(at + 1)), PathAccessKind::Read, "curl -d @FILE");
    }
  }
  for (const ShellWord& v : a.valuesOf({"-F", "--form"})) {
    const size_t eq = v.text.find('=');
    if (eq == std::string::npos || eq + 1 >= v.text.size()) continue;
    if (v.text[eq + 1] != '@' && v.text[eq + 1] != '<') continue;
    std::string file = v.text.substr(eq + 2);
    file = file.substr(0, file.find(';'));  // ;type=... ;filename=...
    out.add(wordFrom(v, file), PathAccessKind::Read, "curl -F name=@FILE");
  }
  out.addAll(a.valuesOf({"-T", "--upload-file", "-K", "--config"}), PathAccessKind::Read, "curl");
  out.addAll(a.valuesOf({"-o", "--output", "-D", "--dump-header", "-c", "--cookie-jar", "--trace",
                         "--trace-ascii", "--stderr"}),
             PathAccessKind::Write, "curl -o");
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
             PathAccessKind::Read, "wget");
  out.addAll(a.valuesOf({"-O", "--output-document", "-o", "--output-file", "-a", "--append-output",
                         "-P", "--directory-prefix", "--save-cookies"}),
             PathAccessKind::Write, "wget -O");
}

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
  out.addAll(archives, creates ? PathAccessKind::Write : PathAccessKind::Read, "tar -f");
  out.addAll(a.valuesOf({"-T", "--files-from", "-X", "--exclude-from"}), PathAccessKind::Read,
             "tar -T");
  if (creates) {
    out.addAll(a.operands, PathAccessKind::Read, "tar (archived)", PathShape::Tree);
  } else if (a.hasAny("x", {"--extract", "--get"})) {
    out.addAll(a.valuesOf({"-C", "--directory"}), PathAccessKind::Write, "tar -x -C");
  }
}

void zipPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out) {
  if (name == "unzip") {
    const CommandArgs a = parseArgs(words, "dxP", {});
    if (!a.operands.empty()) out.add(a.operands.front(), PathAccessKind::Read, "unzip");
    out.addAll(a.valuesOf({"-d"}), PathAccessKind::Write, "unzip -d");
    return;
  }
  const CommandArgs a = parseArgs(words, "bnPtxi", {"--exclude", "--include", "--password"});
  if (a.operands.empty()) return;
  out.add(a.operands.front(), PathAccessKind::Write, "zip (archive)");
  const bool recursive = a.hasAny("r", {"--recurse-paths"});
  for (size_t i = 1; i < a.operands.size(); ++i) {
    out.add(a.operands[i], PathAccessKind::Read, "zip",
            recursive ? PathShape::Tree : PathShape::File);
  }
}

void compressPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out) {
  const CommandArgs a = parseArgs(words, "S", {"--suffix"});
  out.addAll(a.operands, PathAccessKind::Read, name);
  if (!a.hasAny("cktl", {"--stdout", "--to-stdout", "--keep", "--test", "--list"})) {
    out.addAll(a.operands, PathAccessKind::Write, name);
  }
}

namespace {

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
    if (w.text.starts_with('-')) continue;
    if (sub == "grep" && i == 0) continue;  // the pattern
    std::string path = w.text;
    if (path.starts_with(":(")) {
      // Pathspec magic: `:(top).env`, `:(glob)**/.env`, `:(icase).ENV`;
      // an exclusion names nothing read.
      const size_t close = path.find(')');
      if (close == std::string::npos || path.find("exclude") < close) continue;
      const bool icase = path.find("icase") < close;
      path = path.substr(close + 1);
      // Any case: judged as the lower-case name the secret rules know.
      if (icase) {
        for (char& c : path) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
    } else if (path.starts_with(":!") || path.starts_with(":^")) {
      continue;
    } else if (path.starts_with(":/")) {
      path = path.substr(2);  // the top of the work tree (or a commit message: harmless read)
    } else if (const size_t colon = path.find(':'); colon != std::string::npos) {
      path = path.substr(colon + 1);  // REV:PATH, :PATH
      // `:N:PATH`, a stage of the index.
      if (colon == 0 && path.size() >= 2 && std::isdigit(static_cast<unsigned char>(path[0])) &&
          path[1] == ':') {
        path = path.substr(2);
      }
    }
    if (path.empty()) continue;
    // A pathspec with wildcards (`'*.env'`) names every file it matches.
    if (path.find_first_of("*?[") != std::string::npos) {
      out.add(ShellWord{path, true, w.source}, PathAccessKind::Read, route, PathShape::Pattern);
    } else {
      out.add(ShellWord{path, w.dynamic, w.source}, PathAccessKind::Read, route);
    }
  }
}

}  // namespace

void gitPaths(std::span<const ShellWord> words, PathCollector& out) {
  const CommandArgs top =
      parseArgs(words, "CcFt", {"--git-dir", "--work-tree", "--file", "--template"});
  if (top.operands.empty()) return;
  const std::string sub = top.operands.front().text;
  const std::vector<ShellWord> rest(top.operands.begin() + 1, top.operands.end());
  if (sub == "commit" || sub == "tag") {
    out.addAll(top.valuesOf({"-F", "--file", "-t", "--template"}), PathAccessKind::Read,
               "git " + sub + " -F");
  } else if (sub == "diff" && top.hasLong("--no-index")) {
    out.addAll(rest, PathAccessKind::Read, "git diff --no-index");
  } else if (sub == "clone" && rest.size() >= 2) {
    out.add(rest.back(), PathAccessKind::Write, "git clone (destination)");
  } else if (sub == "init" && !rest.empty()) {
    out.add(rest.back(), PathAccessKind::Write, "git init");
  } else if (oneOf(sub, {"show", "log", "whatchanged", "diff", "blame", "annotate", "cat-file",
                         "grep", "format-patch", "shortlog", "range-diff", "difftool"})) {
    committedFileReads(sub, rest, out);
  }
}

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
        out.add(ShellWord{text, true, text}, PathAccessKind::Write, "find -delete",
                PathShape::Pattern);
      }
    }
  } else {
    out.addAll(starts, deletes ? PathAccessKind::Write : PathAccessKind::Read,
               deletes ? "find -delete" : "find", PathShape::Tree);
  }
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (oneOf(args[i].text, {"-fprint", "-fprint0", "-fprintf", "-fls"})) {
      out.add(args[i + 1], PathAccessKind::Write, "find " + args[i].text);
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
      out.add(wordFrom(words[i + 1], file), PathAccessKind::Read, "openssl " + t);
    } else if (t == "-out" || t == "-keyout") {
      out.add(words[i + 1], PathAccessKind::Write, "openssl " + t);
    }
  }
}

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

}  // namespace toolguard::detail
