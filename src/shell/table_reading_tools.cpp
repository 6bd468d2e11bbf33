// Tables of harmless options: tools that read and print (coreutils, search
// tools, viewers, system information). Each program's options were read from
// `PROG --help` and the man pages of Debian 12 (coreutils 9.1, grep 3.8,
// diffutils 3.8, util-linux 2.38, procps-ng 4.0.2, file 5.44, binutils 2.40,
// jq 1.6, xxd 2022-01-14, less 590, man-db 2.11, bc 1.07); for the tools not
// installed there from their documentation and completion scripts: ripgrep
// 14 (crates/core/flags), ag 2.2, ack 3, fd 9/10, exa 0.10, eza 0.18, bat
// 0.24, delta 0.17, tree 2.1.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "program_specs.hpp"
#include "shell_facts.hpp"

namespace toolguard::detail {
namespace {

bool jqIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// True when a jq program reads the environment (`env`, `$ENV`: credentials
// live there) or loads modules (`import`, `include`). String literals are
// skipped unless they hold an interpolation `\(...)`.
bool jqProgramIsSafe(std::string_view program) {
  for (size_t i = 0; i < program.size();) {
    const char c = program[i];
    if (c == '"') {
      size_t end = i + 1;
      bool interpolates = false;
      while (end < program.size() && program[end] != '"') {
        if (program[end] == '\\' && end + 1 < program.size()) {
          if (program[end + 1] == '(') interpolates = true;
          ++end;
        }
        ++end;
      }
      // A string with an interpolation is read as code, quotes and all.
      i = interpolates ? i + 1 : end + 1;
      continue;
    }
    if (!jqIdentifierChar(c)) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < program.size() && jqIdentifierChar(program[end])) ++end;
    const std::string_view word = program.substr(i, end - i);
    const char before = i > 0 ? program[i - 1] : ' ';
    if (before == '$' && word == "ENV") return false;
    const bool builtin = before != '$' && before != '.';
    if (builtin && (word == "env" || word == "import" || word == "include")) return false;
    i = end;
  }
  return true;
}

// jq: the program (the first word that is neither an option nor the second
// word of --arg NAME VALUE and its kin) is written out and reads neither the
// environment nor modules.
bool checkJq(const TableParse&, const CommandScene& scene) {
  const auto args = scene.command.arguments();
  for (size_t i = 0; i < args.size(); ++i) {
    const ShellWord& w = args[i];
    const std::string& t = w.text;
    if (!w.dynamic && t == "--") {
      if (i + 1 >= args.size()) return true;
      return !args[i + 1].dynamic && jqProgramIsSafe(args[i + 1].text);
    }
    if (w.dynamic) return false;  // may be the program, or an option taking it
    const std::string_view name = std::string_view(t).substr(0, t.find('='));
    const bool glued = name.size() < t.size();
    const bool two_words =
        name == "--arg" || name == "--argjson" || name == "--slurpfile" || name == "--rawfile";
    if (two_words) {
      i += glued ? 1 : 2;  // NAME VALUE, or VALUE after `--arg=NAME`
      continue;
    }
    if (name == "--indent") {
      i += glued ? 0 : 1;
      continue;
    }
    if (t.size() >= 2 && t[0] == '-') continue;
    return jqProgramIsSafe(t);
  }
  return true;  // no program: `jq --version`, `jq` (the identity)
}

// date: only a `+FORMAT` operand; any other operand sets the clock.
bool checkDate(const TableParse& parse, const CommandScene&) {
  return parse.operands.size() <= 1 &&
         std::all_of(parse.operands.begin(), parse.operands.end(),
                     [](const ShellWord& w) { return w.text.starts_with('+'); });
}

// `[ EXPR ]`, `[[ EXPR ]]`: the last word closes the expression. (Read as
// bash's test command, `[ -d x ]` comes with no words: the shell parser keeps
// the expression.)
bool checkBracket(const TableParse& parse, const CommandScene&) {
  if (parse.operands.empty()) return true;
  const ShellWord& last = parse.operands.back();
  return !last.dynamic && (last.text == "]" || last.text == "]]");
}

// uniq IN OUT and xxd IN OUT write OUT: one operand at most.
bool atMostOneOperand(const TableParse& parse, const CommandScene&) {
  return parse.operands.size() <= 1;
}

// less: an operand `+CMD` runs CMD as keys typed at start (`+!cmd` runs a
// shell command, `+v` an editor): only `+NUMBER`, `+G`, `+F` and the like.
// A -p pattern is typed after `/`: a line break in it would end the search
// and type more commands.
bool checkLess(const TableParse& parse, const CommandScene&) {
  const bool plain_starts =
      std::all_of(parse.operands.begin(), parse.operands.end(), [](const ShellWord& w) {
        const std::string& t = w.text;
        if (!t.starts_with('+')) return true;
        if (w.dynamic) return false;
        size_t i = 1;
        while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
        return i == t.size() ||
               (i + 1 == t.size() && std::string_view("gGF").find(t[i]) != std::string_view::npos);
      });
  std::vector<ShellWord> patterns = parse.valuesOf("-p");
  for (const ShellWord& w : parse.valuesOf("--pattern")) patterns.push_back(w);
  return plain_starts && std::none_of(patterns.begin(), patterns.end(), [](const ShellWord& w) {
           return w.dynamic || w.text.find_first_of("\n\r") != std::string::npos;
         });
}

// tput: `init` and `reset` run the terminal's iprog and print its init file.
bool checkTput(const TableParse& parse, const CommandScene&) {
  return std::none_of(parse.operands.begin(), parse.operands.end(), [](const ShellWord& w) {
    return w.dynamic || w.text == "init" || w.text == "reset";
  });
}

// bat: `bat cache --build|--clear` writes or deletes bat's cache.
bool checkBat(const TableParse& parse, const CommandScene&) {
  return parse.operands.empty() ||
         (!parse.operands.front().dynamic && parse.operands.front().text != "cache");
}

// ps: operands are BSD options (`aux`, `axjf`, `p 123`, `o pid,cmd`) or
// process ids. Not `e`: it prints each process's environment (credentials).
bool checkPs(const TableParse& parse, const CommandScene&) {
  constexpr std::string_view kFlags = "aCcfghHjlLmMnrsSTuvVwxXZ";
  constexpr std::string_view kWithValue = "OUkopqt";  // the rest of the word or the next word
  bool value_next = false;
  for (const ShellWord& w : parse.operands) {
    if (w.dynamic) return false;
    if (value_next) {
      value_next = false;
      continue;
    }
    const std::string& t = w.text;
    if (std::all_of(t.begin(), t.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c)) || c == ',';
        })) {
      continue;  // process ids
    }
    for (size_t i = 0; i < t.size(); ++i) {
      if (kFlags.find(t[i]) != std::string_view::npos) continue;
      if (kWithValue.find(t[i]) == std::string_view::npos) return false;
      value_next = i + 1 == t.size();
      break;
    }
  }
  return true;
}

