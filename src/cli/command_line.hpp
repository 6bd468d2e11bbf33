#pragma once
// The toolguard command as a function: main() calls it (src/cli/main.cpp),
// so the command's code is a library the unit tests link too.

namespace toolguard::cli {

/// Runs `toolguard` with main's arguments and returns its exit code.
int runToolguard(int argc, char** argv);

}  // namespace toolguard::cli
