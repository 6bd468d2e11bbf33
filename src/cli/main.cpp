// toolguard: guards the tool calls of LLM agents.
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/unknown_command.hpp"

int main(int argc, char** argv) {
  using namespace toolguard::cli;
  CLI::App app{
      "toolguard: decides whether an LLM agent's tool call may run (allow, ask, deny, abort)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "toolguard 0.1.0");
  int exit_code = kExitOk;
  addCheckCommand(app, exit_code);
  addExplainCommand(app, exit_code);
  addTestCommand(app, exit_code);
  addPolicyCommand(app, exit_code);
  addDemoCommand(app, exit_code);
  addValidateCommand(app, exit_code);
  addAuditCommand(app, exit_code);
  addApprovalsCommand(app, exit_code);
  addMcpCommand(app, exit_code);
  addInstallCommands(app, exit_code);
  // `toolguard chek`, `toolguard policy lnt`: name the command that was
  // meant, not "a subcommand is required".
  if (std::optional<std::string> unknown = unknownCommandMessage(app, argc, argv)) {
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
    app.exit(e);
    return kExitError;
  } catch (const std::exception& e) {
    std::cerr << "toolguard: internal error: " << e.what() << "\n";
    return kExitError;
  }
  return exit_code;
}
