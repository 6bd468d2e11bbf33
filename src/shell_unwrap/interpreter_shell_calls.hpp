#pragma once
// Internal: shell commands written as literal strings in the inline code of
// python, perl, ruby, node and php (`os.system("...")`, backquotes,
// `child_process.execSync('...')`, `system("rm", "-rf", ...)`), judged as the
// commands they run.

#include <string_view>
#include <vector>

#include "toolguard/shell.hpp"
#include "unwrap.hpp"

namespace toolguard::detail {

/// The code an interpreter command runs from its words (`python3 -c CODE`,
/// `perl -e CODE`, `node --eval=CODE`, `php -r CODE`) or from its known
/// input; empty when it runs a script file or code only known at run time.
std::string_view inlineCode(const SimpleCommand& cmd, std::string& storage);

/// Appends, for each literal shell call in `cmd`'s inline code, the script
/// (or the argument vector) it runs.
void unwrapInterpreterShellCalls(const SimpleCommand& cmd, std::vector<Unwrapped>& out);

}  // namespace toolguard::detail
