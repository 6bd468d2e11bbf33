// The paths a simple command reads and writes, resolved where it runs.
#include "command_accesses.hpp"

#include <glob.h>

#include <algorithm>
#include <cctype>
#include <span>

#include "command_args.hpp"
#include "command_paths.hpp"
#include "paths/path_probes.hpp"
#include "shell_parse/name_lists.hpp"
#include "shell_unwrap/xargs_input.hpp"
#include "toolguard/paths.hpp"

namespace toolguard::detail {
namespace {

constexpr size_t kMaxAccesses = 256;      // per command: enough for any real command line
constexpr size_t kMaxGlobMatches = 1024;  // files one glob is expanded to; past it, asks
constexpr size_t kMaxXargsRuns = 32;      // commands `xargs -I` is unrolled into

std::vector<ShellWord> splitShellWord(const ShellWord& word) {
  std::vector<ShellWord> out;
  std::string current;
  for (char c : word.text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!current.empty()) out.push_back(ShellWord{current, word.dynamic, current});
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) out.push_back(ShellWord{current, word.dynamic, current});
  return out;
}

// The command before `program.commands[index]` in its pipeline, whose
// output it reads; nullptr when it is first or alone.
const SimpleCommand* pipelineProducer(const ShellProgram& program, size_t index) {
  const SimpleCommand& c = program.commands[index];
  const size_t position = c.placement.pipeline_position;
  if (position == 0) return nullptr;
  for (size_t j = index; j-- > 0;) {
    const SimpleCommand& p = program.commands[j];
    if (p.placement.pipeline_length == c.placement.pipeline_length &&
        p.placement.pipeline_position == position - 1) {
      return &p;
    }
  }
  return nullptr;
}

// The words a literal producer hands to `xargs`: the command before it in
// its pipeline (echo, printf, cat of a here-string) or its own here-string.
std::vector<ShellWord> xargsInputs(const ShellProgram& program, size_t xargs_index) {
  const SimpleCommand& xargs = program.commands[xargs_index];
  std::vector<ShellWord> out;
  auto take = [&](const ShellWord& w) {
    for (ShellWord& piece : splitShellWord(w)) out.push_back(std::move(piece));
  };
  auto hereStrings = [&](const SimpleCommand& c) {
    for (const ShellRedirect& r : c.redirects) {
      if (r.op == "<<<") take(r.target);
    }
  };
  hereStrings(xargs);
  if (const SimpleCommand* producer = pipelineProducer(program, xargs_index)) {
    const SimpleCommand& p = *producer;
    const std::string_view name = p.commandName();
    const auto args = p.arguments();
    if (name == "echo") {
      size_t i = 0;
      while (i < args.size() && (args[i].text == "-n" || args[i].text == "-e" ||
                                 args[i].text == "-E" || args[i].text == "-ne")) {
        ++i;
      }
      for (; i < args.size(); ++i) take(args[i]);
    } else if (name == "printf" && !args.empty()) {
      if (args.size() == 1 && args[0].text.find('%') == std::string::npos) {
        std::string text = args[0].text;
        for (size_t at = text.find("\\n"); at != std::string::npos; at = text.find("\\n", at)) {
          text.replace(at, 2, " ");
        }
        take(ShellWord{text, args[0].dynamic, args[0].source});
      }
      for (size_t i = 1; i < args.size(); ++i) take(args[i]);
    } else if (name == "cat") {
      hereStrings(p);
    }
  }
  return out;
}

// The places the names a `find` prints lie in, as globs: under its start
// points (each name begins with one), narrowed by one `-name` when nothing
// else chooses; empty when it prints other text than the names (-printf,
// -ls) or a start point is known only at run time.
std::vector<std::string> findOutputPlaces(const SimpleCommand& p) {
  const std::vector<ShellWord> starts = findStarts(p);
  std::string glob = "**";
  size_t names = 0;
  for (const ShellWord& w : p.arguments()) {
    const std::string& t = w.text;
    if (w.dynamic || t == "-printf" || t == "-fprintf" || t == "-ls" || t == "-fls") return {};
    if (t == "-exec" || t == "-execdir" || t == "-ok" || t == "-okdir") break;
    if (t == "-o" || t == "-or" || t == "!" || t == "-not" || t == ",") names = 2;
    if (t == "-name") ++names;
  }
  if (names == 1) glob = "**/" + findNameGlobs(p).front().text;
  std::vector<std::string> out;
  for (const ShellWord& start : starts) {
    out.push_back((start.text.ends_with('/') ? start.text : start.text + "/") + glob);
  }
  return out;
}

// Where the names xargs is handed at run time lie, as globs (`src/**`,
// `./**/*.py`): under the start points of a `find` before it in the
// pipeline (each name find prints starts with one of them; only `-name`
// narrows them), or in the work tree for `git ls-files` and `git diff
// --name-only`. Empty when they may be any path (a file's content, `ls`, a
// redirection, `-a FILE`): then they are judged as reads anywhere.
std::vector<std::string> xargsInputPlaces(const ShellProgram& program, size_t xargs_index) {
  // Names split at blanks, quotes and newlines, or read from a file, may
  // be any path: a name under the workspace becomes several words (a
  // directory named `x ` holding `home y.o` is `./x /home y.o`).
  const XargsInputForm form = xargsInputForm(program.commands[xargs_index]);
  if (!form.readable || form.reads_file || !form.split_at_nul) return {};
  for (const ShellRedirect& r : program.commands[xargs_index].redirects) {
    if (r.op == "<" || r.op == "<<<" || r.op == "<<" || r.op == "<&") return {};
  }
  if (const SimpleCommand* producer = pipelineProducer(program, xargs_index)) {
    const SimpleCommand& p = *producer;
    const std::string_view name = p.commandName();
    const auto args = p.arguments();
    if (name == "find") {
      // What an -exec'd program prints reaches xargs too: content, not names.
      for (const ShellWord& w : args) {
        if (oneOf(w.text, {"-exec", "-execdir", "-ok", "-okdir"})) return {};
      }
      return findOutputPlaces(p);
    }
    if (name == "git" && !args.empty() && !p.nameIsDynamic()) {
      // Only options that keep the output a list of the work tree's files
      // (`--format`, `--line-prefix` and the like print any text).
      const std::string& sub = args[0].text;
      static constexpr std::string_view kListing[] = {
          "-z",          "-c",          "--cached",           "-m",         "--modified",
          "-o",          "--others",    "--exclude-standard", "-d",         "--deleted",
          "--full-name", "--name-only", "--staged",           "--relative", "--"};
      bool name_only = sub == "ls-files";
      for (size_t k = 1; k < args.size(); ++k) {
        const ShellWord& w = args[k];
        if (w.dynamic) return {};
        if (w.text == "--name-only") name_only = name_only || sub == "diff";
        if (w.text.starts_with('-') && !w.text.starts_with("--diff-filter=") &&
            std::find(std::begin(kListing), std::end(kListing), w.text) == std::end(kListing)) {
          return {};
        }
      }
      // git prints names as they are, without `./`: a name may start with
      // `-` (a committed file `-ffoo`) and read as an option.
      if (name_only) return {"**"};
    }
    return {};
  }
  return {};
}

// A place glob as a word known only at run time: each `**` a run-time part
// (AccessList::dynamic turns those back into `**` where it judges paths).
std::string runTimeWordOf(std::string glob) {
  for (size_t at = glob.find("**"); at != std::string::npos; at = glob.find("**", at + 13)) {
    glob.replace(at, 2, "$XARGS_INPUT");
  }
  return glob;
}

// A word holding run-time names, written as one quoted word: it is one
// argument (-0 and find -exec never split a name), and whether it may start
// with `-` is whether its text starts with the run-time part.
// Names relative to where the command runs that may start with `-` (git's)
// are spelled as bare run-time words but name the files `./NAME` does.
ShellWord namesWord(const std::string& text) {
  const std::string path = text.starts_with("$XARGS_INPUT") ? "./" + text : text;
  return ShellWord{path, true, "\"" + text + "\""};
}

// The command `find -exec` runs, `{}` in each word standing for a name find
// found: a path under its start points (anywhere when those are not known).
std::vector<SimpleCommand> withFoundNames(const SimpleCommand& c, const SimpleCommand& find) {
  std::vector<std::string> places = findOutputPlaces(find);
  if (places.empty()) places.push_back("/**");
  std::vector<SimpleCommand> runs;
  for (const std::string& glob : places) {
    const std::string place = runTimeWordOf(glob);
    SimpleCommand run = c;
    bool found = false;
    for (ShellWord& w : run.words) {
      for (size_t at = w.text.find("{}"); at != std::string::npos;
           at = w.text.find("{}", at + place.size())) {
        w.text.replace(at, 2, place);
        w.dynamic = true;
        w.source = namesWord(w.text).source;
        found = true;
      }
    }
    if (!found) return {c};
    runs.push_back(std::move(run));
  }
  return runs;
}

}  // namespace

