// Tables of harmless options: tools that filter text, print bytes and
// checksums, name files and paths, print words, and report on the system
// (sort, cut, jq, sha256sum, xxd, stat, realpath, echo, printf, date, ps,
// uname, man). Each program's options were read from `PROG --help` and the
// man pages of Debian 12 (coreutils 9.1, util-linux 2.38, procps-ng 4.0.2,
// file 5.44, binutils 2.40, jq 1.6, xxd 2022-01-14, man-db 2.11, bc 1.07).
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

// tput: `init` and `reset` run the terminal's iprog and print its init file.
bool checkTput(const TableParse& parse, const CommandScene&) {
  return std::none_of(parse.operands.begin(), parse.operands.end(), [](const ShellWord& w) {
    return w.dynamic || w.text == "init" || w.text == "reset";
  });
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

// printf FORMAT ARGS: the format is written out (a run-time first word may
// be `-v NAME`, which assigns a shell variable); the arguments are data.
bool checkPrintf(const TableParse&, const CommandScene& scene) {
  const auto args = scene.command.arguments();
  return args.empty() || !args[0].dynamic;
}

const ProgramSpec kTextAndSystemToolSpecs[] = {
    // ---- text filters ----
    // sort: not --compress-program (runs a program); -T is where it writes.
    {"sort",
     "-b|--ignore-leading-blanks -d|--dictionary-order -f|--ignore-case "
     "-g|--general-numeric-sort -i|--ignore-nonprinting -M|--month-sort "
     "-h|--human-numeric-sort -n|--numeric-sort -R|--random-sort --random-source=read "
     "-r|--reverse --sort={general-numeric,human-numeric,month,numeric,random,version} "
     "-V|--version-sort --batch-size=num -c -C --check?={diagnose-first,quiet,silent} --debug "
     "-k|--key=text -m|--merge -o|--output=write -s|--stable "
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
     "-D|--dereference-args -d|--max-depth=num -H -h|--human-readable "
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

}  // namespace

std::span<const ProgramSpec> textAndSystemToolSpecs() {
  return kTextAndSystemToolSpecs;
}

}  // namespace toolguard::detail
