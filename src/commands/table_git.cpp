// Tables of harmless options: git and the subcommands of everyday work in
// one's own repository (reads, and changes that stay in it and can be
// undone). Each subcommand's options were read from `git SUB -h` and
// `man git-SUB` of Debian 12's git 2.39.5, and each spelling was tried on
// it; so was the behaviour the checks rely on (which word is a subcommand,
// when an editor opens, when `git diff` reads files outside the repository).
//
// Left out everywhere: options that run other programs or take their names
// (-c, --config-env, --exec-path, -p/--paginate, --ext-diff, --textconv,
// --filters, grep's -O/--open-files-in-pager, --upload-pack, -s/--strategy,
// -S/--gpg-sign, --show-signature, -e/--edit, the -i/-p interactive modes),
// options that point git at another repository, work tree or files
// (--git-dir, --work-tree, --namespace, --bare, diff's and grep's
// --no-index, blame's --contents, --separate-git-dir, --template), and
// --output (writes a file).
#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "git_start.hpp"
#include "program_specs.hpp"
#include "shell_facts.hpp"
#include "shell_parse/name_lists.hpp"
#include "toolguard/call_view.hpp"

namespace toolguard::detail {
namespace {

// ---- shared option lists -------------------------------------------------

// The diff options of diff, log, show and stash show (diff-options in
// git-diff(1)). -O names a file of path orders that git reads.
#define TG_GIT_DIFF_OPTIONS                                                                    \
  " -p|-u|--patch -s|--no-patch -U|--unified?=num --raw --patch-with-raw --patch-with-stat"    \
  " --stat?=text --stat-width=num --stat-name-width=num --stat-graph-width=num"                \
  " --stat-count=num --compact-summary --numstat --shortstat --dirstat?=text --cumulative"     \
  " --dirstat-by-file?=text --summary --name-only --name-status --submodule?={short,log,diff}" \
  " --color?={always,never,auto} --no-color"                                                   \
  " --color-moved?={no,default,plain,blocks,zebra,dimmed-zebra} --no-color-moved"              \
  " --color-moved-ws=text --no-color-moved-ws --word-diff?={color,plain,porcelain,none}"       \
  " --word-diff-regex=text --color-words?=text --no-renames --rename-empty --no-rename-empty"  \
  " --check --ws-error-highlight=text --full-index --binary --abbrev?=num"                     \
  " -B|--break-rewrites?=text -M|--find-renames?=text -C|--find-copies?=text"                  \
  " --find-copies-harder -D|--irreversible-delete --diff-filter=text -S=text -G=text"          \
  " --find-object=text --pickaxe-all --pickaxe-regex -O=read -R --relative?=text"              \
  " --no-relative -a|--text --ignore-cr-at-eol --ignore-space-at-eol"                          \
  " -b|--ignore-space-change -w|--ignore-all-space --ignore-blank-lines"                       \
  " -I|--ignore-matching-lines=text --inter-hunk-context=num -W|--function-context"            \
  " --exit-code --quiet --no-ext-diff --no-textconv"                                           \
  " --ignore-submodules?={none,untracked,dirty,all} --src-prefix=text --dst-prefix=text"       \
  " --no-prefix --line-prefix=text --ita-invisible-in-index --ita-visible-in-index --minimal"  \
  " --patience --histogram --diff-algorithm={default,myers,minimal,patience,histogram}"        \
  " --anchored=text --indent-heuristic --no-indent-heuristic -z --help "

// The revision and formatting options of log, show, whatchanged, reflog,
// rev-list, shortlog and stash list (git-log(1), git-rev-list(1)), with the
// diff options.
#define TG_GIT_LOG_OPTIONS                                                                     \
  " --oneline --graph --all --branches?=text --tags?=text --remotes?=text --glob=text"         \
  " --exclude=text --not --reflog --first-parent --merges --no-merges --min-parents=num"       \
  " --max-parents=num --no-min-parents --no-max-parents -n|--max-count=num -# --skip=num"      \
  " --since|--after|--until|--before|--since-as-filter|--max-age|--min-age=text"               \
  " --author|--committer|--grep=text --grep-reflog=text --all-match --invert-grep"             \
  " -i|--regexp-ignore-case --basic-regexp -E|--extended-regexp -F|--fixed-strings"            \
  " -P|--perl-regexp --reverse --topo-order --date-order --author-date-order"                  \
  " --decorate?={short,full,auto,no} --no-decorate --decorate-refs=text"                       \
  " --decorate-refs-exclude=text --clear-decorations --source --abbrev-commit"                 \
  " --no-abbrev-commit --no-abbrev --pretty?=text --format=text --date=text --relative-date"   \
  " --parents --children --left-right --left-only --right-only --cherry-pick --cherry-mark"    \
  " --cherry --boundary --ancestry-path?=text --simplify-by-decoration --full-history --dense" \
  " --sparse --simplify-merges --show-pulls --no-walk?={sorted,unsorted} --do-walk"            \
  " -g|--walk-reflogs --mailmap|--use-mailmap --no-mailmap|--no-use-mailmap --encoding=word"   \
  " --log-size --expand-tabs?=num --no-expand-tabs --no-notes --stdin --ignore-missing"        \
  " -q|--quiet --follow -L=text --full-diff -m -c --cc --diff-merges=word --no-diff-merges"    \
  " --combined-all-paths -t --show-linear-break?=text" TG_GIT_DIFF_OPTIONS

// stash push (and `git stash` with options only). Without -p/--patch (asks
// for hunks and runs an editor on `e`) and -a/--all (moves ignored files,
// .env among them, out of the work tree into the repository's objects).
#define TG_GIT_STASH_PUSH_OPTIONS                                                  \
  " -S|--staged -k|--keep-index --no-keep-index -u|--include-untracked -q|--quiet" \
  " -m|--message=text --pathspec-from-file=read --pathspec-file-nul --help "

bool checkInside(const TableParse&, const CommandScene& scene) {
  return runsInWorkspace(gitStart(scene), scene);
}

bool hasAny(const TableParse& parse, std::initializer_list<std::string_view> spellings) {
  return std::any_of(spellings.begin(), spellings.end(),
                     [&](std::string_view s) { return parse.has(s); });
}

// A name made of letters, digits and `_.-` (and `/` when `slash`), not
// starting with `-` or `/`, with no `..`: a remote's or a branch's name, not
// a URL (`host:path`, `ext::cmd`), a path outside (`/x`, `../x`), or a
// refspec that forces (`+a:b`).
bool plainGitName(std::string_view t, bool slash) {
  if (t.empty() || t.front() == '-' || t.front() == '/' || t.find("..") != std::string::npos ||
      t == ".") {
    return false;
  }
  return std::all_of(t.begin(), t.end(), [&](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ||
           (slash && c == '/');
  });
}

bool plainGitName(const ShellWord& w, bool slash) {
  return !w.dynamic && plainGitName(std::string_view(w.text), slash);
}

// ---- subcommands that need more than their table ------------------------

// cat-file prints an object's content: a blob named by its id may be any
// file ever committed (a `.env` among them), and `--batch` and
// `--batch-command` print the objects named on the input. A committed file
// named by path (`HEAD:.env`) meets the path rules instead; a ref (`HEAD`,
// `main^{tree}`) names a commit, a tag or a tree, whose text holds no file's.
bool checkCatFile(const TableParse& parse, const CommandScene& scene) {
  if (!checkInside(parse, scene) || hasAny(parse, {"--batch", "--batch-command"})) return false;
  // `-t`, `-s` and `-e` give a type, a size or a status, never content.
  const bool prints_content =
      parse.has("-p") || (!parse.operands.empty() &&
                          oneOf(parse.operands.front().text, {"blob", "tree", "commit", "tag"}));
  if (!prints_content) return true;
  for (const ShellWord& w : parse.operands) {
    if (w.dynamic) return false;
    const std::string& t = w.text;
    if (oneOf(t, {"blob", "tree", "commit", "tag"}) || t.find(':') != std::string::npos) continue;
    const std::string_view object = std::string_view(t).substr(0, t.find_first_of("^~@{"));
    const bool hex = object.size() >= 4 && std::all_of(object.begin(), object.end(), [](char c) {
                       return std::isxdigit(static_cast<unsigned char>(c));
                     });
    if (hex || !plainGitName(object, true)) return false;
  }
  return true;
}

// git diff: with exactly two operands of which one is outside the repository,
// or run outside any repository, git diff compares two files (an implicit
// --no-index): `git diff a.txt ~/.ssh/id_rsa` prints the key, and so does
// `git diff .env x` in a directory no repository holds. Every operand
// (revisions too: read as paths they stay inside) must be inside the
// workspace; of two operands, neither may be a secret file.
bool checkDiff(const TableParse& parse, const CommandScene& scene) {
  const GitStart start = gitStart(scene);
  if (!runsInWorkspace(start, scene)) return false;
  const bool two = parse.operands.size() == 2;
  return std::all_of(parse.operands.begin(), parse.operands.end(), [&](const ShellWord& w) {
    if (w.dynamic) return false;
    const ResolvedPath path = gitPath(*start.directory, w.text, scene);
    return scene.view.insideWorkspace(path) && !(two && eitherForm(path, isSecretFile));
  });
}

// git commit: a message that needs no editor (plain `git commit` and
// `--amend`, `--squash`, `--fixup=amend:`/`reword:` open one).
bool checkCommit(const TableParse& parse, const CommandScene& scene) {
  if (!checkInside(parse, scene)) return false;
  std::vector<ShellWord> fixups = parse.valuesOf("--fixup");
  const bool edits_fixup = std::any_of(fixups.begin(), fixups.end(), [](const ShellWord& w) {
    return w.dynamic || w.text.starts_with("amend:") || w.text.starts_with("reword:");
  });
  if (edits_fixup) return false;
  return !fixups.empty() || hasAny(parse, {"-m", "--message", "-F", "--file", "-C",
                                           "--reuse-message", "--no-edit", "--dry-run"});
}

// git tag: an annotated tag without -m or -F opens an editor.
bool checkTag(const TableParse& parse, const CommandScene& scene) {
  if (!checkInside(parse, scene)) return false;
  // A tag of a committed file (`git tag k HEAD:.env`) names its content by a
  // ref: `git show k` prints it. Tags name commits here.
  for (const ShellWord& w : parse.operands) {
    if (w.dynamic || w.text.find(':') != std::string::npos) return false;
  }
  return !hasAny(parse, {"-a", "--annotate"}) || hasAny(parse, {"-m", "--message", "-F", "--file"});
}

// git config: only reading. `--get NAME [PATTERN]`, `--get-all`,
// `--get-regexp`, `-l`/`--list`, or `git config SECTION.KEY` (one operand
// with a dot: a newer git's `git config edit` opens an editor); two operands
// without an action set a value.
bool checkConfig(const TableParse& parse, const CommandScene& scene) {
  if (!checkInside(parse, scene)) return false;
  const bool list = hasAny(parse, {"-l", "--list"});
  const int gets = static_cast<int>(parse.has("--get")) + static_cast<int>(parse.has("--get-all")) +
                   static_cast<int>(parse.has("--get-regexp"));
  const size_t operands = parse.operands.size();
  if (list) return gets == 0 && operands == 0;
  if (gets == 1) return operands >= 1 && operands <= 2;
  if (gets > 1 || operands != 1) return false;
  const ShellWord& key = parse.operands.front();
  return !key.dynamic && key.text.find('.') != std::string::npos;
}

// git fetch: from remotes named in the repository's configuration, never a
// URL or a path given here. A refspec names a branch or tag, or stores one
// as a local ref (`pull/7/head:pr-7`), which git does only when it is new
// or moves forward: never `+src:dst`, which overwrites it.
bool checkFetch(const TableParse& parse, const CommandScene& scene) {
  if (!checkInside(parse, scene)) return false;
  const bool multiple = hasAny(parse, {"-m", "--multiple"});
  for (size_t i = 0; i < parse.operands.size(); ++i) {
    const ShellWord& w = parse.operands[i];
    if (i == 0 || multiple) {
      if (!plainGitName(w, false)) return false;
      continue;
    }
    const std::string_view refspec = w.text;
    const size_t colon = refspec.find(':');
    if (w.dynamic || !plainGitName(refspec.substr(0, colon), true)) return false;
    if (colon != std::string_view::npos && !plainGitName(refspec.substr(colon + 1), true)) {
      return false;
    }
  }
  return true;
}

// git remote: only `git remote [-v]`, `show [-n] NAME...` and `get-url NAME`
// (the others add, rename, remove or change remotes; `show URL` would
// contact any place given here).
bool checkRemote(const TableParse& parse, const CommandScene& scene) {
  if (!checkInside(parse, scene)) return false;
  if (parse.operands.empty()) return true;
  const ShellWord& sub = parse.operands.front();
  if (sub.dynamic || (sub.text != "show" && sub.text != "get-url")) return false;
  return std::all_of(parse.operands.begin() + 1, parse.operands.end(),
                     [](const ShellWord& w) { return plainGitName(w, false); });
}

// git reflog: `git reflog [show] [REF]` only. git reads its first word as a
// subcommand (expire, delete, exists, and whatever a newer git adds: all
// lower-case words); anything else is `show` with a ref. A first operand
// that could be a subcommand's name asks unless it is `show`.
bool checkReflog(const TableParse& parse, const CommandScene& scene) {
  if (!checkInside(parse, scene)) return false;
  if (parse.operands.empty()) return true;
  const ShellWord& first = parse.operands.front();
  if (first.dynamic) return false;
  if (first.text == "show") return true;
  return !std::all_of(first.text.begin(), first.text.end(),
                      [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; });
}

// git mv: git refuses paths outside its repository, which may be larger than
// the workspace (a workspace in a subdirectory of one's home repository).
bool checkMv(const TableParse& parse, const CommandScene& scene) {
  const GitStart start = gitStart(scene);
  if (!runsInWorkspace(start, scene)) return false;
  return std::all_of(parse.operands.begin(), parse.operands.end(), [&](const ShellWord& w) {
    return !w.dynamic && scene.view.insideWorkspace(gitPath(*start.directory, w.text, scene));
  });
}

bool checkCheckout(const TableParse& parse, const CommandScene& scene) {
  // Only creating a branch: with -b or --orphan git refuses paths, so
  // nothing in the work tree is overwritten (`git checkout FILE` discards
  // changes; -B resets an existing branch, as `git branch -f` does).
  return checkInside(parse, scene) && hasAny(parse, {"-b", "--orphan"});
}

bool checkRestore(const TableParse& parse, const CommandScene& scene) {
  // Only the index: `git restore FILE` (the work tree) discards changes.
  return checkInside(parse, scene) && hasAny(parse, {"-S", "--staged"});
}

bool checkClean(const TableParse& parse, const CommandScene& scene) {
  return checkInside(parse, scene) && hasAny(parse, {"-n", "--dry-run"});
}

bool checkRm(const TableParse& parse, const CommandScene& scene) {
  // Only from the index (or a dry run): the files stay in the work tree.
  return checkInside(parse, scene) && hasAny(parse, {"--cached", "-n", "--dry-run"});
}

// git stash: its subcommands are read by their own tables below; "git
// stash" itself reads every word with all of them together (see
// checkStash), since `git stash` alone and `git stash -u` are pushes and
// the option parser needs a subcommand after a spec that has them.
const ProgramSpec kStashPush{"git stash push|save", TG_GIT_STASH_PUSH_OPTIONS};
const ProgramSpec kStashPop{"git stash pop|apply", "--index -q|--quiet --help"};
const ProgramSpec kStashList{"git stash list", TG_GIT_LOG_OPTIONS};
const ProgramSpec kStashShow{"git stash show",
                             "-u|--include-untracked --only-untracked" TG_GIT_DIFF_OPTIONS};

// git stash: git reads only the word right after `stash` as a subcommand
// (`git stash -q drop` fails, `git stash -m drop` pushes with the message
// "drop"). No word: a push; an option first: a push with those options;
// list, show, push, save, pop, apply: the rest is read with that one's
// table; anything else (drop, clear, branch, create, store) asks.
bool checkStash(const TableParse&, const CommandScene& scene) {
  const GitStart start = gitStart(scene);
  if (!runsInWorkspace(start, scene)) return false;
  const std::span<const ShellWord> args = scene.command.arguments();
  if (start.subcommand >= args.size() || args[start.subcommand].text != "stash") return false;
  const std::span<const ShellWord> rest = args.subspan(start.subcommand + 1);
  if (rest.empty()) return true;
  const ShellWord& first = rest.front();
  if (first.dynamic) return false;
  const ProgramSpec* sub = nullptr;
  if (first.text == "list") {
    sub = &kStashList;
  } else if (first.text == "show") {
    sub = &kStashShow;
  } else if (first.text == "push" || first.text == "save") {
    sub = &kStashPush;
  } else if (first.text == "pop" || first.text == "apply") {
    sub = &kStashPop;
  }
  if (sub != nullptr) return parseWithTable(*sub, rest.subspan(1), &scene).known();
  if (first.text.starts_with('-')) return parseWithTable(kStashPush, rest, &scene).known();
  return false;
}

const ProgramSpec kGitSpecs[] = {
    // git's own options. -C DIR runs in a directory of the workspace.
    // Left out: -c and --config-env (any setting: a pager, an alias that
    // runs a command), --exec-path, --git-dir/--work-tree/--namespace/--bare
    // (another repository or tree), -p/--paginate (a pager), --super-prefix,
    // --list-cmds and --html-path/--man-path/--info-path (no subcommand
    // follows them).
    {"git",
     "-C=inside -P|--no-pager --no-optional-locks --literal-pathspecs --glob-pathspecs "
     "--noglob-pathspecs --icase-pathspecs --no-replace-objects -h|--help -v|--version",
     OperandRule::Sub},

    // ---- reads ----
    {"git status",
     "-s|--short -b|--branch --show-stash --ahead-behind --no-ahead-behind --porcelain?={v1,v2} "
     "--long -v|--verbose -z|--null -u|--untracked-files?={no,normal,all} "
     "--ignored?={traditional,matching,no} --ignore-submodules?={none,untracked,dirty,all} "
     "--column?=text --no-column --no-renames --renames -M|--find-renames?=text --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    // log, show, whatchanged: without --output (writes a file), --ext-diff and
    // --textconv (run configured programs), --show-signature (runs gpg).
    {"git log|show|whatchanged", TG_GIT_LOG_OPTIONS, OperandRule::Any, OptionStyle::Gnu, false,
     checkInside},
    // diff: without --no-index (compares any two files); see checkDiff.
    {"git diff", "--cached|--staged --merge-base" TG_GIT_DIFF_OPTIONS, OperandRule::Any,
     OptionStyle::Gnu, false, checkDiff},
    {"git rev-parse",
     "--abbrev-ref?={strict,loose} --short?=num --verify -q|--quiet --show-toplevel "
     "--show-prefix --show-cdup --git-dir --git-common-dir --absolute-git-dir "
     "--is-inside-work-tree --is-inside-git-dir --is-bare-repository --is-shallow-repository "
     "--show-superproject-working-tree --shared-index-path "
     "--show-object-format?={storage,input,output} --path-format={absolute,relative} "
     "--git-path=text --symbolic --symbolic-full-name --all --branches?=text --tags?=text "
     "--remotes?=text --glob=text --exclude=text --disambiguate=text --not --revs-only "
     "--no-revs --flags --no-flags --default=text --prefix=text --sq --local-env-vars "
     "--since|--after|--until|--before=text --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    // ls-files: without --exclude-per-directory (reads a file of that name in
    // every directory: .env) and --recurse-submodules.
    {"git ls-files",
     "-z -t -v -f -c|--cached -d|--deleted -m|--modified -o|--others -i|--ignored -s|--stage "
     "-k|--killed --directory --no-empty-directory --eol -u|--unmerged --resolve-undo "
     "-x|--exclude=text -X|--exclude-from=read --exclude-standard --full-name --error-unmatch "
     "--with-tree=text --abbrev?=num --debug --deduplicate --sparse --format=text --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    // blame: without --contents FILE (blames any file's text as the work tree's).
    {"git blame",
     "--incremental -b --root --show-stats --progress --no-progress --score-debug "
     "-f|--show-name -n|--show-number -p|--porcelain --line-porcelain -c -t -l -s "
     "-e|--show-email -w --ignore-rev=text --ignore-revs-file=read --color-lines --color-by-age "
     "--minimal -S=read -C?=text -M?=text -L=text --abbrev?=num --date=text --since=text "
     "--reverse --first-parent --encoding=word --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    {"git describe",
     "--contains --debug --all --tags --long --first-parent --abbrev?=num --exact-match "
     "--candidates=num --match=text --exclude=text --always --dirty?=text --broken?=text --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    // shortlog: its own -c, -n, -s, -e, -w first, then the revision options
    // (git refuses the display ones, --decorate, --source, -L, there).
    {"git shortlog",
     "-c|--committer -n|--numbered -s|--summary -e|--email -w?=text --group=text "
     "--format=text" TG_GIT_LOG_OPTIONS,
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    // grep: without -O/--open-files-in-pager (runs a pager or any program),
    // --textconv, --no-index and --untracked (files git does not track: .env),
    // --recurse-submodules.
    {"git grep",
     "--cached -v|--invert-match -i|--ignore-case -w|--word-regexp -a|--text -I -r|--recursive "
     "--no-recursive --max-depth=num -E|--extended-regexp -G|--basic-regexp -F|--fixed-strings "
     "-P|--perl-regexp -n|--line-number --column -h -H --full-name -l|--files-with-matches "
     "--name-only -L|--files-without-match -z|--null -o|--only-matching -c|--count "
     "--color?={always,never,auto} --no-color --break --heading -C|--context=num "
     "-B|--before-context=num -A|--after-context=num --threads=num -# -p|--show-function "
     "-W|--function-context -f=read -e=text --and --or --not -q|--quiet --all-match "
     "-m|--max-count=num --exclude-standard --no-textconv --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    {"git rev-list",
     "--count --objects --objects-edge --unpacked --header --timestamp --disk-usage?={human} "
     "--object-names --no-object-names" TG_GIT_LOG_OPTIONS,
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    // cat-file: without --textconv, --filters and --path (run configured
    // filters); see checkCatFile.
    {"git cat-file",
     "-e -p -t -s --allow-unknown-type --use-mailmap|--mailmap --batch?=text "
     "--batch-check?=text --batch-command?=text -z --batch-all-objects --buffer "
     "--follow-symlinks --unordered --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkCatFile},
    {"git ls-tree",
     "-d -r -t -z -l|--long --name-only --name-status --object-only --full-name --full-tree "
     "--format=text --abbrev?=num --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    // reflog: showing only (not expire, delete); see checkReflog.
    {"git reflog", TG_GIT_LOG_OPTIONS, OperandRule::Any, OptionStyle::Gnu, false, checkReflog},
    {"git merge-base", "-a|--all --octopus --independent --is-ancestor --fork-point --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    {"git name-rev",
     "--name-only --tags --refs=text --exclude=text --all --stdin --annotate-stdin --undefined "
     "--no-undefined --always --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    {"git cherry", "-v|--verbose --abbrev?=num --help", OperandRule::Any, OptionStyle::Gnu, false,
     checkInside},
    {"git count-objects", "-v|--verbose -H|--human-readable --help", OperandRule::None,
     OptionStyle::Gnu, false, checkInside},
    {"git show-ref",
     "-q|--quiet --verify --head -d|--dereference -s|--hash?=num --abbrev?=num --tags --heads "
     "--exclude-existing?=text --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    {"git for-each-ref",
     "-s|--shell -p|--perl --python --tcl --count=num --format=text "
     "--color?={always,never,auto} --sort=text --points-at=text --merged?=text "
     "--no-merged?=text --contains?=text --no-contains?=text --ignore-case --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    {"git check-ignore", "-q|--quiet -v|--verbose --stdin -z -n|--non-matching --no-index --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    {"git check-attr", "-a|--all --cached --stdin -z --help", OperandRule::Any, OptionStyle::Gnu,
     false, checkInside},
    // var: prints git's variables (-l: the configuration too).
    {"git var", "-l --help", OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    {"git version", "--build-options --help", OperandRule::None},
    // help: lists and manual pages. Without -w/--web (a browser), -i/--info
    // and -m/--man (a viewer chosen by these options).
    {"git help",
     "-a|--all --external-commands --no-external-commands --aliases --no-aliases -v|--verbose "
     "--no-verbose -g|--guides -c|--config --user-interfaces --developer-interfaces"},
    // remote: listing, `show NAME`, `get-url NAME`; see checkRemote. -v must
    // come before the subcommand, -n after show, --push/--all after get-url.
    {"git remote", "-v|--verbose -n --push --all --help", OperandRule::Any, OptionStyle::Gnu, false,
     checkRemote},
    // config: reading only (see checkConfig). Without -e/--edit (an editor),
    // --blob, --get-urlmatch, --get-color(bool) and every writing action
    // (--add, --unset, --replace-all, --rename-section, --remove-section).
    {"git config",
     "--get --get-all --get-regexp -l|--list --show-origin --show-scope --global --local "
     "--system --worktree -f|--file=read -t|--type={bool,int,bool-or-int,bool-or-str,path,"
     "expiry-date,color} --bool --int --bool-or-int --bool-or-str --path --expiry-date "
     "-z|--null --name-only --includes --no-includes --default=text --fixed-value --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkConfig},
    // branch: listing and creating. Without -d/-D/--delete, -m/-M/--move,
    // -c/-C/--copy, -f/--force (moves a branch), -u/--set-upstream-to,
    // --unset-upstream, --edit-description (an editor), --recurse-submodules.
    {"git branch",
     "-a|--all -r|--remotes -l|--list -v|--verbose -q|--quiet --show-current --contains?=text "
     "--no-contains?=text --merged?=text --no-merged?=text --points-at=text --sort=text "
     "--format=text --color?={always,never,auto} --no-color --column?=text --no-column "
     "-i|--ignore-case --abbrev?=num --no-abbrev -t|--track?={direct,inherit} --no-track "
     "--create-reflog --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    // tag: listing and creating; see checkTag. Without -d, -f, -s/-u (gpg),
    // -v/--verify (gpg), -e/--edit.
    {"git tag",
     "-l|--list -n?=num --contains?=text --no-contains?=text --merged?=text --no-merged?=text "
     "--points-at=text --sort=text --format=text --color?={always,never,auto} --column?=text "
     "--no-column -i|--ignore-case --create-reflog -a|--annotate -m|--message=text "
     "-F|--file=read --cleanup={verbatim,whitespace,strip} --no-sign --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkTag},
    // stash: list, show, push, save, pop, apply (not drop, clear, branch,
    // create, store); every word is read again by checkStash with the
    // subcommand's own table (kStash* above).
    {"git stash", TG_GIT_STASH_PUSH_OPTIONS " --index --only-untracked" TG_GIT_LOG_OPTIONS,
     OperandRule::Any, OptionStyle::Gnu, false, checkStash},

    // ---- everyday changes of one's own repository ----
    // add: without -f/--force (puts ignored files such as .env in the index),
    // -p/-i/-e (interactive, an editor), --renormalize (reruns clean filters).
    {"git add",
     "-A|--all --no-all --ignore-removal -u|--update -n|--dry-run -v|--verbose "
     "-N|--intent-to-add --refresh --ignore-errors --ignore-missing --sparse --chmod={+x,-x} "
     "--pathspec-from-file=read --pathspec-file-nul --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    // commit: see checkCommit. Without -e/--edit and -c (an editor), -p and
    // --interactive, -S/--gpg-sign (runs gpg). -F and -t read a file.
    {"git commit",
     "-a|--all -m|--message=text -F|--file=read -C|--reuse-message=text --amend --no-edit "
     "-s|--signoff --no-signoff --allow-empty --allow-empty-message -q|--quiet -v|--verbose "
     "--author=text --date=text --fixup=text --squash=text -n|--no-verify --verify "
     "--no-post-rewrite --reset-author --trailer=text "
     "--cleanup={strip,whitespace,verbatim,scissors,default} --status --no-status "
     "-t|--template=read -i|--include -o|--only -u|--untracked-files?={no,normal,all} "
     "--dry-run --short --branch --porcelain --long -z|--null --ahead-behind --no-ahead-behind "
     "--pathspec-from-file=read --pathspec-file-nul --no-gpg-sign --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkCommit},
    // fetch: see checkFetch. Without --upload-pack (runs a program), --stdin
    // (refspecs nobody read), -f/--force and -u (overwrite local branches),
    // -P/--prune-tags (deletes local tags), --refmap, --negotiation-tip,
    // -o/--server-option, --set-upstream, --recurse-submodules.
    {"git fetch",
     "-v|--verbose -q|--quiet --all -a|--append --atomic -m|--multiple -t|--tags "
     "-n|--no-tags -j|--jobs=num --prefetch -p|--prune --no-prune --no-recurse-submodules "
     "--dry-run --write-fetch-head --no-write-fetch-head -k|--keep --progress --no-progress "
     "--depth=num --shallow-since=text --shallow-exclude=text --deepen=num --unshallow "
     "-4|--ipv4 -6|--ipv6 --no-auto-maintenance --no-auto-gc --show-forced-updates "
     "--no-show-forced-updates --write-commit-graph --no-write-commit-graph --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkFetch},
    // merge: without -s/--strategy, -S/--gpg-sign, --verify-signatures (gpg),
    // -e/--edit and --continue (runs `git commit`, which opens an editor).
    {"git merge",
     "--no-ff --ff --ff-only --squash --no-squash --commit --no-commit --abort --quit "
     "-m|--message=text -F|--file=read --no-edit --stat -n --no-stat --summary --log?=num "
     "--no-log -v|--verbose -q|--quiet --progress --no-progress --allow-unrelated-histories "
     "--signoff --no-signoff --no-verify --autostash --no-autostash --rerere-autoupdate "
     "--no-rerere-autoupdate -X|--strategy-option=text "
     "--cleanup={strip,whitespace,verbatim,scissors,default} --into-name=text --no-gpg-sign "
     "--overwrite-ignore --no-overwrite-ignore --no-verify-signatures --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    // mv: both paths in the workspace (checkMv); without -f/--force
    // (overwrites the destination).
    {"git mv", "-v|--verbose -n|--dry-run -k --sparse --help", OperandRule::Any, OptionStyle::Gnu,
     false, checkMv},
    // init: the directory is judged by the path rules as a write. Without
    // --template (copies hooks that then run), --separate-git-dir, --bare,
    // --shared.
    {"git init", "-q|--quiet -b|--initial-branch=text --object-format={sha1,sha256} --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    // cherry-pick, revert: without -e/--edit, --strategy, -S/--gpg-sign.
    {"git cherry-pick",
     "--continue --abort --quit --skip -n|--no-commit -x -s|--signoff --no-signoff "
     "-m|--mainline=num --ff --allow-empty --allow-empty-message --keep-redundant-commits "
     "--cleanup={strip,whitespace,verbatim,scissors,default} --rerere-autoupdate "
     "--no-rerere-autoupdate -X|--strategy-option=text --no-gpg-sign --no-edit --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    {"git revert",
     "--continue --abort --quit --skip -n|--no-commit -s|--signoff --no-signoff "
     "-m|--mainline=num --cleanup={strip,whitespace,verbatim,scissors,default} "
     "--rerere-autoupdate --no-rerere-autoupdate -X|--strategy-option=text --no-gpg-sign "
     "--no-edit --reference --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    // checkout: creating a branch only; see checkCheckout. Without -B (resets
    // a branch), -f, -m, -p, --recurse-submodules.
    {"git checkout",
     "-b=text --orphan=text -q|--quiet -t|--track?={direct,inherit} --no-track -l --guess "
     "--no-guess --progress --no-progress --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkCheckout},
    // switch: without -f/--force and --discard-changes (throw away changes),
    // -C/--force-create (resets a branch), --orphan (empties the work tree),
    // -m/--merge, --recurse-submodules.
    {"git switch",
     "-c|--create=text -d|--detach --guess --no-guess -q|--quiet -t|--track?={direct,inherit} "
     "--no-track --progress --no-progress --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkInside},
    // restore: the index only; see checkRestore. Without -W/--worktree, -p.
    {"git restore",
     "-S|--staged -s|--source=text -q|--quiet --progress --no-progress --ignore-unmerged "
     "--pathspec-from-file=read --pathspec-file-nul --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkRestore},
    // clean: a dry run only (no -f, -i).
    {"git clean", "-n|--dry-run -d -x -X -e|--exclude=text -q|--quiet --help", OperandRule::Any,
     OptionStyle::Gnu, false, checkClean},
    // rm: from the index only (--cached) or a dry run; without -f.
    {"git rm",
     "--cached -r -n|--dry-run -q|--quiet --ignore-unmatch --sparse --pathspec-from-file=read "
     "--pathspec-file-nul --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkRm},
};

#undef TG_GIT_DIFF_OPTIONS
#undef TG_GIT_LOG_OPTIONS
#undef TG_GIT_STASH_PUSH_OPTIONS

}  // namespace

std::span<const ProgramSpec> gitSpecs() {
  return kGitSpecs;
}

}  // namespace toolguard::detail
