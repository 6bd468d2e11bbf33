// Tables of harmless options: tools that list, read, search and compare
// files (ls, cat, head, less, bat, tree, grep, rg, ag, ack, fd, diff, cmp,
// delta). Each program's options were read from `PROG --help` and the man
// pages of Debian 12 (coreutils 9.1, grep 3.8, diffutils 3.8, util-linux
// 2.38, less 590); for the tools not installed there from their
// documentation and completion scripts: ripgrep 14 (crates/core/flags), ag
// 2.2, ack 3, fd 9/10, exa 0.10, eza 0.18, bat 0.24, delta 0.17, tree 2.1.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "program_specs.hpp"
#include "shell_facts.hpp"

namespace toolguard::detail {
namespace {

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

// bat: `bat cache --build|--clear` writes or deletes bat's cache.
bool checkBat(const TableParse& parse, const CommandScene&) {
  return parse.operands.empty() ||
         (!parse.operands.front().dynamic && parse.operands.front().text != "cache");
}

// The choices of GNU's --color=WHEN (ls, coreutils).
#define TG_WHEN "{always,yes,force,never,no,none,auto,tty,if-tty}"

const ProgramSpec kFileReaderSpecs[] = {
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
     "-c|--bytes -m|--chars -l|--lines -L|--max-line-length -w|--words "
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
};

#undef TG_WHEN

}  // namespace

std::span<const ProgramSpec> fileReaderSpecs() {
  return kFileReaderSpecs;
}

}  // namespace toolguard::detail
