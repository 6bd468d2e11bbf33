// Tables of harmless options: linters of shell scripts, YAML, Dockerfiles,
// CI workflows and TOML, split from table_linters.cpp, which says where the
// options were read from.
#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string>

#include "program_specs.hpp"
#include "shell_facts.hpp"

namespace toolguard::detail {
namespace {

// yamllint's -d: inline YAML configuration. A word without `:` means
// `extends: WORD`, and `extends` and `ignore-from-file` read files: only the
// built-in configurations may be extended, and nothing read. Quotes and
// escapes could spell a key so that it is not seen here: not known.
bool yamllintDataKnown(const std::string& text) {
  if (text.find(':') == std::string::npos) return text == "default" || text == "relaxed";
  if (text.find_first_of("\\\"'") != std::string::npos) return false;
  if (text.find("ignore-from-file") != std::string::npos) return false;
  for (size_t at = text.find("extends"); at != std::string::npos;
       at = text.find("extends", at + 1)) {
    size_t i = at + 7;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    if (i >= text.size() || text[i] != ':') return false;
    ++i;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    size_t end = i;
    while (end < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[end])) ||
            std::string_view("_.-/~").find(text[end]) != std::string_view::npos)) {
      ++end;
    }
    const std::string_view name = std::string_view(text).substr(i, end - i);
    if (name != "default" && name != "relaxed") return false;
  }
  return true;
}

bool checkYamllint(const TableParse& parse, const CommandScene&) {
  for (const char* spelling : {"-d", "--config-data"}) {
    for (const ShellWord& v : parse.valuesOf(spelling)) {
      if (v.dynamic || !yamllintDataKnown(v.text)) return false;
    }
  }
  return true;
}

const ProgramSpec kConfigLinterSpecs[] = {
    // ---- Shell, YAML, Docker, CI, TOML ---------------------------------------
    // shellcheck: reports only; -x follows `source` (reads the files). Not: -a /
    // --check-sourced (reports, with their lines, on sourced files anywhere).
    {"shellcheck",
     "-C|--color?={auto,always,never} -i|--include=text -e|--exclude=text "
     "-f|--format={checkstyle,diff,gcc,json,json1,quiet,tty} --list-optional --norc "
     "--rcfile=inside -o|--enable=text -P|--source-path=tree "
     "-s|--shell={sh,bash,dash,ksh,busybox} -S|--severity={error,warning,info,style} "
     "-V|--version -W|--wiki-link-count=num -x|--external-sources "
     "--extended-analysis?={true,false} --help"},
    // shfmt (Go flags, one or two dashes): -w rewrites the files named.
    {"shfmt",
     "-l|--list -w|--write -d|--diff -s|--simplify -mn|--minify -i|--indent=num "
     "-bn|--binary-next-line -ci|--case-indent -sr|--space-redirects -kp|--keep-padding "
     "-fn|--func-next-line -ln|--language-dialect={bash,posix,mksh,bats,zsh,auto} "
     "-p|--posix -filename|--filename=text -f|--find --apply-ignore -tojson|--to-json "
     "--from-json --version -h|--help",
     OperandRule::Any, OptionStyle::Long},
    // yamllint: -d (inline configuration) is checked: it may extend only the built-in ones.
    {"yamllint",
     "-c|--config-file=inside -d|--config-data=text "
     "-f|--format={parsable,standard,colored,github,auto} -s|--strict --no-warnings "
     "--list-files -v|--version -h|--help",
     OperandRule::Any, OptionStyle::Gnu, false, checkYamllint},
    // hadolint: reports on Dockerfiles (its shell checks are built in).
    {"hadolint",
     "-h|--help -v|--version -c|--config=inside --no-fail --no-color -V|--verbose "
     "-f|--format={tty,json,checkstyle,codeclimate,gitlab_codeclimate,gnu,codacy,sonarqube,"
     "sarif} "
     "--error=word --warning=word --info=word --style=word --ignore=word "
     "--trusted-registry=word --require-label=text --strict-labels --disable-ignore-pragma "
     "-t|--failure-threshold={error,warning,info,style,ignore,none} "
     "--file-path-in-report=text"},
    // actionlint (Go flags): reports on workflows. Not: -shellcheck and -pyflakes (name
    // programs to run), -init-config (writes a file).
    {"actionlint",
     "-color -no-color -config-file=inside -debug -format=text -ignore=text -oneline "
     "-stdin-filename=text -verbose -version -h|-help",
     OperandRule::Any, OptionStyle::Long},
    // taplo: fmt rewrites the files named; check/lint. Not: --schema, --schema-catalog,
    // --default-schema-catalogs (fetch schemas), lsp, get.
    {"taplo", "--colors={auto,always,never} --verbose --log-spans -h|--help -V|--version",
     OperandRule::Sub},
    {"taplo fmt|format",
     "-c|--config=inside --cache-path=write --no-auto-config --check --diff -o|--option=text "
     "-f|--stdin-filepath=text --force --colors={auto,always,never} --verbose --log-spans "
     "-h|--help"},
    {"taplo lint|check",
     "-c|--config=inside --cache-path=write --no-auto-config --no-schema "
     "--colors={auto,always,never} --verbose --log-spans -h|--help"},
};

}  // namespace

std::span<const ProgramSpec> configLinterSpecs() {
  return kConfigLinterSpecs;
}

}  // namespace toolguard::detail
