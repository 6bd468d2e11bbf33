#pragma once
// The workspace's own code, run in toolguard's sandbox: what the guard
// cannot read (a script or program of the workspace, what `go run` or
// `cargo run` builds, a tool the project installed) and therefore asks
// about, but which the sandbox holds when the call runs confined with no
// network: it reads no secret, writes only in the workspace, sends nothing.

#include <optional>
#include <string>

namespace toolguard::detail {

struct CommandScene;

/// When the call runs confined (CallContext::confined) and the command runs
/// the workspace's own code, what that code is ("the workspace's script
/// scripts/gen.py"); nullopt otherwise. The code is named exactly, never
/// inferred: the program is a file of the workspace (`./build/bin/app`); an
/// interpreter (python, node, ruby, perl, php, a shell, tsx, ts-node,
/// Rscript, lua) runs a script file of the workspace (inline code, `-c`
/// or `-e`, stays visible to a person and is not counted); `go run` or
/// `go generate`; `cargo run`; `java -jar` of a jar in the workspace; `npx
/// NAME` of a tool in the workspace's node_modules/.bin.
std::optional<std::string> confinedWorkspaceCode(const CommandScene& scene);

}  // namespace toolguard::detail
