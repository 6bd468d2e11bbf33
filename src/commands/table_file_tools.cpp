// Tables of harmless options: file operations in the workspace, text
// editing streams, the shell's own builtins, and requests to the developer's
// own server. Options were read from Debian 12's coreutils 9.1, sed 4.9,
// findutils 4.9, gawk 5.2, bash 5.2, curl 7.88 and wget 1.21 (`--help`, man).
#include <algorithm>

#include "command_paths.hpp"
#include "program_specs.hpp"
#include "safe_commands.hpp"
#include "shell_facts.hpp"
#include "shell_parse/name_lists.hpp"
#include "variable_lists.hpp"

namespace toolguard::detail {
namespace {

bool inWorkspace(const TableParse&, const CommandScene& scene) {
  return workspaceFileOperation(scene);
}

// sed: the scripts only edit (no e, w, r commands); with -i the files are in
// the workspace.
bool checkSed(const TableParse& parse, const CommandScene& scene) {
  std::vector<ShellWord> scripts = parse.valuesOf("-e");
  for (const ShellWord& w : parse.valuesOf("--expression")) scripts.push_back(w);
  if (scripts.empty()) {
    if (parse.operands.empty()) return false;
    scripts.push_back(parse.operands.front());
  }
  for (const ShellWord& script : scripts) {
    if (script.dynamic || !sedScriptIsSafe(script.text)) return false;
  }
  const bool in_place = parse.has("-i") || parse.has("--in-place");
  return !in_place || workspaceFileOperation(scene);
}

// awk: the program runs nothing and opens no file by itself.
bool checkAwk(const TableParse& parse, const CommandScene&) {
  std::vector<ShellWord> programs = parse.valuesOf("--source");
  for (const ShellWord& w : parse.valuesOf("-e")) programs.push_back(w);
  if (programs.empty()) {
    if (parse.operands.empty()) return false;
    programs.push_back(parse.operands.front());
  }
  return std::all_of(programs.begin(), programs.end(),
                     [](const ShellWord& p) { return !p.dynamic && awkProgramIsSafe(p.text); });
}

// find: -delete only of what it finds by name, in the workspace.
bool checkFind(const TableParse& parse, const CommandScene& scene) {
  if (!parse.has("-delete")) return true;
  return !findNameGlobs(scene.command).empty() && workspaceFileOperation(scene);
}

// chmod: a mode (`755`, `u+x`, `-x`, `a=r`) and files in the workspace; no
// set-user-ID or set-group-ID bits.
bool checkChmod(const TableParse& parse, const CommandScene& scene) {
  if (!parse.has("--reference")) {
    if (parse.operands.empty()) return false;
    const std::string& mode = parse.operands.front().text;
    if (parse.operands.front().dynamic || mode.find('s') != std::string::npos) return false;
    if (mode.size() == 4 && mode[0] != '0') return false;  // 4755: special bits
  }
  return workspaceFileOperation(scene);
}

// A variable name the shell may hold without it changing what runs (see variable_lists.hpp).
bool namesOnlyPlainVariables(const std::vector<ShellWord>& words, bool exported) {
  return std::all_of(words.begin(), words.end(), [&](const ShellWord& w) {
    if (w.dynamic) return false;
    const size_t eq = w.text.find('=');
    const std::string name = w.text.substr(0, eq);
    if (exported) {
      const std::string value = eq == std::string::npos ? std::string() : w.text.substr(eq + 1);
      return environmentVariableIsHarmless(name, value, eq != std::string::npos);
    }
    return shellVariableIsPlain(name);
  });
}

// export NAME=VALUE: only variables known not to change what runs; `export`
// and `export -p` print every variable, credentials too.
// The words a declaration names: its operands, and the assignments the
// parser took out of them (`export X=1` is a declaration with assignment X).
std::vector<ShellWord> declaredWords(const TableParse& parse, const CommandScene& scene) {
  std::vector<ShellWord> words = parse.operands;
  for (const auto& [name, value] : scene.command.assignments) {
    words.push_back(ShellWord{name + "=" + value.text, value.dynamic, name + "=" + value.source});
  }
  return words;
}

bool checkExport(const TableParse& parse, const CommandScene& scene) {
  const std::vector<ShellWord> words = declaredWords(parse, scene);
  return !words.empty() && namesOnlyPlainVariables(words, true);
}

// declare/local/typeset: plain variables; -p and no operand print them all.
bool checkDeclare(const TableParse& parse, const CommandScene& scene) {
  const std::vector<ShellWord> words = declaredWords(parse, scene);
  if (words.empty()) return parse.has("-f") || parse.has("-F");
  return namesOnlyPlainVariables(words, parse.has("-x"));
}

// read: into plain variables.
bool checkRead(const TableParse& parse, const CommandScene&) {
  std::vector<ShellWord> names = parse.operands;
  for (const ShellWord& w : parse.valuesOf("-a")) names.push_back(w);
  return namesOnlyPlainVariables(names, false);
}

// printenv NAME...: one variable that holds no credential; alone it prints them all.
bool checkPrintenv(const TableParse& parse, const CommandScene&) {
  return !parse.operands.empty() &&
         std::all_of(parse.operands.begin(), parse.operands.end(), [](const ShellWord& w) {
           return !w.dynamic && !variableMayHoldSecret(w.text);
         });
}

// set: the shell's error and trace options, and positional parameters
// after `--`. `set` alone prints every variable; -a exports them; -k passes
// assignments on to commands.
bool checkSet(const TableParse&, const CommandScene& scene) {
  const auto args = scene.command.arguments();
  if (args.empty()) return false;
  for (size_t i = 0; i < args.size(); ++i) {
    const ShellWord& w = args[i];
    if (w.dynamic) return false;
    if (w.text == "--") return true;  // the rest are positional parameters
    if (w.text == "-o" || w.text == "+o") {
      if (i + 1 >= args.size()) return false;
      if (!oneOfSetOptions(args[++i].text)) return false;
      continue;
    }
    if ((w.text.starts_with('-') || w.text.starts_with('+')) && w.text.size() >= 2) {
      // `-euo pipefail`: an `o` last takes the next word as an option's name.
      const bool named = w.text.back() == 'o';
      const bool letters = std::all_of(
          w.text.begin() + 1, w.text.end() - (named ? 1 : 0),
          [](char c) { return std::string_view("euxvEThBCfn").find(c) != std::string_view::npos; });
      if (!letters) return false;
      if (named && (i + 1 >= args.size() || !oneOfSetOptions(args[++i].text))) return false;
      continue;
    }
    return false;  // an operand without `--`: positional parameters, read as such by bash
  }
  return true;
}

// shopt: glob and matching options only.
bool checkShopt(const TableParse& parse, const CommandScene&) {
  return std::all_of(parse.operands.begin(), parse.operands.end(), [](const ShellWord& w) {
    return !w.dynamic &&
           oneOf(w.text, {"nullglob", "failglob", "dotglob", "globstar", "extglob", "nocaseglob",
                          "nocasematch", "globasciiranges", "lastpipe", "inherit_errexit"});
  });
}

// umask alone prints it; a new mask changes what every later file gets.
bool noOperand(const TableParse& parse, const CommandScene&) {
  return parse.operands.empty();
}

bool checkCurl(const TableParse& parse, const CommandScene&) {
  for (const ShellWord& w : parse.valuesOf("-w")) {
    if (w.text.starts_with('@')) return false;  // reads the format from a file
  }
  for (const ShellWord& w : parse.valuesOf("--write-out")) {
    if (w.text.starts_with('@')) return false;
  }
  std::vector<ShellWord> urls = parse.operands;
  for (const ShellWord& u : parse.valuesOf("--url")) urls.push_back(u);
  return !urls.empty() &&
         std::all_of(urls.begin(), urls.end(), [](const ShellWord& u) { return isLocalUrl(u); });
}

bool checkWget(const TableParse& parse, const CommandScene&) {
  return !parse.operands.empty() && std::all_of(parse.operands.begin(), parse.operands.end(),
                                                [](const ShellWord& u) { return isLocalUrl(u); });
}

// tar -c or -t, written with a dash; the archive and the files are judged by
// the path rules (an archive created is a write, the files archived reads).
// An archive named `HOST:FILE` (a colon before any `/`) is on another
// machine: GNU tar runs rsh or ssh to reach it. Not known harmless, nor is
// a name known only at run time.
bool checkTar(const TableParse& parse, const CommandScene& scene) {
  const auto args = scene.command.arguments();
  if (args.empty() || !args[0].text.starts_with('-') || parse.has("-c") == parse.has("-t")) {
    return false;
  }
  for (const ShellWord& archive : parse.valuesOf("-f")) {
    if (archive.dynamic) return false;
    const size_t colon = archive.text.find(':');
    if (colon != std::string::npos && archive.text.find('/') > colon) return false;
  }
  return true;
}

bool checkSource(const TableParse&, const CommandScene& scene) {
  return activatesWorkspaceVenv(scene);
}

const ProgramSpec kFileToolSpecs[] = {
    {"mkdir", "-p|--parents -m|--mode=word -v|--verbose --help --version", OperandRule::Any,
     OptionStyle::Gnu, false, inWorkspace},
    {"touch",
     "-a -c|--no-create -m -d|--date=text -r|--reference=read -t=word --time=word "
     "-h|--no-dereference"
     " --help --version",
     OperandRule::Any, OptionStyle::Gnu, false, inWorkspace},
    // cp/mv: --backup's suffix is a word; -t names the destination (a write).
    {"cp",
     "-a|--archive -b --backup?=word -f|--force -i|--interactive -H -l|--link -L|--dereference "
     "-n|--no-clobber -P|--no-dereference -p --preserve?=text --no-preserve=text --parents "
     "-R|-r|--recursive -s|--symbolic-link -S|--suffix=word -t|--target-directory=write "
     "-T|--no-target-directory -u|--update?=word -v|--verbose -x|--one-file-system "
     "--attributes-only --sparse=word --reflink?=word --strip-trailing-slashes --help --version",
     OperandRule::Any, OptionStyle::Gnu, false, inWorkspace},
    {"mv",
     "-b --backup?=word -f|--force -i|--interactive -n|--no-clobber -S|--suffix=word "
     "-t|--target-directory=write -T|--no-target-directory -u|--update?=word -v|--verbose "
     "--strip-trailing-slashes --help --version",
     OperandRule::Any, OptionStyle::Gnu, false, inWorkspace},
    // rm: not --no-preserve-root.
    {"rm",
     "-f|--force -i -I --interactive?=word -r|-R|--recursive -d|--dir -v|--verbose "
     "--one-file-system --preserve-root --help --version",
     OperandRule::Any, OptionStyle::Gnu, false, inWorkspace},
    {"rmdir", "-p|--parents -v|--verbose --ignore-fail-on-non-empty --help --version",
     OperandRule::Any, OptionStyle::Gnu, false, inWorkspace},
    {"ln",
     "-b --backup?=word -f|--force -i|--interactive -L|--logical -n|--no-dereference "
     "-P|--physical -r|--relative -s|--symbolic -S|--suffix=word -t|--target-directory=write "
     "-T|--no-target-directory -v|--verbose --help --version",
     OperandRule::Any, OptionStyle::Gnu, false, inWorkspace},
    // chmod: `-x`, `-w`, `-r` are modes as much as options.
    {"chmod",
     "-c|--changes -f|--silent|--quiet -v|--verbose -R|--recursive --reference=read "
     "--preserve-root -r -w -x -X --help --version",
     OperandRule::Any, OptionStyle::Gnu, false, checkChmod},
    {"tee", "-a|--append -i|--ignore-interrupts -p --output-error?=word --help --version",
     OperandRule::Any, OptionStyle::Gnu, false, inWorkspace},
    // sed: not -f/--file (a script from a file).
    {"sed",
     "-n|--quiet|--silent -e|--expression=text -E|-r|--regexp-extended -i|--in-place?=word "
     "-s|--separate -z|--null-data -u|--unbuffered -l|--line-length=num --posix --debug "
     "--sandbox -b|--binary --follow-symlinks --help --version",
     OperandRule::Any, OptionStyle::Gnu, false, checkSed},
    // awk: not -f (a program from a file), -i/-l (libraries, extensions), -E.
    {"awk|gawk|mawk|nawk",
     "-F|--field-separator=text -v|--assign=text -e|--source=text -b|--characters-as-bytes "
     "-c|--traditional -P|--posix -S|--sandbox -s|--no-optimize -N|--use-lc-numeric "
     "-r|--re-interval -t|--lint-old --help --version",
     OperandRule::Any, OptionStyle::Gnu, false, checkAwk},
    // find: tests and -print actions; not -exec, -execdir, -ok, -okdir,
    // -fprint*, -fls; -delete only by name in the workspace.
    {"find",
     "-H -L -P -O=num -D=word -name=text -iname=text -path=text -ipath=text -wholename=text "
     "-iwholename=text -regex=text -iregex=text -regextype=word -lname=text -ilname=text "
     "-type=word -xtype=word -maxdepth=num -mindepth=num -mtime=num -mmin=num -atime=num "
     "-amin=num -ctime=num -cmin=num -newer=read -anewer=read -cnewer=read -newermt=text "
     "-size=num -empty -perm=word -user=word -group=word -uid=num -gid=num -nouser -nogroup "
     "-links=num -inum=num -samefile=read -readable -writable -executable -true -false -print "
     "-print0 -printf=text -ls -prune -quit -not -a -o -and -or -depth -d -follow -xdev -mount "
     "-daystart -noleaf -ignore_readdir_race -noignore_readdir_race -used=num -fstype=word "
     "-delete -help --help -version --version",
     OperandRule::Any, OptionStyle::Long, false, checkFind},
    // tar: creating an archive of workspace files, or listing one; not
    // extracting (an archive's names may point anywhere), not
    // --to-command/--use-compress-program/-I/--checkpoint-action (run
    // programs), not -T/--files-from outside the path rules' sight.
    {"tar",
     "-c|--create -t|--list -f|--file=text -z|--gzip -j|--bzip2 -J|--xz --zstd -v|--verbose "
     "-C|--directory=inside --exclude=text --exclude-vcs --exclude-vcs-ignores "
     "--exclude-caches -h|--dereference --owner=word --group=word --mode=text --mtime=text "
     "--sort={none,name,inode} --numeric-owner -p|--preserve-permissions --totals "
     "-a|--auto-compress --help --version",
     OperandRule::Any, OptionStyle::Gnu, false, checkTar},
    // Shell builtins.
    {"cd|pushd|popd", "-L -P -e -@ -n", OperandRule::Any, OptionStyle::Gnu},
    {"read", "-r -s -e -p=text -t=num -n=num -N=num -d=text -a=word -u=num -i=text",
     OperandRule::Any, OptionStyle::Gnu, false, checkRead},
    {"export", "-n", OperandRule::Any, OptionStyle::Gnu, false, checkExport},
    {"declare|typeset|local", "-a -A -i -l -u -r -g -t -x -f -F", OperandRule::Any,
     OptionStyle::Gnu, false, checkDeclare},
    {"set", "-e -u -x -v -E -T -h -B -C -f -n -o=word", OperandRule::Any, OptionStyle::Gnu, false,
     checkSet},
    {"shopt", "-s -u -q -p -o", OperandRule::Any, OptionStyle::Gnu, false, checkShopt},
    {"command", "-v -V -p", OperandRule::Any, OptionStyle::Gnu},
    {"type", "-a -f -p -P -t", OperandRule::Any, OptionStyle::Gnu},
    {"hash", "-r -l -t -d", OperandRule::Any, OptionStyle::Gnu},
    {"alias", "-p", OperandRule::Any, OptionStyle::Gnu},
    {"help", "-d -m -s", OperandRule::Any, OptionStyle::Gnu},
    {"wait", "-n -f", OperandRule::Any, OptionStyle::Gnu},
    {"times", "", OperandRule::None, OptionStyle::Gnu},
    {"umask", "-S -p", OperandRule::Any, OptionStyle::Gnu, false, noOperand},
    {"printenv", "-0|--null --help --version", OperandRule::Any, OptionStyle::Gnu, false,
     checkPrintenv},
    {"source|.", "", OperandRule::Any, OptionStyle::Gnu, false, checkSource},
    // Requests to the developer's own server: no upload, no method that
    // changes, no config file (-K), no proxy, no cookie file read.
    {"curl",
     "-s|--silent -S|--show-error -f|--fail --fail-with-body -L|--location -i|--include "
     "-I|--head -v|--verbose -o|--output=write -O|--remote-name -H|--header=text "
     "-X|--request={GET,HEAD,get,head} -w|--write-out=text -m|--max-time=num "
     "--connect-timeout=num --retry=num --retry-delay=num -A|--user-agent=text "
     "-e|--referer=text -k|--insecure --compressed -N|--no-buffer -u|--user=text --url=text "
     "-c|--cookie-jar=write -G|--get -#|--progress-bar --no-progress-meter -4|--ipv4 "
     "-6|--ipv6 --http1.1 --http2 -j|--junk-session-cookies --max-redirs=num -r|--range=word "
     "-D|--dump-header=write --help --version",
     OperandRule::Any, OptionStyle::Gnu, false, checkCurl},
    {"wget",
     "-q|--quiet -v|--verbose -n={v,c,d,H,p} --no-verbose -O|--output-document=write "
     "-o|--output-file=write "
     "-S|--server-response --spider -T|--timeout=num -t|--tries=num --header=text "
     "-U|--user-agent=text -P|--directory-prefix=write --no-clobber --no-check-certificate "
     "--help --version",
     OperandRule::Any, OptionStyle::Gnu, false, checkWget},
};

}  // namespace

std::span<const ProgramSpec> fileToolSpecs() {
  return kFileToolSpecs;
}

}  // namespace toolguard::detail
