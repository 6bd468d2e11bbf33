#pragma once
// Internal: the headers `toolguard mcp --url` sends to its server, from the
// command line (`--header "Authorization: Bearer ${TOKEN}"`): the server's
// credentials come from the proxy's own configuration and environment,
// never from the client, and never appear in an error.
#include <string>
#include <utility>
#include <vector>

#include "toolguard/expected.hpp"

namespace toolguard::cli {

/// Reads each "Name: value"; `${VAR}` in a value is the environment variable
/// VAR (unset: an error naming VAR, never the value). Fails, saying which
/// option, for a name that is not a header name or a value with a line
/// break.
Expected<std::vector<std::pair<std::string, std::string>>> upstreamHeaders(
    const std::vector<std::string>& options);

}  // namespace toolguard::cli
