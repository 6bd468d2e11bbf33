// The toolguard command line: the fast paths a hook takes, then CLI11's parser
// with the sub-commands.
#include "cli/command_line.hpp"

#include <algorithm>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/check_arguments.hpp"
#include "cli/commands.hpp"
#include "cli/running_binary.hpp"
#include "command_line/unknown_command.hpp"

namespace toolguard::cli {
namespace {
constexpr const char* kVersion = "toolguard 0.1.0";
}

int runToolguard(int argc, char** argv) {
  // `toolguard --version` alone is answered without a parser: agents and
  // installers run it to find the binary, and CLI11 answers it by throwing.
  if (argc == 2 && std::string_view(argv[1]) == "--version") {
    std::cout << kVersion << "\n";
    return std::cout.flush() ? kExitOk : kExitError;
  }
  // `toolguard check` with plain options, as a hook runs it once per tool
  // call, is read without building CLI11's parser (check_arguments.hpp).
  if (argc >= 2 && std::string_view(argv[1]) == "check") {
    if (std::optional<CheckOptions> plain = readPlainCheckArguments(argc - 2, argv + 2)) {
      try {
        return runCheck(*plain);
      } catch (const std::exception& e) {
        std::cerr << "toolguard: internal error: " << e.what() << "\n";
        return kExitError;
      }
    }
  }
  // The decision service is a program of its own (the HTTP server, libpq).
  if (argc >= 2 && std::string_view(argv[1]) == "serve") return runServeProgram(argc - 2, argv + 2);
  // `mcp --listen`: the MCP gateway over HTTP is served by that program too.
  if (argc >= 2 && std::string_view(argv[1]) == "mcp") {
    for (int i = 2; i < argc && std::string_view(argv[i]) != "--"; ++i) {
      const std::string_view arg = argv[i];
      if (arg == "--listen" || arg.starts_with("--listen=")) {
        // Servers run with --sandbox under this command's `sandbox`.
        try {
          setenv("TOOLGUARD_COMMAND_PATH", runningBinary().c_str(), 1);
        } catch (const std::exception&) {
          unsetenv("TOOLGUARD_COMMAND_PATH");
        }
        return runServeProgram(argc - 1, argv + 1);
      }
    }
  }
  // The approvals and the audit of a service's store (--store URL) too.
  if (argc >= 3 &&
      (std::string_view(argv[1]) == "approvals" || std::string_view(argv[1]) == "audit")) {
    for (int i = 2; i < argc; ++i) {
      if (std::string_view(argv[i]) == "--store" ||
          std::string_view(argv[i]).starts_with("--store=")) {
        return runServeProgram(argc - 1, argv + 1);
      }
    }
  }
  CLI::App app{
      "toolguard: decides whether an LLM agent's tool call may run (allow, ask, deny, abort)",
      "toolguard"};
  app.require_subcommand(1);
  app.set_version_flag("--version", kVersion);
  int exit_code = kExitOk;
  // Each command's parser is built only when it is run (a hook starts one
  // process per tool call); help, --version and mistakes get them all.
  using Adder = void (*)(CLI::App&, int&);
  const std::vector<std::pair<std::vector<std::string>, Adder>> commands = {
      {{"check"}, addCheckCommand},     {{"explain"}, addExplainCommand},
      {{"test"}, addTestCommand},       {{"policy"}, addPolicyCommand},
      {{"demo"}, addDemoCommand},       {{"validate"}, addValidateCommand},
      {{"audit"}, addAuditCommand},     {{"approvals"}, addApprovalsCommand},
      {{"mcp"}, addMcpCommand},         {{"install", "uninstall"}, addInstallCommands},
      {{"sandbox"}, addSandboxCommand}, {{"pins"}, addPinsCommand},
  };
  const std::string first = argc > 1 ? argv[1] : "";
  bool added = first == "--version";  // needs no command at all
  for (const auto& [names, add] : commands) {
    if (std::find(names.begin(), names.end(), first) != names.end()) {
      add(app, exit_code);
      added = true;
    }
  }
  if (!added) {
    for (const auto& [names, add] : commands) add(app, exit_code);
    // Run by toolguard-serve before this parser (above); listed for --help
    // and for a mistyped `toolguard serv`.
    app.add_subcommand("serve",
                       "Run the decision service: HTTP checks for many agents, the web queue "
                       "where people answer asks, tokens and the shared store (toolguard serve "
                       "--help; docs/serve.md)");
  }
  // Bare `toolguard`: what it can do, not "a subcommand is required".
  if (argc < 2) {
    std::cout << app.help();
    return kExitError;
  }
  // `toolguard chek`, `toolguard policy lnt`: name the command that was
  // meant, not "a subcommand is required".
  if (std::optional<std::string> unknown = command_line::unknownCommandMessage(app, argc, argv)) {
    std::cerr << "toolguard: " << *unknown << "\n";
    return kExitError;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (std::optional<std::string> unknown =
            command_line::unknownOptionMessage(app, argc, argv, "toolguard")) {
      std::cerr << "toolguard: " << *unknown << "\n";
      return kExitError;
    }
    app.exit(e);
    return kExitError;
  } catch (const std::exception& e) {
    std::cerr << "toolguard: internal error: " << e.what() << "\n";
    return kExitError;
  }
  return exit_code;
}

}  // namespace toolguard::cli
