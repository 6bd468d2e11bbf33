// guarded_agent: an agent whose tool calls all go through toolguard.
//
//   guarded_agent --base-url http://127.0.0.1:8080/v1 --model NAME [--stream]
//                 [--policy FILE] [--api-key-env VAR] [--max-turns N]
//                 [--headless] [--audit-log FILE] PROMPT
//
// Talks to any OpenAI-compatible chat-completions endpoint (llama.cpp's
// server, Ollama, vLLM, hosted APIs), runs the tools the model asks for in
// the current directory, and prints one JSON line per event on stdout.
// Exit status: 0 the model finished, 3 aborted by the guard, 4 turn limit,
// 5 a call denied without --stream (which ends the generation), 1 an error
// (endpoint, policy), 2 bad usage.
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "toolguard/agent.hpp"
#include "toolguard/policy_loader.hpp"
#include "toolguard/terminal_prompt.hpp"
#include "workspace_tools.hpp"

namespace {

struct Arguments {
  std::string base_url;
  std::string model;
  std::string prompt;
  std::string api_key_env = "OPENAI_API_KEY";
  std::vector<std::string> policy_files;
  std::string audit_log;
  size_t max_turns = 16;
  bool stream = false;
  bool headless = false;
};

constexpr const char* kUsage =
    "usage: guarded_agent --base-url URL --model NAME [--stream] [--policy FILE]...\n"
    "                     [--api-key-env VAR] [--max-turns N] [--headless]\n"
    "                     [--audit-log FILE] PROMPT\n";

/// Parses the command line; nullopt (after printing why) on bad usage.
std::optional<Arguments> parseArguments(int argc, char** argv) {
  Arguments args;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= argc) return std::nullopt;
      return std::string(argv[++i]);
    };
    std::optional<std::string> v;
    if (flag == "--stream") {
      args.stream = true;
    } else if (flag == "--headless") {
      args.headless = true;
    } else if (flag == "--base-url" && (v = value())) {
      args.base_url = *v;
    } else if (flag == "--model" && (v = value())) {
      args.model = *v;
    } else if (flag == "--policy" && (v = value())) {
      args.policy_files.push_back(*v);
    } else if (flag == "--api-key-env" && (v = value())) {
      args.api_key_env = *v;
    } else if (flag == "--audit-log" && (v = value())) {
      args.audit_log = *v;
    } else if (flag == "--max-turns" && (v = value())) {
      try {
        args.max_turns = std::stoul(*v);
      } catch (const std::exception&) {
        std::cerr << "guarded_agent: --max-turns needs a number\n";
        return std::nullopt;
      }
    } else if (!flag.empty() && flag[0] != '-' && args.prompt.empty()) {
      args.prompt = flag;
    } else {
      std::cerr << "guarded_agent: unexpected argument '" << flag << "'\n";
      return std::nullopt;
    }
  }
  if (args.base_url.empty() || args.model.empty() || args.prompt.empty()) {
    std::cerr << "guarded_agent: --base-url, --model and a PROMPT are required\n";
    return std::nullopt;
  }
  return args;
}

/// The guard's options: ask on the terminal when there is one (and
/// --headless was not given), remember approvals in ~/.toolguard, audit if asked.
toolguard::GuardOptions guardOptions(const Arguments& args) {
  toolguard::GuardOptions options;
  if (!args.headless && isatty(STDIN_FILENO)) {
    options.approval_handler = toolguard::terminalApprovalHandler();
  }
  options.store = std::make_shared<toolguard::ApprovalStore>(toolguard::toolguardHome());
  if (!args.audit_log.empty()) {
    toolguard::AuditLogOptions audit;
    audit.path = args.audit_log;
    options.audit_log = std::make_shared<toolguard::AuditLog>(audit);
  }
  return options;
}

int exitStatusOf(toolguard::AgentStop stop) {
  switch (stop) {
    case toolguard::AgentStop::Completed:
      return 0;
    case toolguard::AgentStop::Aborted:
      return 3;
    case toolguard::AgentStop::TurnLimit:
      return 4;
    case toolguard::AgentStop::Denied:
      return 5;
    default:
      return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  auto args = parseArguments(argc, argv);
  if (!args) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string cwd = std::filesystem::current_path().string();
  try {
    // The same layers `toolguard check` reads: built-in default, the user's
    // and the project's policy files, managed files, then --policy files.
    toolguard::PolicySources sources = toolguard::discoverPolicySources(cwd);
    for (const auto& file : args->policy_files) sources.explicit_files.emplace_back(file);
    toolguard::ToolRegistry registry(toolguard::loadPolicy(sources), guardOptions(*args));
    guarded_agent::registerWorkspaceTools(registry);
    registry.addResultFilter(toolguard::secretRedactionFilter());
    registry.addResultFilter(toolguard::outputCapFilter(32 * 1024));

    toolguard::AgentOptions options;
    options.endpoint.base_url = args->base_url;
    options.endpoint.model = args->model;
    options.endpoint.api_key = toolguard::apiKeyFromEnvironment(args->api_key_env);
    options.stream = args->stream;
    options.max_turns = args->max_turns;
    options.context.cwd = cwd;
    options.context.agent = "guarded_agent";
    if (args->headless || !isatty(STDIN_FILENO)) {
      options.context.mode = toolguard::InteractionMode::Headless;
    }
    toolguard::Agent agent(options, registry);
    toolguard::AgentResult result = agent.run(args->prompt, [](const toolguard::AgentEvent& e) {
      std::cout << e.toJson().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                << std::endl;
    });
    return exitStatusOf(result.stop);
  } catch (const std::exception& e) {
    std::cerr << "guarded_agent: " << e.what() << "\n";
    return 1;
  }
}