// The choices of GNU's --color=WHEN (ls, coreutils).
#define TG_WHEN "{always,yes,force,never,no,none,auto,tty,if-tty}"

// printf FORMAT ARGS: the format is written out (a run-time first word may
// be `-v NAME`, which assigns a shell variable); the arguments are data.
bool checkPrintf(const TableParse&, const CommandScene& scene) {
  const auto args = scene.command.arguments();
  return args.empty() || !args[0].dynamic;
}

const ProgramSpec kReadingToolSpecs[] = {
    // ---- listing and reading files ----
    // ls: -h is --human-readable.
    {"ls",
     "-a|--all -A|--almost-all --author -b|--escape --block-size=word -B|--ignore-backups -c -C "
     "--color?=" TG_WHEN " -d|--directory -D|--dired -f -F --classify?=" TG_WHEN " --file-type "
     "--format={across,commas,horizontal,long,single-column,verbose,vertical} --full-time -g "
     "--group-directories-first -G|--no-group -h|--human-readable --si "
     "-H|--dereference-command-line --dereference-command-line-symlink-to-dir --hide=text "
     "--hyperlink?=" TG_WHEN " --indicator-style={none,slash,file-type,classify} -i|--inode "
     "-I|--ignore=text -k|--kibibytes -l -L|--dereference -m -n|--numeric-uid-gid -N|--literal "
     "-o -p -q|--hide-control-chars --show-control-chars -Q|--quote-name "
     "--quoting-style={literal,locale,shell,shell-always,shell-escape,shell-escape-always,c,"
     "escape} -r|--reverse -R|--recursive -s|--size -S "
     "--sort={none,size,time,version,extension,width} "
     "--time={atime,access,use,ctime,status,mtime,modification,birth,creation} "
     "--time-style=text -t -T|--tabsize=num -u -U -v -w|--width=num -x -X -Z|--context --zero "
     "-1 --help --version"},
    {"cat",
     "-A|--show-all -b|--number-nonblank -e -E|--show-ends -n|--number -s|--squeeze-blank -t "
     "-T|--show-tabs -u -v|--show-nonprinting --help --version"},
    {"head",
     "-c|--bytes=num -n|--lines=num -q|--quiet|--silent -v|--verbose -z|--zero-terminated -# "
     "--help --version"},
    // tail: -f follows (waits for more), which only reads.
    {"tail",
     "-c|--bytes=num -f -F --follow?={name,descriptor} --max-unchanged-stats=num --pid=num "
     "-n|--lines=num -q|--quiet|--silent --retry -s|--sleep-interval=num -v|--verbose "
     "-z|--zero-terminated -# --help --version"},
    {"tac", "-b|--before -r|--regex -s|--separator=text --help --version"},
    {"nl",
     "-b|--body-numbering=text -d|--section-delimiter=text -f|--footer-numbering=text "
     "-h|--header-numbering=text -i|--line-increment=num -l|--join-blank-lines=num "
     "-n|--number-format={ln,rn,rz} -p|--no-renumber -s|--number-separator=text "
     "-v|--starting-line-number=num -w|--number-width=num --help --version"},
    {"wc",
     "-c|--bytes -m|--chars -l|--lines -L|--max-line-length -w|--words --files0-from=read "
     "--total={auto,always,only,never} --help --version"},
    // less: not -k/--lesskey-* (key files can set LESSOPEN and commands), -t/-T
    // (tags), -P/-D; `+CMD` operands other than `+NUM`, `+G`, `+F` ask
    // (checkLess). `-?` cannot be spelled in a table: --help only. It also
    // reads LESSOPEN, LESS and LESSKEYIN from the environment (closed elsewhere).
    {"less",
     "--help -V|--version -a|--search-skip-screen -A|--SEARCH-SKIP-SCREEN -b|--buffers=num "
     "-B|--auto-buffers -c|--clear-screen -d|--dumb -e|--quit-at-eof -E|--QUIT-AT-EOF -f|--force "
     "-F|--quit-if-one-screen -g|--hilite-search -G|--HILITE-SEARCH -h|--max-back-scroll=num "
     "-i|--ignore-case -I|--IGNORE-CASE -j|--jump-target=num -J|--status-column "
     "-K|--quit-on-intr -L|--no-lessopen -m|--long-prompt -M|--LONG-PROMPT -n|--line-numbers "
     "-N|--LINE-NUMBERS -p|--pattern=text -q|--quiet|--silent -Q|--QUIET|--SILENT "
     "-r|--raw-control-chars -R|--RAW-CONTROL-CHARS -s|--squeeze-blank-lines "
     "-S|--chop-long-lines -u|--underline-special -U|--UNDERLINE-SPECIAL -w|--hilite-unread "
     "-W|--HILITE-UNREAD -x|--tabs=text -X|--no-init -y|--max-forw-scroll=num -z|--window=num "
     "-~|--tilde --mouse --no-keypad --no-histdups --use-color --incsearch --file-size "
     "--follow-name --line-num-width=num --status-col-width=num --wheel-lines=num "
     "-o|--log-file=write -O|--LOG-FILE=write",
     OperandRule::Any, OptionStyle::Gnu, false, checkLess},
    // more: `+NUM` and `+/PATTERN` operands only move and search.
    {"more",
     "-d|--silent -f|--logical -l|--no-pause -c|--print-over -p|--clean-print "
     "-e|--exit-on-eof -s|--squeeze -u|--plain -n|--lines=num -# -h|--help -V|--version"},
    // bat: not --pager, --paging=always, --lessopen (runs LESSOPEN),
    // --generate-config-file; not the `cache` subcommand (checkBat).
    {"bat|batcat",
     "-A|--show-all --nonprintable-notation={unicode,caret} --binary={no-printing,as-text} "
     "-p|--plain -P -l|--language=word -H|--highlight-line=word -r|--line-range=word "
     "--file-name=text -d|--diff --diff-context=num --tabs=num --wrap={auto,never,character} "
     "-S|--chop-long-lines --terminal-width=word -n|--number --color={auto,never,always} "
     "--italic-text={always,never} --decorations={auto,never,always} -f|--force-colorization "
     "--paging={auto,never} -m|--map-syntax=text --ignored-suffix=word --theme=text "
     "--theme-dark=text --theme-light=text --list-themes -L|--list-languages --style=text "
     "-s|--squeeze-blank --squeeze-limit=num --strip-ansi={auto,always,never} -u|--unbuffered "
     "--no-config --no-custom-assets --no-lessopen --config-dir --config-file --cache-dir "
     "--diagnostic --acknowledgements -h|--help -V|--version",
     OperandRule::Any, OptionStyle::Gnu, false, checkBat},
    // tree: not -R (writes 00Tree.html into every directory with -H/-o).
    {"tree",
     "-a -d -l -f -x -L=num -P=text -I=text --gitignore --gitfile=read --ignore-case "
     "--matchdirs --metafirst --prune --info --infofile=read --noreport --charset=word "
     "--filelimit=num -o=write -i -A -S -n -C -q -N -Q -p -u -g -s -h --si --du -D "
     "--timefmt=text -F --inodes --device -v -t -c -U -r --dirsfirst --filesfirst "
     "--sort={name,version,size,mtime,ctime,none} -X -J -H=text -T=text --nolinks "
     "--hintro=read --houtro=read --fromfile --fromtabfile --fflinks --help --version"},
    // exa: -h is --header.
    {"exa",
     "-1|--oneline -l|--long -G|--grid -x|--across -R|--recurse -T|--tree -F|--classify "
     "--color?={always,auto,never} --colour?={always,auto,never} --color-scale --colour-scale "
     "--icons --no-icons --group-directories-first --git-ignore -a|--all -d|--list-dirs "
     "-D|--only-dirs -L|--level=num -r|--reverse -s|--sort=word -I|--ignore-glob=text "
     "-b|--binary -B|--bytes --changed -g|--group -h|--header -H|--links -i|--inode "
     "-m|--modified -n|--numeric -S|--blocks -t|--time={accessed,changed,created,modified} "
     "--time-style={default,iso,long-iso,full-iso} --no-permissions --octal-permissions "
     "--no-filesize --no-user --no-time -u|--accessed -U|--created -X|--dereference --git "
     "-@|--extended -v|--version --help"},
    // eza: not --write-theme (writes a file), --stdin.
    {"eza",
     "-1|--oneline -l|--long -G|--grid -x|--across -R|--recurse -T|--tree -X|--dereference "
     "-F|--classify?={always,auto,never} --color?={always,auto,never} "
     "--colour?={always,auto,never} --color-scale?=text --colour-scale?=text "
     "--color-scale-mode={fixed,gradient} --colour-scale-mode={fixed,gradient} "
     "--icons?={always,auto,never} --no-quotes --hyperlink --absolute?={on,follow,off} "
     "--group-directories-first --git-ignore -a|--all -A|--almost-all -d|--list-dirs "
     "-L|--level=num -w|--width=num -r|--reverse -s|--sort=word -D|--only-dirs "
     "-f|--only-files --show-symlinks --no-symlinks -I|--ignore-glob=text -b|--binary "
     "-B|--bytes -g|--group -h|--header -H|--links -i|--inode -S|--blocksize "
     "-t|--time={modified,changed,accessed,created} -m|--modified -n|--numeric --changed "
     "-u|--accessed -U|--created --time-style=text --total-size --no-permissions "
     "-o|--octal-permissions --no-filesize --no-user --no-time -M|--mounts --git --no-git "
     "--git-repos --git-repos-no-status -@|--extended -Z|--context --smart-group --help "
     "-v|--version"},
    // ---- searching ----
    // grep: -h is --no-filename.
    {"grep|egrep|fgrep",
     "-E|--extended-regexp -F|--fixed-strings -G|--basic-regexp -P|--perl-regexp "
     "-e|--regexp=text -f|--file=read -i|-y|--ignore-case --no-ignore-case -w|--word-regexp "
     "-x|--line-regexp -z|--null-data -s|--no-messages -v|--invert-match -V|--version --help "
     "-m|--max-count=num -b|--byte-offset -n|--line-number --line-buffered -H|--with-filename "
     "-h|--no-filename --label=text -o|--only-matching -q|--quiet|--silent "
     "--binary-files={binary,text,without-match} -a|--text -I -d|--directories={read,recurse,skip} "
     "-D|--devices={read,skip} -r|--recursive -R|--dereference-recursive --include=text "
     "--exclude=text --exclude-from=read --exclude-dir=text -L|--files-without-match "
     "-l|--files-with-matches -c|--count -T|--initial-tab -Z|--null -B|--before-context=num "
     "-A|--after-context=num -C|--context=num -# --group-separator=text --no-group-separator "
     "--color?={always,never,auto} --colour?={always,never,auto} -U|--binary"},
    // rg: not --pre, --pre-glob, -z/--search-zip (run other programs on the
    // files), --hostname-bin (runs a program). ripgrep reads more options
    // from RIPGREP_CONFIG_PATH (the environment is closed elsewhere).
    {"rg",
     "-A|--after-context=num -B|--before-context=num -C|--context=num --context-separator=text "
     "--no-context-separator -b|--byte-offset --no-byte-offset --binary --no-binary "
     "--block-buffered --no-block-buffered --line-buffered --no-line-buffered -c|--count "
     "--count-matches --include-zero --no-include-zero --color={never,auto,always,ansi} "
     "--colors=text --column --no-column --crlf --no-crlf --debug --trace --dfa-size-limit=num "
     "-E|--encoding=word --no-encoding --engine={default,pcre2,auto} -f|--file=read "
     "--field-context-separator=text --field-match-separator=text --files "
     "-l|--files-with-matches --files-without-match -F|--fixed-strings --no-fixed-strings "
     "-L|--follow --no-follow "
     "--generate={man,complete-bash,complete-zsh,complete-fish,complete-powershell} "
     "-g|--glob=text --iglob=text --glob-case-insensitive --no-glob-case-insensitive --heading "
     "--no-heading -.|--hidden --no-hidden --hyperlink-format=text -i|--ignore-case "
     "-s|--case-sensitive -S|--smart-case --ignore-file=read --ignore-file-case-insensitive "
     "--no-ignore-file-case-insensitive --no-ignore --ignore --no-ignore-dot --ignore-dot "
     "--no-ignore-exclude --ignore-exclude --no-ignore-files --ignore-files --no-ignore-global "
     "--ignore-global --no-ignore-messages --ignore-messages --no-ignore-parent --ignore-parent "
     "--no-ignore-vcs --ignore-vcs --no-require-git --require-git -v|--invert-match "
     "--no-invert-match --json --no-json -n|--line-number -N|--no-line-number -x|--line-regexp "
     "-M|--max-columns=num --max-columns-preview --no-max-columns-preview -m|--max-count=num "
     "-d|--max-depth|--maxdepth=num --max-filesize=num --mmap --no-mmap -U|--multiline "
     "--no-multiline --multiline-dotall --no-multiline-dotall --no-config --no-messages "
     "--messages --no-unicode --unicode --no-pcre2-unicode --pcre2-unicode -0|--null --null-data "
     "--one-file-system --no-one-file-system -o|--only-matching --passthru|--passthrough "
     "--path-separator=text -P|--pcre2 --no-pcre2 --pcre2-version --auto-hybrid-regex "
     "--no-auto-hybrid-regex --no-pre --no-search-zip -p|--pretty -q|--quiet "
     "--regex-size-limit=num -e|--regexp=text -r|--replace=text "
     "--sort={none,path,modified,accessed,created} --sortr={none,path,modified,accessed,created} "
     "--sort-files --no-sort-files --stats --no-stats --stop-on-nonmatch -a|--text --no-text "
     "-j|--threads=num --trim --no-trim -t|--type=word --type-add=text --type-clear=word "
     "--type-list -T|--type-not=word -u|--unrestricted --vimgrep -H|--with-filename "
     "-I|--no-filename -w|--word-regexp -h|--help -V|--version"},
    // ag: not --pager, -z/--search-zip.
    {"ag",
     "--ackmate --ackmate-dir-filter=text -a|--all-types -A=num --after?=num -B=num "
     "--before?=num -C=num --context?=num --break --nobreak -c|--count --color --nocolor "
     "--color-line-number=text --color-match=text --color-path=text --column -D|--debug "
     "--depth=num --filename --nofilename -f|--follow --nofollow -F|--fixed-strings -g=text "
     "-G|--file-search-regex=text -H|--heading --noheading --hidden --ignore=text "
     "--ignore-dir=text -i|--ignore-case -l|--files-with-matches -L|--files-without-matches "
     "--list-file-types -m|--max-count=num --mmap --nommap --multiline --nomultiline "
     "-n|--norecurse --numbers --nonumbers -o|--only-matching --one-device "
     "-p|--path-to-ignore=read --print-long-lines --passthrough|--passthru -Q|--literal "
     "-r|-R|--recurse -s|--case-sensitive -S|--smart-case --search-binary --silent --stats "
     "--stats-only -t|--all-text -u|--unrestricted -U|--skip-vcs-ignores -v|--invert-match "
     "--vimgrep -w|--word-regexp -W|--width=num --workers=num -0|--null|--print0 --affinity "
     "--noaffinity --nopager -V|--version -h|--help --cc --cpp --csharp --css --go --haskell "
     "--html --java --js --json --kotlin --lua --make --cmake --markdown --md --perl --php "
     "--python --ruby --rust --scala --shell --sql --swift --ts --xml --yaml"},
    // ack: not --pager, --output (an expression), --ackrc (options from a
    // file), --man (runs perldoc). ack also reads ~/.ackrc, a project .ackrc
    // (which since ack 2.12 cannot set --pager or --output) and ACK_OPTIONS.
    {"ack",
     "-i|--ignore-case -I|--no-ignore-case -S|--smart-case --no-smart-case -w|--word-regexp "
     "-Q|--literal -v|--invert-match -s -l|--files-with-matches -L|--files-without-matches "
     "-c|--count -h|--no-filename -H|--with-filename -o --passthru --match=text "
     "-m|--max-count=num -1 --column --nocolumn -A|--after-context=num "
     "-B|--before-context=num -C|--context?=num --print0 -f -g=text --sort-files --show-types "
     "--files-from=read -x --ignore-dir|--ignore-directory=text "
     "--noignore-dir|--noignore-directory=text --ignore-file=text -r|-R|--recurse "
     "-n|--no-recurse --follow --nofollow -k|--known-types -t|--type=word -T=word "
     "--type-set=text --type-add=text --type-del=word --color|--colour --nocolor|--nocolour "
     "--color-filename=text --color-match=text --color-lineno=text --color-colno=text --group "
     "--nogroup --heading --noheading --break --nobreak --flush --nopager --noenv "
     "--ignore-ack-defaults --filter --nofilter --range-start=text --range-end=text "
     "-p|--proximate?=num -P --dump --help --help-types --version"},
    // fd: not -x/--exec, -X/--exec-batch, --batch-size (run commands), -l
    // (runs ls).
    {"fd|fdfind",
     "-H|--hidden -I|--no-ignore --no-ignore-vcs --no-ignore-parent --no-global-ignore-file "
     "-u|--unrestricted -s|--case-sensitive -i|--ignore-case -g|--glob --regex "
     "-F|--fixed-strings --and=text -a|--absolute-path -L|--follow -p|--full-path -0|--print0 "
     "-d|--max-depth|--maxdepth=num --min-depth=num --exact-depth=num --prune "
     "-t|--type=word -e|--extension=word -E|--exclude=text -S|--size=word "
     "--changed-within|--changed-after|--change-newer-than|--newer=text "
     "--changed-before|--change-older-than|--older=text -o|--owner=text --format=text "
     "--ignore-file=read -c|--color={auto,never,always} -j|--threads=num --max-results=num -1 "
     "-q|--quiet --show-errors --base-directory=tree --search-path=tree --path-separator=text "
     "--strip-cwd-prefix?={always,never,auto} --one-file-system|--mount|--xdev "
     "--no-require-git --hyperlink?={auto,always,never} --max-buffer-time=num -h|--help "
     "-V|--version"},
    {"look",
     "-a|--alternative -d|--alphanum -f|--ignore-case -t|--terminate=text -h|--help "
     "-V|--version"},
    // ---- comparing ----
    // diff: not -l/--paginate (runs pr).
    {"diff",
     "--normal -q|--brief -s|--report-identical-files -c -C=num --context?=num -u -U=num "
     "--unified?=num -e|--ed -n|--rcs -y|--side-by-side -W|--width=num --left-column "
     "--suppress-common-lines -p|--show-c-function -F|--show-function-line=text --label=text "
     "-t|--expand-tabs -T|--initial-tab --tabsize=num --suppress-blank-empty -r|--recursive "
     "--no-dereference -N|--new-file --unidirectional-new-file --ignore-file-name-case "
     "--no-ignore-file-name-case -x|--exclude=text -X|--exclude-from=read "
     "-S|--starting-file=text --from-file=read --to-file=read -i|--ignore-case "
     "-E|--ignore-tab-expansion -Z|--ignore-trailing-space -b|--ignore-space-change "
     "-w|--ignore-all-space -B|--ignore-blank-lines -I|--ignore-matching-lines=text -a|--text "
     "--strip-trailing-cr -D|--ifdef=word --old-group-format=text --new-group-format=text "
     "--unchanged-group-format=text --changed-group-format=text --line-format=text "
     "--old-line-format=text --new-line-format=text --unchanged-line-format=text -d|--minimal "
     "--horizon-lines=num --speed-large-files --color?={never,always,auto} --palette=text "
     "--help -v|--version"},
    // diff3: not --diff-program.
    {"diff3",
     "-A|--show-all -e|--ed -E|--show-overlap -3|--easy-only -x|--overlap-only -X -i "
     "-m|--merge -a|--text --strip-trailing-cr -T|--initial-tab -L|--label=text --help "
     "-v|--version"},
    // sdiff: not -o/--output (interactive merge whose `e` command starts an
    // editor reading commands from the input), --diff-program.
    {"sdiff",
     "-i|--ignore-case -E|--ignore-tab-expansion -Z|--ignore-trailing-space "
     "-b|--ignore-space-change -W|--ignore-all-space -B|--ignore-blank-lines "
     "-I|--ignore-matching-lines=text --strip-trailing-cr -a|--text -w|--width=num "
     "-l|--left-column -s|--suppress-common-lines -t|--expand-tabs --tabsize=num -d|--minimal "
     "-H|--speed-large-files --help -v|--version"},
    {"cmp",
     "-b|--print-bytes -i|--ignore-initial=num -l|--verbose -n|--bytes=num "
     "-s|--quiet|--silent --help -v|--version"},
    {"comm",
     "-1 -2 -3 --check-order --nocheck-order --output-delimiter=text --total "
     "-z|--zero-terminated --help --version"},
    // delta: reads a diff on its input; not --pager, --paging=always,
    // --config (a git config file). Two file operands make it run git diff:
    // no operands. It reads [delta] of the git config (closed elsewhere).
    {"delta",
     "-s|--side-by-side -n|--line-numbers --color-only --raw --no-gitconfig --dark --light "
     "-w|--width=word --syntax-theme=text --features=text --diff-highlight --diff-so-fancy "
     "--keep-plus-minus-markers --max-line-length=num --tabs=num --wrap-max-lines=word "
     "--line-fill-method={ansi,spaces} --true-color={auto,always,never} --paging={auto,never} "
     "--default-language=word --word-diff-regex=text --file-style=text "
     "--hunk-header-style=text --minus-style=text --plus-style=text --zero-style=text "
     "--relative-paths --hyperlinks --list-syntax-themes --show-syntax-themes --show-themes "
     "--show-config --show-colors --list-languages -h|--help -V|--version",
     OperandRule::None},
    // ---- text filters ----
    // sort: not --compress-program (runs a program); -T is where it writes.
    {"sort",
     "-b|--ignore-leading-blanks -d|--dictionary-order -f|--ignore-case "
     "-g|--general-numeric-sort -i|--ignore-nonprinting -M|--month-sort "
     "-h|--human-numeric-sort -n|--numeric-sort -R|--random-sort --random-source=read "
     "-r|--reverse --sort={general-numeric,human-numeric,month,numeric,random,version} "
     "-V|--version-sort --batch-size=num -c -C --check?={diagnose-first,quiet,silent} --debug "
     "--files0-from=read -k|--key=text -m|--merge -o|--output=write -s|--stable "
     "-S|--buffer-size=text -t|--field-separator=text -T|--temporary-directory=write "
     "--parallel=num -u|--unique -z|--zero-terminated --help --version"},
    // uniq: a second operand is a file it writes (atMostOneOperand).
    {"uniq",
     "-c|--count -d|--repeated -D --all-repeated?={none,prepend,separate} "
     "-f|--skip-fields=num -s|--skip-chars=num --group?={separate,prepend,append,both} "
     "-i|--ignore-case -u|--unique -z|--zero-terminated -w|--check-chars=num --help --version",
     OperandRule::Any, OptionStyle::Gnu, false, atMostOneOperand},
    {"cut",
     "-b|--bytes=text -c|--characters=text -d|--delimiter=text -f|--fields=text -n "
     "--complement -s|--only-delimited --output-delimiter=text -z|--zero-terminated --help "
     "--version"},
    {"tr",
     "-c|-C|--complement -d|--delete -s|--squeeze-repeats -t|--truncate-set1 --help --version"},
    {"paste", "-d|--delimiters=text -s|--serial -z|--zero-terminated --help --version"},
    {"join",
     "-a=num -e=text -i|--ignore-case -j=num -o=text -t=text -v=num -1=num -2=num "
     "--check-order --nocheck-order --header -z|--zero-terminated --help --version"},
    {"column",
     "-t|--table -n|--table-name=text -O|--table-order=text -N|--table-columns=text "
     "-l|--table-columns-limit=num -E|--table-noextreme=text -d|--table-noheadings "
     "-e|--table-header-repeat -H|--table-hide=text -R|--table-right=text "
     "-T|--table-truncate=text -W|--table-wrap=text -L|--keep-empty-lines|--table-empty-lines "
     "-J|--json -r|--tree=text -i|--tree-id=text -p|--tree-parent=text "
     "-c|--output-width=num -o|--output-separator=text -s|--separator=text -x|--fillrows "
     "-h|--help -V|--version"},
    {"fold", "-b|--bytes -s|--spaces -w|--width=num -# --help --version"},
    {"fmt",
     "-c|--crown-margin -p|--prefix=text -s|--split-only -t|--tagged-paragraph "
     "-u|--uniform-spacing -w|--width=num -g|--goal=num -# --help --version"},
    {"expand", "-i|--initial -t|--tabs=text -# --help --version"},
    {"unexpand", "-a|--all --first-only -t|--tabs=text -# --help --version"},
    {"rev", "-0|--zero -h|--help -V|--version"},
    // shuf: -o is where it writes.
    {"shuf",
     "-e|--echo -i|--input-range=word -n|--head-count=num -o|--output=write "
     "--random-source=read -r|--repeat -z|--zero-terminated --help --version"},
    {"tsort", "--help --version"},
    {"numfmt",
     "--debug -d|--delimiter=text --field=text --format=text --from={none,auto,si,iec,iec-i} "
     "--from-unit=num --grouping --header?=num --invalid={abort,fail,warn,ignore} "
     "--padding=num --round={up,down,from-zero,towards-zero,nearest} --suffix=text "
     "--to={none,si,iec,iec-i} --to-unit=num -z|--zero-terminated --help --version"},
    // pr: `-#` is -COLUMN; operands `+PAGE` are pages.
    {"pr",
     "--pages=word -# --columns=num -a|--across -c|--show-control-chars -d|--double-space "
     "-D|--date-format=text -e|--expand-tabs?=text -F|-f|--form-feed -h|--header=text "
     "-i|--output-tabs?=text -J|--join-lines -l|--length=num -m|--merge "
     "-n|--number-lines?=text -N|--first-line-number=num -o|--indent=num "
     "-r|--no-file-warnings -s|--separator?=text -S|--sep-string?=text -t|--omit-header "
     "-T|--omit-pagination -v|--show-nonprinting -w|--width=num -W|--page-width=num --help "
     "--version"},
    // jq: not -L/--library-path (modules), -f/--from-file (a program from a
    // file, which checkJq cannot read). --arg NAME VALUE and its kin take two
    // words: the table reads NAME, and VALUE (for --slurpfile/--rawfile the
    // file) is an operand the path rules judge. checkJq: the program reads
    // no environment (`env`, `$ENV`) and imports nothing.
    {"jq",
     "-c|--compact-output -n|--null-input -e|--exit-status -s|--slurp -r|--raw-output "
     "--raw-output0 -j|--join-output -a|--ascii-output -R|--raw-input -C|--color-output "
     "-M|--monochrome-output -S|--sort-keys --tab --indent=num --unbuffered --stream "
     "--stream-errors --seq --arg=word --argjson=word --slurpfile=word --rawfile=word --args "
     "--jsonargs -h|--help -V|--version --build-configuration",
     OperandRule::Any, OptionStyle::Gnu, false, checkJq},
    // ---- bytes, checksums, encodings ----
    {"sha1sum|sha224sum|sha256sum|sha384sum|sha512sum|md5sum",
     "-b|--binary -c|--check --tag -t|--text -z|--zero --ignore-missing --quiet --status "
     "--strict -w|--warn --help --version"},
    {"b2sum",
     "-b|--binary -c|--check -l|--length=num --tag -t|--text -z|--zero --ignore-missing "
     "--quiet --status --strict -w|--warn --help --version"},
    {"cksum",
     "-a|--algorithm={sysv,bsd,crc,crc32b,md5,sha1,sha224,sha256,sha384,sha512,blake2b,sm3} "
     "-c|--check -l|--length=num --tag --untagged --base64 --raw -z|--zero --ignore-missing "
     "--quiet --status --strict -w|--warn --debug --help --version"},
    {"base64|base32", "-d|--decode -i|--ignore-garbage -w|--wrap=num --help --version"},
    // xxd: one dash before long names. A second operand is a file it writes
    // (with -r it patches it): one operand at most.
    {"xxd",
     "-a|-autoskip -b|-bits -C|-capitalize -c|-cols=num -E|-EBCDIC -e -g|-groupsize=num "
     "-h|-help -i|-include -l|-len=num -n|-name=word -o=num -p|-ps|-postscript|-plain "
     "-r|-revert -d -s|-seek=num -u -v|-version",
     OperandRule::Any, OptionStyle::Long, false, atMostOneOperand},
    {"od",
     "-A|--address-radix={d,o,x,n} --endian={big,little} -j|--skip-bytes=num "
     "-N|--read-bytes=num -S=num --strings?=num -t|--format=text -v|--output-duplicates "
     "-w|--width?=num --traditional -a -b -c -d -f -i -l -o -s -x --help --version"},
    {"hexdump",
     "-b|--one-byte-octal -c|--one-byte-char -C|--canonical -d|--two-bytes-decimal "
     "-o|--two-bytes-octal -x|--two-bytes-hex -L|--color?={always,never,auto} "
     "-e|--format=text -f|--format-file=read -n|--length=num -s|--skip=num "
     "-v|--no-squeezing -h|--help -V|--version"},
    // strings: binutils reads `@FILE` as more options.
    {"strings",
     "-a|--all -d|--data -f|--print-file-name -n|--bytes=num -# -t|--radix={o,d,x} "
     "-w|--include-all-whitespace -o -T|--target=word -e|--encoding={s,S,b,l,B,L} "
     "--unicode={default,locale,show,invalid,hex,escape,highlight} -U={d,l,s,i,x,e,h} "
     "-s|--output-separator=text -h|--help -v|-V|--version",
     OperandRule::Any, OptionStyle::Gnu, true},
    // file: not -m/--magic-file (magic from files), -C/--compile (writes
    // magic.mgc), -z/-Z (may run decompressors), -S/--no-sandbox,
    // -p/--preserve-date, -s/--special-files (raw devices).
    {"file",
     "-b|--brief -c|--checking-printout -e|--exclude=word --exclude-quiet=word "
     "-f|--files-from=read -F|--separator=text -i|--mime --apple --extension --mime-type "
     "--mime-encoding -k|--keep-going -l|--list -L|--dereference -h|--no-dereference "
     "-n|--no-buffer -N|--no-pad -0|--print0 -P|--parameter=word -r|--raw -d|--debug --help "
     "-v|--version"},
    // ---- files and paths ----
    {"stat",
     "-L|--dereference -f|--file-system --cached={always,never,default} -c|--format=text "
     "--printf=text -t|--terse --help --version"},
    // du: -h is --human-readable.
    {"du",
     "-0|--null -a|--all --apparent-size -B|--block-size=word -b|--bytes -c|--total "
     "-D|--dereference-args -d|--max-depth=num --files0-from=read -H -h|--human-readable "
     "--inodes -k -L|--dereference -l|--count-links -m -P|--no-dereference "
     "-S|--separate-dirs --si -s|--summarize -t|--threshold=num "
     "--time?={atime,access,use,ctime,status} --time-style=text -X|--exclude-from=read "
     "--exclude=text -x|--one-file-system --help --version"},
    // df: -h is --human-readable.
    {"df",
     "-a|--all -B|--block-size=word -h|--human-readable -H|--si -i|--inodes -k -l|--local "
     "--no-sync --sync --output?=text -P|--portability --total -t|--type=word -T|--print-type "
     "-x|--exclude-type=word -v --help --version"},
    {"realpath",
     "-e|--canonicalize-existing -m|--canonicalize-missing -L|--logical -P|--physical "
     "-q|--quiet --relative-to=tree --relative-base=tree -s|--strip|--no-symlinks -z|--zero "
     "--help --version"},
    {"readlink",
     "-f|--canonicalize -e|--canonicalize-existing -m|--canonicalize-missing "
     "-n|--no-newline -q|--quiet -s|--silent -v|--verbose -z|--zero --help --version"},
    {"dirname", "-z|--zero --help --version"},
    {"basename", "-a|--multiple -s|--suffix=text -z|--zero --help --version"},
    {"pwd", "-L|--logical -P|--physical --help --version", OperandRule::None},
    // which (debianutils): -a all matches, -s status only.
    {"which", "-a|--all -s"},
    // whereis: not -B/-M/-S (lists of directories ended by -f).
    {"whereis", "-b -m -s -u -l -h|--help -V|--version"},
    // ---- printing words ----
    // echo prints every word, options or not: a word starting with `-` is
    // text (`echo ---`, `echo -ne`).
    {"echo", "-n -e -E -*=text", OperandRule::Any, OptionStyle::Long, false, nullptr, true},
    // printf: not the builtin's -v VAR (assigns a shell variable: PATH...).
    {"printf", "--help --version", OperandRule::Any, OptionStyle::Gnu, false, checkPrintf, true},
    {"yes", "--help --version"},
    {"seq", "-f|--format=text -s|--separator=text -w|--equal-width -# --help --version"},
    {"sleep", "--help --version"},
    // true and false ignore every word.
    {"true|false", "-*=text", OperandRule::Any, OptionStyle::Long, false, nullptr, true},
    // test, [ and [[: the operators are written as options; one dash, no
    // bundling.
    {"test",
     "-a -b -c -d -e -f -g -G -h -k -L -N -O -p -r -s -S -t -u -w -x -z -n -o -v -R -eq -ne "
     "-lt -le -gt -ge -ef -nt -ot",
     OperandRule::Any, OptionStyle::Long, false, nullptr, true},
    {"[|[[",
     "-a -b -c -d -e -f -g -G -h -k -L -N -O -p -r -s -S -t -u -w -x -z -n -o -v -R -eq -ne "
     "-lt -le -gt -ge -ef -nt -ot",
     OperandRule::Any, OptionStyle::Long, false, checkBracket, true},
    {"expr", "--help --version", OperandRule::Any, OptionStyle::Gnu, false, nullptr, true},
    // bc: reads the files named; GNU bc runs no commands. It also reads
    // BC_ENV_ARGS (more options) from the environment.
    {"bc",
     "-h|--help -i|--interactive -l|--mathlib -q|--quiet -s|--standard -w|--warn "
     "-v|--version"},
    // date: not -s/--set; checkDate: only a `+FORMAT` operand.
    {"date",
     "-d|--date=text --debug -f|--file=read -I|--iso-8601?={date,hours,minutes,seconds,ns} "
     "--resolution -R|--rfc-email --rfc-3339={date,seconds,ns} -r|--reference=read "
     "-u|--utc|--universal --help --version",
     OperandRule::Any, OptionStyle::Gnu, false, checkDate},
    // ---- the system ----
    {"whoami", "--help --version", OperandRule::None},
    {"id",
     "-a -Z|--context -g|--group -G|--groups -n|--name -r|--real -u|--user -z|--zero --help "
     "--version"},
    {"uname",
     "-a|--all -s|--kernel-name -n|--nodename -r|--kernel-release -v|--kernel-version "
     "-m|--machine -p|--processor -i|--hardware-platform -o|--operating-system --help "
     "--version",
     OperandRule::None},
    // hostname: no operand (it would set the name), not -F/--file, -b/--boot.
    {"hostname",
     "-a|--alias -A|--all-fqdns -d|--domain -f|--fqdn|--long -i|--ip-address "
     "-I|--all-ip-addresses -s|--short -y|--yp|--nis -h|--help -V|--version",
     OperandRule::None},
    {"locale",
     "-a|--all-locales -m|--charmaps -c|--category-name -k|--keyword-name -v|--verbose "
     "--help --usage -V|--version"},
    {"nproc", "--all --ignore=num --help --version", OperandRule::None},
    {"uptime", "-p|--pretty -s|--since -h|--help -V|--version", OperandRule::None},
    {"free",
     "-b|--bytes --kilo --mega --giga --tera --peta -k|--kibi -m|--mebi -g|--gibi --tebi --pebi "
     "-h|--human --si -l|--lohi -t|--total -v|--committed -s|--seconds=num -c|--count=num "
     "-w|--wide --help -V|--version",
     OperandRule::None},
    // ps: BSD options without a dash are operands (checkPs); not `e`.
    {"ps",
     "-A -e -a -d -N|--deselect -C=text -G|--Group=text -g|--group=text -p|--pid=text "
     "--ppid=text -q|--quick-pid=text -s|--sid=text -t|--tty=text -u|--user=text "
     "-U|--User=text -F -f --forest -H -j -l -M -Z -O=text -o|--format=text -P -y --context "
     "--headers --no-headers|--no-heading --cols|--columns|--width=num --rows|--lines=num -L "
     "-m -T -c --sort=text --cumulative -w -V --version --help",
     OperandRule::Any, OptionStyle::Gnu, false, checkPs},
    {"pgrep",
     "-d|--delimiter=text -l|--list-name -a|--list-full -v|--inverse -w|--lightweight "
     "-c|--count -f|--full -g|--pgroup=text -G|--group=text -i|--ignore-case -n|--newest "
     "-o|--oldest -O|--older=num -P|--parent=text -s|--session=text -t|--terminal=text "
     "-u|--euid=text -U|--uid=text -x|--exact -F|--pidfile=read -L|--logpidfile "
     "-r|--runstates=text -A|--ignore-ancestors --cgroup=text --ns=num --nslist=text "
     "-h|--help -V|--version"},
    {"getconf", "-a -v=word"},
    // tput: not -S (capabilities from the input); checkTput: not init/reset.
    {"tput", "-T=word -V -x", OperandRule::Any, OptionStyle::Gnu, false, checkTput},
    {"clear", "-T=word -V -x", OperandRule::None},
    // man: not -P/--pager, -H/--html (a browser), -X (gxditview),
    // -C/--config-file, -p/--preprocessor, -r/--prompt, -u/--update,
    // -c/--catman. It reads MANPAGER, PAGER and MANOPT from the environment.
    {"man",
     "-d|--debug -D|--default --warnings?=text -f|--whatis -k|--apropos -K|--global-apropos "
     "-l|--local-file -w|--where|--path|--location -W|--where-cat|--location-cat "
     "-R|--recode=word -L|--locale=word -m|--systems=text -M|--manpath=tree "
     "-S|-s|--sections=word -e|--extension=word -i|--ignore-case -I|--match-case --regex "
     "--wildcard --names-only -a|--all --no-subpages -7|--ascii -E|--encoding=word "
     "--no-hyphenation|--nh --no-justification|--nj -t|--troff -T|--troff-device?=word "
     "-Z|--ditroff --help --usage -V|--version"},
};

#undef TG_WHEN

}  // namespace

std::span<const ProgramSpec> readingToolSpecs() {
  return kReadingToolSpecs;
}

}  // namespace toolguard::detail
