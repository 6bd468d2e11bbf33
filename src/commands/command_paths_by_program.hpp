#pragma once
// Internal: what command_paths.cpp and command_paths_by_program.cpp share:
// the collector of a command's paths, and the path readers of the programs
// whose words need more than a list of options (command_paths_by_program.cpp).

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "command_paths.hpp"

namespace toolguard::detail {

class PathCollector {
 public:
  explicit PathCollector(std::vector<CommandPath>& out) : out_(out) {}

  void add(const ShellWord& word, PathAccessKind kind, const std::string& route,
           PathShape shape = PathShape::File) {
    if (word.text.empty() || word.text == "-") return;
    out_.push_back(CommandPath{word, kind, shape, route});
  }
  template <typename Words>
  void addAll(const Words& words, PathAccessKind kind, const std::string& route,
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
        add(ShellWord{text, true, text}, PathAccessKind::Read, route, PathShape::Pattern);
      }
    }
  }

 private:
  std::vector<CommandPath>& out_;
};

/// `text` in place of the original word's text (its source and dynamic kept).
inline ShellWord wordFrom(const ShellWord& original, std::string text) {
  return ShellWord{std::move(text), original.dynamic, original.source};
}

/// grep and its relatives: PATTERN [FILE...], or -e/-f PATTERN with FILEs only.
void grepPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out);

/// ripgrep, ag, ack: PATTERN [PATH...], each path searched recursively.
void recursiveSearchPaths(const std::string& name, std::span<const ShellWord> words,
                          PathCollector& out);

/// sed SCRIPT FILE..., or -e/-f SCRIPT with FILEs only; -i edits them in place.
void sedPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out);

/// awk PROGRAM [var=value | FILE]..., or -f PROGFILE with operands only.
void awkPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out);

/// jq FILTER [FILE...]; --arg/--argjson take two words, --slurpfile/--rawfile read a file.
void jqPaths(std::span<const ShellWord> words, PathCollector& out);

/// cp, mv, ln, install, rsync, scp: sources and a destination (or -t DIR).
void copyPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out);

/// chmod MODE FILE..., chown OWNER FILE..., or --reference=REF FILE...
void modePaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out);

/// curl: files it uploads or sends (-d @FILE, -F name=@FILE, -T FILE) and writes (-o FILE).
void curlPaths(std::span<const ShellWord> words, PathCollector& out);

/// wget: the files it sends or reads (--post-file, --body-file, -i,
/// --load-cookies) and writes (-O, -o, -a, -P, --save-cookies).
void wgetPaths(std::span<const ShellWord> words, PathCollector& out);

/// tar: the archive it writes or reads, the files it archives, -C DIR it extracts into.
void tarPaths(std::span<const ShellWord> words, PathCollector& out);

/// zip ARCHIVE FILE...: writes the archive, reads the files (trees with -r);
/// unzip ARCHIVE: reads it, writes into -d DIR.
void zipPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out);

/// gzip and friends replace the file unless told to keep it or write to stdout.
void compressPaths(const std::string& name, std::span<const ShellWord> words, PathCollector& out);

/// git: the files of commit/tag -F, diff --no-index, the destination of clone
/// and init, and the committed files show, log, diff, blame, ... print.
void gitPaths(std::span<const ShellWord> words, PathCollector& out);

/// find: its start points are listed (deleted with -delete); -fprint FILE writes.
void findPaths(const SimpleCommand& c, PathCollector& out);

/// openssl: -in, -inkey, -key, -kfile and -passin file:PATH are read;
/// -out and -keyout written.
void openSslPaths(std::span<const ShellWord> words, PathCollector& out);

/// Formatters that rewrite the files they are given (always, or with a flag).
bool formatterWrites(const std::string& name, std::span<const ShellWord> words);

}  // namespace toolguard::detail
