// toolguard: guards the tool calls of LLM agents.
#include "cli/command_line.hpp"

int main(int argc, char** argv) {
  return toolguard::cli::runToolguard(argc, argv);
}