bool getsRunTimeWords(const SimpleCommand& c) {
  if (c.wrappers.empty()) return false;
  const std::string& last = c.wrappers.back().name;
  return last.starts_with("find -") || (last == "xargs" && c.unknown_extra_arguments);
}

// The command with the words xargs gives it, once per input under -I.
std::vector<SimpleCommand> withXargsInputs(const CommandScene& s) {
  const SimpleCommand& c = s.command;
  // A command written out from xargs's known input (xargs_input.cpp) has
  // its arguments already.
  if (!getsRunTimeWords(c)) return {c};
  if (c.wrappers.back().name.starts_with("find -")) {
    if (c.wrappers.back().command_index >= s.program.commands.size()) return {c};
    return withFoundNames(c, s.program.commands[c.wrappers.back().command_index]);
  }
  const size_t index = c.wrappers.back().command_index;
  if (index >= s.program.commands.size()) return {c};
  const std::vector<ShellWord> inputs = xargsInputs(s.program, index);
  const SimpleCommand& xargs = s.program.commands[index];
  const CommandArgs a = parseArgs(xargs.arguments(), "adEILnPs",
                                  {"--arg-file", "--delimiter", "--max-lines", "--max-args",
                                   "--max-procs", "--max-chars", "--replace", "--eof"});
  std::vector<ShellWord> replace = a.valuesOf({"-I", "--replace"});
  if (replace.empty() && a.has('i')) replace.push_back(ShellWord{"{}", false, "{}"});
  if (inputs.empty()) {
    // Names only known at run time: each a path of the places they come
    // from, or of anywhere ("/" then a run-time part: judged as `/**`),
    // appended, or in the placeholder's place under -I.
    std::vector<std::string> places = xargsInputPlaces(s.program, index);
    if (places.empty()) places.push_back("/**");
    std::vector<SimpleCommand> runs;
    for (const std::string& glob : places) {
      const std::string place = runTimeWordOf(glob);
      SimpleCommand run = c;
      if (replace.empty() || replace.front().text.empty()) {
        run.words.push_back(namesWord(place));
      } else {
        // unwrapXargs wrote the placeholder as `${xargs}`.
        const std::string token = "${xargs}";
        for (ShellWord& w : run.words) {
          for (size_t at = w.text.find(token); at != std::string::npos;
               at = w.text.find(token, at + place.size())) {
            w.text.replace(at, token.size(), place);
            w.dynamic = true;
            w.source = namesWord(w.text).source;
          }
        }
      }
      runs.push_back(std::move(run));
    }
    return runs;
  }
  if (replace.empty()) {
    SimpleCommand with = c;
    with.words.insert(with.words.end(), inputs.begin(), inputs.end());
    return {with};
  }
  std::vector<SimpleCommand> runs;
  const std::string& token = replace.front().text;
  // More inputs than are unrolled: one run with a value only known at run
  // time in the placeholder's place stands for all of them (never a cap
  // that leaves inputs unjudged).
  std::vector<ShellWord> unrolled = inputs;
  if (unrolled.size() > kMaxXargsRuns) unrolled = {ShellWord{"$XARGS_INPUT", true, "$XARGS_INPUT"}};
  for (const ShellWord& input : unrolled) {
    if (token.empty()) break;
    SimpleCommand run = c;
    for (ShellWord& w : run.words) {
      for (size_t at = w.text.find(token); at != std::string::npos;
           at = w.text.find(token, at + input.text.size())) {
        w.text.replace(at, token.size(), input.text);
        w.dynamic = w.dynamic || input.dynamic;
      }
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

namespace {

// The word with each run-time part (`$X`, `${X}`, `$(...)`, backquotes) as
// `**`: it may stand for any number of directories.
std::string runTimePartsAsGlobs(const std::string& text, bool& has_run_time_part) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '`') {
      const size_t close = text.find('`', i + 1);
      i = close == std::string::npos ? text.size() : close;
    } else if (c == '$' && i + 1 < text.size() && (text[i + 1] == '{' || text[i + 1] == '(')) {
      const char open = text[i + 1];
      const char close = open == '{' ? '}' : ')';
      int depth = 0;
      size_t j = i + 1;
      for (; j < text.size(); ++j) {
        if (text[j] == open) ++depth;
        if (text[j] == close && --depth == 0) break;
      }
      i = j;
    } else if (c == '$' && i + 1 < text.size() &&
               (std::isalnum(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '_' ||
                std::string_view("@*#?$!-").find(text[i + 1]) != std::string_view::npos)) {
      size_t j = i + 1;
      if (std::isalpha(static_cast<unsigned char>(text[j])) || text[j] == '_') {
        while (j + 1 < text.size() &&
               (std::isalnum(static_cast<unsigned char>(text[j + 1])) || text[j + 1] == '_')) {
          ++j;
        }
      }
      i = j;
    } else {
      out += c;
      continue;
    }
    has_run_time_part = true;
    if (!out.ends_with("**")) out += "**";
  }
  return out;
}

class AccessList {
 public:
  AccessList(const CommandScene& scene, std::vector<PathAccess>& out) : scene_(scene), out_(out) {}

  void file(const ShellWord& word, PathAccessKind kind, PathShape shape, const std::string& route) {
    if (full()) return overflow(kind, route);
    PathAccess access{kind, shape, word.text, resolvedPath(word, scene_), route, true};
    access.known_location = !access.path.lexical.starts_with(kUnknownDirectory);
    out_.push_back(std::move(access));
  }

  void pattern(const std::string& glob, const std::string& written, PathAccessKind kind,
               const std::string& route) {
    if (full()) return overflow(kind, route);
    PathAccess access{kind, PathShape::Pattern, written, {}, route, true};
    if (glob.starts_with("**")) {
      access.known_location = false;  // starts with a run-time part: anywhere
      access.path.lexical = std::string(kUnknownDirectory) + "/" + glob;
    } else {
      access.path.lexical = absolutePath(ShellWord{glob, false, glob}, scene_);
      access.known_location = !access.path.lexical.starts_with(kUnknownDirectory);
    }
    access.path.resolved = access.path.lexical;
    out_.push_back(std::move(access));
  }

  // A word known only at run time: globs expanded as bash would, run-time
  // parts judged as `**`.
  void dynamic(const CommandPath& p) {
    bool run_time = false;
    const std::string text = runTimePartsAsGlobs(p.word.text, run_time);
    for (const std::string& alternative : expandBraces(text, 16)) {
      const bool wild = alternative.find_first_of("*?[") != std::string::npos;
      if (!wild) {
        file(ShellWord{alternative, false, p.word.source}, p.kind, p.shape, p.route);
        continue;
      }
      pattern(alternative, p.word.text, p.kind, p.route);
      if (!run_time && p.shape != PathShape::Pattern && !alternative.starts_with("**")) {
        expandGlob(alternative, p);
      }
    }
  }

 private:
  bool full() const { return out_.size() >= kMaxAccesses; }

  // Past the bound, the paths not read stand as one access of unknown
  // location: a bound never lets a path through unjudged.
  void overflow(PathAccessKind kind, const std::string& route) {
    if (overflowed_[static_cast<size_t>(kind)]) return;
    overflowed_[static_cast<size_t>(kind)] = true;
    PathAccess access{kind, PathShape::Pattern, "(more paths than toolguard reads)", {}, route,
                      true};
    access.path.lexical = "/**";  // anywhere: the path rules treat it as outside and sensitive
    access.path.resolved = access.path.lexical;
    out_.push_back(std::move(access));
  }
  bool overflowed_[3] = {false, false, false};

  // Only a glob whose wildcards are all in its last component is expanded:
  // one directory is read, never a walk of the file system (`/*/*/*/*`),
  // which a hostile command could make take as long as it likes. Others are
  // judged as patterns only.
  void expandGlob(const std::string& alternative, const CommandPath& p) {
    const std::string absolute = absolutePath(ShellWord{alternative, false, alternative}, scene_);
    if (absolute.starts_with(kUnknownDirectory)) return;
    const size_t wild = absolute.find_first_of("*?[");
    if (wild == std::string::npos || absolute.find('/', wild) != std::string::npos) return;
    glob_t found{};
    if (::glob(absolute.c_str(), GLOB_NOSORT, nullptr, &found) == 0) {
      for (size_t i = 0; i < found.gl_pathc && i < kMaxGlobMatches; ++i) {
        file(ShellWord{found.gl_pathv[i], false, found.gl_pathv[i]}, p.kind, p.shape, p.route);
      }
      if (found.gl_pathc > kMaxGlobMatches) overflow(p.kind, p.route);
    }
    ::globfree(&found);
  }

  const CommandScene& scene_;
  std::vector<PathAccess>& out_;
};

}  // namespace

std::vector<PathAccess> commandAccesses(const CommandScene& scene) {
  std::vector<PathAccess> out;
  const SimpleCommand& command = scene.command;
  // `{}` of find -exec: what find walks.
  const SimpleCommand* find = nullptr;
  if (!command.wrappers.empty() && command.wrappers.back().name.starts_with("find -") &&
      command.wrappers.back().command_index < scene.program.commands.size()) {
    find = &scene.program.commands[command.wrappers.back().command_index];
  }
  // The command as written, or copies with the words xargs or find add.
  std::vector<SimpleCommand> written_out;
  std::span<const SimpleCommand> runs(&command, 1);
  if (getsRunTimeWords(command)) runs = written_out = withXargsInputs(scene);
  for (const SimpleCommand& run : runs) {
    // Paths resolve where the command itself sits in the program (after its cd's).
    AccessList list(scene, out);
    for (const CommandPath& p : commandPaths(run)) {
      if (find != nullptr && p.word.text.find("{}") != std::string::npos) {
        const std::vector<ShellWord> names = findNameGlobs(*find);
        for (const ShellWord& start : findStarts(*find)) {
          if (names.empty()) {
            list.file(start, p.kind, PathShape::Tree, "find -exec " + p.route);
          } else {
            for (const ShellWord& name : names) {
              list.pattern(start.text + "/**/" + name.text, start.text + "/**/" + name.text, p.kind,
                           "find -exec " + p.route);
            }
          }
        }
        continue;
      }
      if (p.word.dynamic) {
        list.dynamic(p);
      } else {
        list.file(p.word, p.kind, p.shape, p.route);
      }
    }
  }
  return out;
}

}  // namespace toolguard::detail
