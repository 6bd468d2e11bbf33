// Mode 3: the confirmation prompt. A CONFIRM tool is called twice; whoever
// answers (a person at the terminal, or --answers) allows once or denies,
// and a deny's reason reaches the model.
#include <fcntl.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <mutex>

#include "demo_modes.hpp"
#include "demo_tools.hpp"
#include "toolguard/terminal_prompt.hpp"
#include "toolguard/tool_registry.hpp"

namespace demo {

using nlohmann::json;
using toolguard::ApprovalAnswer;
using toolguard::ApprovalOutcome;
using toolguard::ToolCall;
using toolguard::ToolOutcome;

namespace {

// True when this process has a terminal to ask on (terminalApprovalHandler
// opens /dev/tty, which works even when stdin and stdout are pipes).
bool haveTerminal() {
  int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return false;
  close(fd);
  return true;
}

// Answers from --answers, one per request, in order. The handler calls the
// callback on a thread of its own, hence the mutex.
class ScriptedAnswers {
 public:
  ScriptedAnswers(std::vector<ApprovalAnswer> answers, Report& report)
      : answers_(std::move(answers)), report_(report) {}

  ApprovalAnswer answer(const toolguard::ApprovalRequest& request) {
    std::lock_guard lock(mutex_);
    // What a person would see at the terminal prompt.
    report_.note("the prompt a person would see:");
    report_.block(toolguard::renderApprovalRequest(request));
    if (next_ == answers_.size()) {
      ApprovalAnswer none;  // no answer left: deny, and say nobody answered
      none.by_person = false;
      none.reason = "no scripted answer left";
      report_.note("scripted answer: none left (deny)");
      return none;
    }
    const ApprovalAnswer& answer = answers_[next_++];
    report_.note(answer.outcome == ApprovalOutcome::AllowOnce
                     ? "scripted answer: allow once"
                     : "scripted answer: deny, reason \"" + answer.reason + "\"");
    return answer;
  }

 private:
  std::mutex mutex_;
  std::vector<ApprovalAnswer> answers_;
  size_t next_ = 0;
  Report& report_;
};

// The handler that settles the asks: --answers, else the terminal, else
// nobody (every ask denied, saying why).
std::shared_ptr<toolguard::ApprovalHandler> chooseHandler(const DemoSettings& settings,
                                                          Report& report) {
  if (settings.answers) {
    report.note("Answers come from --answers (callbackApprovalHandler).");
    auto script = std::make_shared<ScriptedAnswers>(*settings.answers, report);
    return toolguard::callbackApprovalHandler(
        [script](const toolguard::ApprovalRequest& request) { return script->answer(request); });
  }
  if (haveTerminal()) {
    report.note("You will be asked on this terminal (terminalApprovalHandler).");
    report.note("Try 1 (allow once) the first time and 3 (deny, with a reason) the second.");
    return toolguard::terminalApprovalHandler();
  }
  report.note("No terminal and no --answers: every request is denied (autoDenyApprovalHandler).");
  return toolguard::autoDenyApprovalHandler("no terminal to ask on and no --answers given");
}

// What the demo expects of an outcome, given how the request was answered:
// an allow runs the tool, a deny reaches the model with the person's reason.
Expect followsTheAnswer(const ToolOutcome& outcome) {
  const auto* how =
      outcome.decision && outcome.decision->approval ? &*outcome.decision->approval : nullptr;
  if (how != nullptr && (how->outcome == "allow-once" || how->outcome == "always-allow")) {
    return Expect::result("wrote");
  }
  if (how != nullptr && how->outcome == "deny") return Expect::denied(how->reason);
  return Expect::denied();  // nobody answered
}

}  // namespace

bool runPromptMode(const DemoSettings& settings, Report& report) {
  report.heading("Mode 3: the confirmation prompt");
  report.note("write_file is CONFIRM: every call waits for an answer.");

  toolguard::GuardOptions options;
  options.approval_handler = chooseHandler(settings, report);
  options.approval_timeout = std::chrono::minutes(2);  // no answer by then: denied
  toolguard::ToolRegistry registry(options);
  addTool(registry, writeFileTool(), toolguard::ToolPolicy::Confirm);

  toolguard::CallContext context;
  context.cwd = settings.workspace.string();
  context.session = "security-demo";  // "always allow for this session" needs a session
  context.mode = toolguard::InteractionMode::Interactive;

  const ToolCall calls[] = {
      {"write_file", {{"path", "notes.txt"}, {"content", "first draft"}}, context},
      {"write_file", {{"path", "plan.md"}, {"content", "# Plan\n"}}, context}};
  int number = 0;
  for (const ToolCall& call : calls) {
    report.section("call " + std::to_string(++number));
    std::cout.flush();  // the terminal prompt writes to /dev/tty, not through std::cout
    ToolOutcome outcome = registry.executeTool(call);
    report.step(call, outcome, followsTheAnswer(outcome));
    if (outcome.decision && outcome.decision->approval) {
      const auto& how = *outcome.decision->approval;
      report.note("settled by: " + how.by +
                  (how.outcome.empty() ? " (nobody answered)" : ", answer: " + how.outcome));
    }
    // What goes back to the model as the tool message.
    report.note("the model receives: " + toolguard::terminalSafe(outcome.modelContent()));
  }
  return report.allAsExpected();
}

bool parseAnswerKeys(const std::string& keys, std::vector<ApprovalAnswer>& answers,
                     std::string& error) {
  answers.clear();
  size_t start = 0;
  while (start <= keys.size()) {
    size_t end = keys.find(',', start);
    if (end == std::string::npos) end = keys.size();
    const std::string key = keys.substr(start, end - start);
    const std::string first = key.substr(0, key.find(':'));
    ApprovalAnswer answer;
    if ((first == "y" || first == "1") && first == key) {
      answer.outcome = ApprovalOutcome::AllowOnce;
    } else if (first == "n" || first == "3") {
      answer.outcome = ApprovalOutcome::Deny;
      answer.reason =
          key.size() > first.size() ? key.substr(first.size() + 1) : "not now (scripted answer)";
    } else {
      error = "unknown answer '" + key + "' (expected y, 1, n, 3 or n:REASON)";
      return false;
    }
    answers.push_back(std::move(answer));
    start = end + 1;
  }
  return true;
}

}  // namespace demo
