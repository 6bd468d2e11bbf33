#pragma once
// The path of the running toolguard binary, for commands that start it again
// (the hook install writes, a command rewritten to run in the sandbox).

#include <string>

namespace toolguard::cli {

/// The absolute path of the running toolguard (/proc/self/exe): what a hook
/// runs works without PATH, since agents run hooks with their own
/// environment. Throws when it cannot be found or was deleted.
std::string runningBinary();

}  // namespace toolguard::cli
