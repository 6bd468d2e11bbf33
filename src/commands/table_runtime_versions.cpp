// Tables of harmless options: the version queries of runtimes (node, java,
// ruby, perl, php, deno) and of docker. Each table holds only options that
// print and exit; with no option the runtime would read a program from its
// input.
#include "program_specs.hpp"

namespace toolguard::detail {
namespace {

// A runtime's table holds only options that print and exit; without one it
// would read a program from its input (node, ruby, perl, php, deno).
bool buildToolPrintsAndExits(const TableParse& parse, const CommandScene&) {
  return !parse.options.empty();
}

const ProgramSpec kRuntimeVersionSpecs[] = {
    // node: -v is its version. Left out: -e, -p, -r, --eval, anything else.
    {"node", "-v|--version -h|--help", OperandRule::None, OptionStyle::Gnu, false,
     buildToolPrintsAndExits},
    // java: -showversion goes on to run a class: left out.
    {"java", "-version|--version -fullversion -help|--help|-h --help-extra|-X", OperandRule::None,
     OptionStyle::Long, false, buildToolPrintsAndExits},
    // ruby: -v prints the version, then reads a script from the input: left out.
    {"ruby", "--version -h|--help", OperandRule::None, OptionStyle::Gnu, false,
     buildToolPrintsAndExits},
    // perl -v prints its version and exits; -V its configuration.
    {"perl", "-v|--version -V -h|--help", OperandRule::None, OptionStyle::Gnu, false,
     buildToolPrintsAndExits},
    // php: -i (phpinfo) prints the environment: left out.
    {"php", "-v|--version -h|--help -m", OperandRule::None, OptionStyle::Gnu, false,
     buildToolPrintsAndExits},
    {"deno", "-V|--version -h|--help", OperandRule::None, OptionStyle::Gnu, false,
     buildToolPrintsAndExits},
    // docker: only its version here (its commands have their own rules).
    {"docker", "-v|--version --help", OperandRule::None, OptionStyle::Gnu, false,
     buildToolPrintsAndExits},
};

}  // namespace

std::span<const ProgramSpec> runtimeVersionSpecs() {
  return kRuntimeVersionSpecs;
}

}  // namespace toolguard::detail
