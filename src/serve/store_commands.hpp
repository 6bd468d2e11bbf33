#pragma once
// Internal: `toolguard approvals list|import` and `toolguard audit query`
// against the store of `toolguard serve` (--store file or postgresql://):
// the toolguard command hands these to toolguard-serve when --store is given.

#include <CLI/CLI.hpp>

namespace toolguard::serve {

/// Adds the `approvals` and `audit` commands to toolguard-serve's parser;
/// `exit_code` receives their result.
void addStoreCommands(CLI::App& app, int& exit_code);

}  // namespace toolguard::serve
