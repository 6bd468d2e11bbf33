// `toolguard pins`: the MCP tools toolguard pinned, and approving the ones
// it holds back (a listing that changed since it was pinned, a new tool, a
// description that addresses an AI agent or a name that imitates another
// server's tool). See docs/mcp-proxy.md.
#include <functional>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/option_flags.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/mcp_pins.hpp"
#include "toolguard/mcp_tools.hpp"

namespace toolguard::cli {
namespace {

struct PinsOptions {
  std::string home;
  std::string server;
  std::string tool;
  std::string hash;
};

std::string pinsDir(const PinsOptions& o) {
  return toolguardHome(o.home) + "/mcp-pins";
}

int runPinsList(const PinsOptions& o) {
  std::vector<std::string> servers =
      o.server.empty() ? pinnedServers(pinsDir(o)) : std::vector<std::string>{o.server};
  size_t held = 0;
  for (const std::string& server : servers) {
    for (const HeldTool& tool : McpToolPins(pinsDir(o), server).pending()) {
      ++held;
      std::cout << server << " " << tool.name << ": " << tool.why
                << "\n  description: " << tool.description << "\n";
    }
  }
  if (held == 0) std::cout << "toolguard: no MCP tool is held back\n";
  return kExitOk;
}

int runPinsApprove(const PinsOptions& o) {
  if (std::string error = mcpServerNameError(o.server); !error.empty()) {
    std::cerr << "toolguard pins: " << o.server << ": " << error << "\n";
    return kExitError;
  }
  const std::optional<HeldTool> approved =
      McpToolPins(pinsDir(o), o.server).approve(o.tool, o.hash);
  if (!approved) {
    std::cerr << "toolguard pins: the server \"" << o.server << "\" has no held tool \"" << o.tool
              << "\"" << (o.hash.empty() ? "" : " listed with hash " + o.hash)
              << " (toolguard pins list shows them)\n";
    return kExitError;
  }
  std::cout << "toolguard: approved " << o.tool << " of " << o.server << " as listed with hash "
            << approved->hash << ":\n  " << approved->description
            << "\nIt is shown from its next listing on.\n";
  return kExitOk;
}

}  // namespace

void addPinsCommand(CLI::App& app, int& exit_code) {
  CLI::App* pins = app.add_subcommand(
      "pins",
      "The MCP tools toolguard mcp pinned: list the ones held back (changed, new or suspicious "
      "since the server's first listing) and approve them");
  pins->require_subcommand(1);
  auto list_options = std::make_shared<PinsOptions>();
  CLI::App* list = pins->add_subcommand("list", "Print the held tools of every server, or SERVER");
  list->add_option("server", list_options->server, "Only this server (its --name)");
  addHomeOption(*list, list_options->home);
  list->callback([list_options, &exit_code] {
    runSubcommand(exit_code, "toolguard pins", [&] { return runPinsList(*list_options); });
  });
  auto approve_options = std::make_shared<PinsOptions>();
  CLI::App* approve =
      pins->add_subcommand("approve", "Pin TOOL of SERVER as it is listed now, so it is shown");
  approve->add_option("server", approve_options->server, "The server (its --name)")->required();
  approve->add_option("tool", approve_options->tool, "The tool as the server names it")->required();
  approve->add_option("--hash", approve_options->hash,
                      "Only if the held listing has this hash (as `pins list` printed it)");
  addHomeOption(*approve, approve_options->home);
  approve->callback([approve_options, &exit_code] {
    runSubcommand(exit_code, "toolguard pins", [&] { return runPinsApprove(*approve_options); });
  });
}

}  // namespace toolguard::cli
