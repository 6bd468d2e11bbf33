#include "toolguard/terminal_prompt.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>

namespace toolguard {
namespace terminal_prompt_test {

using namespace std::chrono_literals;

// ---------------------------------------------------------------- terminalSafe

TEST(TerminalSafe, EscapeSequencesAreShownNotSent) {
  EXPECT_EQ(terminalSafe("\x1b[2J"), "\\x1b[2J");
  EXPECT_EQ(terminalSafe("\x1b]0;title\x07"), "\\x1b]0;title\\x07");
  EXPECT_EQ(terminalSafe("a\x1b[31mred"), "a\\x1b[31mred");
}

TEST(TerminalSafe, ControlCharactersAreEscaped) {
  EXPECT_EQ(terminalSafe("safe\rrm -rf /"), "safe\\rrm -rf /");
  EXPECT_EQ(terminalSafe("abc\b\b\bxyz"), "abc\\x08\\x08\\x08xyz");
  EXPECT_EQ(terminalSafe(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(terminalSafe("a\x7f"), "a\\x7f");
  EXPECT_EQ(terminalSafe("line1\nline2\tend"), "line1\\nline2\\tend");
  EXPECT_EQ(terminalSafe("\x01\x1f"), "\\x01\\x1f");
}

TEST(TerminalSafe, C1ControlsAreEscaped) {
  EXPECT_EQ(terminalSafe("\xc2\x9b"
                         "2J"),
            "\\u009b2J");                          // U+009B CSI
  EXPECT_EQ(terminalSafe("\xc2\x85"), "\\u0085");  // NEL
}

TEST(TerminalSafe, InvisibleAndBidiCharactersAreEscaped) {
  EXPECT_EQ(terminalSafe("abc\u202Efdp.exe"), "abc\\u202efdp.exe");
  EXPECT_EQ(terminalSafe("rm\u200B -rf"), "rm\\u200b -rf");
  EXPECT_EQ(terminalSafe("\uFEFFx"), "\\ufeffx");
  EXPECT_EQ(terminalSafe("\u2066x\u2069"), "\\u2066x\\u2069");
  EXPECT_EQ(terminalSafe("a\u2060b\u00ADc"), "a\\u2060b\\u00adc");
  EXPECT_EQ(terminalSafe("\u2028"), "\\u2028");
  // Tag characters (invisible "ASCII" smuggled into text).
  EXPECT_EQ(terminalSafe("\U000E0041"), "\\U000e0041");
}

TEST(TerminalSafe, InvalidUtf8BytesAreEscaped) {
  EXPECT_EQ(terminalSafe("a\xff"
                         "b"),
            "a\\xffb");
  EXPECT_EQ(terminalSafe("\xc3"), "\\xc3");                    // cut sequence
  EXPECT_EQ(terminalSafe("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
  EXPECT_EQ(terminalSafe("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // surrogate
}

TEST(TerminalSafe, NormalTextIsKept) {
  EXPECT_EQ(terminalSafe("git status"), "git status");
  EXPECT_EQ(terminalSafe("café 日本 😀"), "café 日本 😀");
  EXPECT_EQ(terminalSafe(""), "");
}

TEST(TerminalSafe, BackslashesAreDoubledSoEscapesAreUnambiguous) {
  EXPECT_EQ(terminalSafe("printf 'a\\nb'"), "printf 'a\\\\nb'");
  EXPECT_NE(terminalSafe("a\\x1b"), terminalSafe("a\x1b"));
}

// ------------------------------------------------------ renderApprovalRequest

ApprovalRequest request(nlohmann::json args) {
  ApprovalRequest request;
  request.call.tool = "Bash";
  request.call.args = std::move(args);
  request.call.context.cwd = "/work/app";
  request.call.context.session = "s-1";
  request.decision.verdict = Verdict::Ask;
  request.decision.reason = "deleting files recursively asks first";
  request.decision.rule_id = "rm-recursive";
  request.decision.source = SourceLocation{"policy.yaml", 12, 5};
  request.tool.category = "shell";
  request.tool.risk = RiskLevel::High;
  request.tool.side_effect = SideEffect::Irreversible;
  request.options = {{ApprovalBinding::ExactCall, "key", "this exact call"},
                     {ApprovalBinding::Pattern, "git push *", "commands matching \"git push *\""},
                     {ApprovalBinding::Tool, "", "every Bash call"}};
  request.scopes = {ApprovalScope::Session, ApprovalScope::Project, ApprovalScope::Agent,
                    ApprovalScope::Global};
  return request;
}

// True when `text` could change what a terminal shows beyond printing
// characters and line ends: a control byte, DEL, a C1 control, invalid
// UTF-8, or an invisible or bidi formatting character.
std::string firstUnsafe(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte < 0x20 && byte != '\n') || byte == 0x7f) return "byte " + std::to_string(byte);
    if (byte == 0xc2 && i + 1 < text.size()) {
      const auto next = static_cast<unsigned char>(text[i + 1]);
      if (next >= 0x80 && next <= 0x9f) return "C1 control";
    }
  }
  for (const char* invisible : {"\u200B", "\u200D", "\u200E", "\u202A", "\u202E", "\u2066",
                                "\u2069", "\u2060", "\uFEFF", "\U000E0041"}) {
    if (text.find(invisible) != std::string::npos) return "invisible character";
  }
  for (unsigned char bad : {0xc0, 0xc1, 0xf5, 0xf8, 0xfe, 0xff}) {
    if (text.find(static_cast<char>(bad)) != std::string::npos) return "invalid UTF-8";
  }
  return "";
}

TEST(RenderApprovalRequest, ShowsToolReasonRuleAndArguments) {
  const std::string text = renderApprovalRequest(request({{"command", "rm -rf build"}}));
  EXPECT_NE(text.find("Tool:      Bash\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Risk:      high, irreversible, category shell\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("Reason:    deleting files recursively asks first\n"), std::string::npos);
  EXPECT_NE(text.find("Rule:      rm-recursive (policy.yaml:12:5)\n"), std::string::npos);
  EXPECT_NE(text.find("Directory: /work/app\n"), std::string::npos);
  EXPECT_NE(text.find("    command: \"rm -rf build\"\n"), std::string::npos) << text;
}

TEST(RenderApprovalRequest, LongValuesAreCut) {
  PromptLayout layout;
  layout.max_value_chars = 100;
  const std::string text =
      renderApprovalRequest(request({{"content", std::string(1000, 'x')}}), layout);
  EXPECT_NE(text.find("\"" + std::string(100, 'x') + "\"… (900 more bytes)"), std::string::npos)
      << text;
  EXPECT_EQ(text.find(std::string(101, 'x')), std::string::npos);
}

TEST(RenderApprovalRequest, CutsNeverSplitACharacter) {
  PromptLayout layout;
  layout.max_value_chars = 7;  // "ééé" is 6 bytes; the 4th é would straddle the cut
  const std::string text = renderApprovalRequest(request({{"text", "éééééé"}}), layout);
  EXPECT_NE(text.find("\"ééé\"… (6 more bytes)"), std::string::npos) << text;
  EXPECT_EQ(firstUnsafe(text), "");
}

TEST(RenderApprovalRequest, ManyArgumentsAreCutAfterMaxLines) {
  nlohmann::json args = nlohmann::json::object();
  for (int i = 0; i < 100; ++i) args["key" + std::to_string(100 + i)] = i;
  PromptLayout layout;
  layout.max_lines = 10;
  const std::string text = renderApprovalRequest(request(args), layout);
  EXPECT_NE(text.find("key109: 9\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("key110"), std::string::npos);
  EXPECT_NE(text.find("… (90 more lines)"), std::string::npos) << text;
}

TEST(RenderApprovalRequest, NestedValuesAreIndented) {
  const std::string text = renderApprovalRequest(request({{"a", {{"b", {{"c", 1}}}}},
                                                          {"files", {"x.txt", true, nullptr}},
                                                          {"e", nlohmann::json::object()},
                                                          {"f", nlohmann::json::array()}}));
  EXPECT_NE(text.find("    a:\n      b:\n        c: 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    files:\n      - \"x.txt\"\n      - true\n      - null\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    e: {}\n    f: []\n"), std::string::npos) << text;
}

TEST(RenderApprovalRequest, MultiLineValuesStayOnOneLine) {
  const std::string text =
      renderApprovalRequest(request({{"command", "echo hi\nrm -rf ~"}, {"say", "\"quoted\""}}));
  EXPECT_NE(text.find("    command: \"echo hi\\nrm -rf ~\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    say: \"\\\"quoted\\\"\"\n"), std::string::npos) << text;
}

TEST(RenderApprovalRequest, OddKeysAreQuoted) {
  const std::string text = renderApprovalRequest(request({{"a key: \"x\"", 1}, {"", 2}}));
  EXPECT_NE(text.find("    \"a key: \\\"x\\\"\": 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    \"\": 2\n"), std::string::npos) << text;
}

TEST(RenderApprovalRequest, NoArguments) {
  EXPECT_NE(renderApprovalRequest(request(nlohmann::json::object())).find("Arguments: (none)"),
            std::string::npos);
}

TEST(RenderApprovalRequest, DeepNestingIsCutNotRecursedForever) {
  nlohmann::json deep = 1;
  for (int i = 0; i < 200; ++i) deep = nlohmann::json::array({deep});
  PromptLayout layout;
  layout.max_lines = 1000;
  const std::string text = renderApprovalRequest(request({{"deep", deep}}), layout);
  EXPECT_NE(text.find("… (nested too deep)"), std::string::npos);
}

TEST(RenderApprovalRequest, NothingInTheOutputCanControlTheTerminal) {
  std::string hostile = "\x1b[2J\x1b]0;title\x07\r\b\x7f\xc2\x9b\u202E\u200B\uFEFF\xff";
  hostile += '\0';
  hostile += "\U000E0041";
  ApprovalRequest r = request({{"command", hostile},
                               {hostile, hostile},
                               {"list", {hostile, {{"inner", hostile}}}},
                               {"long", hostile + std::string(500, 'y') + hostile}});
  r.call.tool = "Ba\x1b[8msh";
  r.decision.reason = "reason " + hostile;
  r.decision.rule_id = "rule" + hostile;
  r.decision.source.file = "file" + hostile;
  r.decision.decided_on = hostile;
  r.call.context.cwd = "/w" + hostile;
  const std::string text = renderApprovalRequest(r);
  EXPECT_EQ(firstUnsafe(text), "") << text;
  EXPECT_NE(text.find("Tool:      Ba\\x1b[8msh"), std::string::npos) << text;
  EXPECT_NE(text.find("\\x1b[2J\\x1b]0;title\\x07\\r\\x08\\x7f\\u009b\\u202e\\u200b\\ufeff\\xff"
                      "\\x00\\U000e0041"),
            std::string::npos)
      << text;
}

// ---------------------------------------------- promptOnTerminal under a pty

// A pseudo-terminal: the prompt runs on the slave; the test types on the
// master and reads what the prompt wrote.
class Pty {
 public:
  Pty() {
    master_ = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master_ < 0 || ::grantpt(master_) != 0 || ::unlockpt(master_) != 0) {
      throw std::runtime_error("no pseudo-terminal");
    }
    const char* name = ::ptsname(master_);
    if (name == nullptr) throw std::runtime_error("ptsname failed");
    slave_ = ::open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (slave_ < 0) throw std::runtime_error("cannot open the pty slave");
  }
  ~Pty() {
    closeMaster();
    if (slave_ >= 0) ::close(slave_);
  }
  Pty(const Pty&) = delete;
  Pty& operator=(const Pty&) = delete;

  int slave() const { return slave_; }
  int master() const { return master_; }

  void closeMaster() {
    if (master_ >= 0) ::close(master_);
    master_ = -1;
  }

  void type(std::string_view keys) {
    ASSERT_EQ(::write(master_, keys.data(), keys.size()), static_cast<ssize_t>(keys.size()));
  }

  /// Reads the prompt's output until `text` appears after what earlier
  /// waits matched (or 2 s pass); true when it did.
  bool waitFor(std::string_view text) {
    const auto give_up = std::chrono::steady_clock::now() + 2s;
    for (;;) {
      const size_t found = output_.find(text, cursor_);
      if (found != std::string::npos) {
        cursor_ = found + text.size();
        return true;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          give_up - std::chrono::steady_clock::now());
      if (left <= 0ms || !readSome(static_cast<int>(left.count()))) return false;
    }
  }

  /// Everything the prompt wrote (reads what is left, for a short while).
  const std::string& output() {
    while (master_ >= 0 && readSome(50)) {
    }
    return output_;
  }

 private:
  bool readSome(int timeout_ms) {
    if (master_ < 0) return false;
    pollfd ready{master_, POLLIN, 0};
    if (::poll(&ready, 1, timeout_ms) <= 0) return false;
    char chunk[4096];
    const ssize_t n = ::read(master_, chunk, sizeof chunk);
    if (n <= 0) return false;
    output_.append(chunk, static_cast<size_t>(n));
    return true;
  }

  int master_ = -1;
  int slave_ = -1;
  std::string output_;
  size_t cursor_ = 0;
};

// Runs promptOnTerminal on the pty's slave on a thread of its own.
class PromptOnPty {
 public:
  explicit PromptOnPty(ApprovalRequest request, PromptLayout layout = {})
      : request_(std::move(request)), layout_(layout) {
    ::tcgetattr(pty.slave(), &before);
    answer_ = std::async(std::launch::async, [this] {
      return promptOnTerminal(pty.slave(), pty.slave(), request_, layout_);
    });
  }
  ~PromptOnPty() {
    pty.closeMaster();  // never leave the prompt blocked
    if (answer_.valid()) answer_.wait();
  }

  /// The answer; closes the master (which ends the prompt) if it takes over 2 s.
  ApprovalAnswer answer() {
    if (answer_.wait_for(2s) != std::future_status::ready) {
      ADD_FAILURE() << "the prompt did not finish; output so far:\n" << pty.output();
      pty.closeMaster();
    }
    return answer_.get();
  }

  /// True when the slave's mode is what it was before the prompt.
  bool modeRestored() const {
    termios after{};
    ::tcgetattr(pty.slave(), &after);
    const tcflag_t flags = ICANON | ECHO | ISIG | IEXTEN;
    return (after.c_lflag & flags) == (before.c_lflag & flags) &&
           after.c_cc[VMIN] == before.c_cc[VMIN] && after.c_cc[VTIME] == before.c_cc[VTIME];
  }

  Pty pty;
  termios before{};

 private:
  ApprovalRequest request_;
  PromptLayout layout_;
  std::future<ApprovalAnswer> answer_;
};

constexpr std::string_view kChoice = "Choice: ";

TEST(PromptOnTerminal, OneAllowsOnce) {
  PromptOnPty prompt(request({{"command", "git push"}}));
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("1");
  const ApprovalAnswer answer = prompt.answer();
  EXPECT_EQ(answer.outcome, ApprovalOutcome::AllowOnce);
  EXPECT_TRUE(prompt.pty.waitFor("→ allowed once"));
  EXPECT_TRUE(prompt.modeRestored());
}

TEST(PromptOnTerminal, YAllowsOnce) {
  PromptOnPty prompt(request({{"command", "git push"}}));
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("y");
  EXPECT_EQ(prompt.answer().outcome, ApprovalOutcome::AllowOnce);
}

TEST(PromptOnTerminal, TheTerminalModeIsRawWhileAskingAndRestoredAfter) {
  PromptOnPty prompt(request({{"command", "git push"}}));
  ASSERT_TRUE(prompt.before.c_lflag & ICANON);  // a new pty starts canonical, with echo
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  termios during{};
  ASSERT_EQ(::tcgetattr(prompt.pty.slave(), &during), 0);
  EXPECT_FALSE(during.c_lflag & (ICANON | ECHO | ISIG));
  EXPECT_EQ(during.c_cc[VMIN], 1);
  prompt.pty.type("y");
  EXPECT_EQ(prompt.answer().outcome, ApprovalOutcome::AllowOnce);
  EXPECT_TRUE(prompt.modeRestored());
}

TEST(PromptOnTerminal, AlwaysAllowPicksTheOptionAndTheScope) {
  for (const char* key : {"2", "a"}) {
    PromptOnPty prompt(request({{"command", "git push origin main"}}));
    ASSERT_TRUE(prompt.pty.waitFor(kChoice));
    prompt.pty.type(key);
    ASSERT_TRUE(prompt.pty.waitFor("Always allow which calls?"));
    ASSERT_TRUE(prompt.pty.waitFor(kChoice));
    prompt.pty.type("2");
    ASSERT_TRUE(prompt.pty.waitFor("this project (/work/app)"));
    ASSERT_TRUE(prompt.pty.waitFor(kChoice));
    prompt.pty.type("3");
    const ApprovalAnswer answer = prompt.answer();
    EXPECT_EQ(answer.outcome, ApprovalOutcome::AlwaysAllow) << key;
    EXPECT_EQ(answer.option, 1u);
    EXPECT_EQ(answer.scope, ApprovalScope::Agent);
    EXPECT_TRUE(prompt.pty.waitFor("→ always allowed: commands matching \"git push *\""));
    EXPECT_TRUE(prompt.modeRestored());
  }
}

TEST(PromptOnTerminal, AlwaysAllowWithOneOptionAndOneScopeAsksNothingMore) {
  ApprovalRequest r = request({{"command", "ls"}});
  r.options.resize(1);
  r.scopes = {ApprovalScope::Global};
  PromptOnPty prompt(r);
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("  2 \r\n");  // blanks around the answer are ignored
  const ApprovalAnswer answer = prompt.answer();
  EXPECT_EQ(answer.outcome, ApprovalOutcome::AlwaysAllow);
  EXPECT_EQ(answer.option, 0u);
  EXPECT_EQ(answer.scope, ApprovalScope::Global);
}

TEST(PromptOnTerminal, DenyPassesTheReasonTyped) {
  PromptOnPty prompt(request({{"command", "git reset --hard"}}));
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("  3 \r");
  ASSERT_TRUE(prompt.pty.waitFor("Reason for the model (optional, Enter to skip):"));
  prompt.pty.type("use git stash instead\r");
  const ApprovalAnswer answer = prompt.answer();
  EXPECT_EQ(answer.outcome, ApprovalOutcome::Deny);
  EXPECT_EQ(answer.reason, "use git stash instead");
  EXPECT_TRUE(prompt.pty.waitFor("use git stash instead"));  // echoed
  EXPECT_TRUE(prompt.pty.waitFor("→ denied"));
  EXPECT_TRUE(prompt.modeRestored());
}

TEST(PromptOnTerminal, TheReasonLineHandlesBackspaceAndUtf8) {
  PromptOnPty prompt(request({{"command", "git reset --hard"}}));
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("n");
  ASSERT_TRUE(prompt.pty.waitFor("Enter to skip): "));
  prompt.pty.type("  use stasj\x7fh\b\bsh, café\x1b[D \x01\r");
  EXPECT_EQ(prompt.answer().reason, "use stash, café");
}

TEST(PromptOnTerminal, TheReasonIsAtMost500Bytes) {
  PromptOnPty prompt(request({{"command", "git reset --hard"}}));
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("n");
  ASSERT_TRUE(prompt.pty.waitFor("Enter to skip): "));
  prompt.pty.type(std::string(600, 'r') + "\r");
  EXPECT_EQ(prompt.answer().reason, std::string(500, 'r'));
}

TEST(PromptOnTerminal, DenyWithoutReason) {
  PromptOnPty prompt(request({{"command", "git reset --hard"}}));
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("n");
  ASSERT_TRUE(prompt.pty.waitFor("Enter to skip): "));
  prompt.pty.type("\r");
  const ApprovalAnswer answer = prompt.answer();
  EXPECT_EQ(answer.outcome, ApprovalOutcome::Deny);
  EXPECT_EQ(answer.reason, "");
}

TEST(PromptOnTerminal, EscDeniesAtOnce) {
  PromptOnPty prompt(request({{"command", "git push"}}));
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("\x1b");
  const ApprovalAnswer answer = prompt.answer();
  EXPECT_EQ(answer.outcome, ApprovalOutcome::Deny);
  EXPECT_EQ(answer.reason, "");
  EXPECT_TRUE(prompt.pty.waitFor("→ denied"));
  EXPECT_TRUE(prompt.modeRestored());
}

TEST(PromptOnTerminal, EscAtALaterQuestionDenies) {
  PromptOnPty prompt(request({{"command", "git push"}}));
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("a");
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("\x1b");
  EXPECT_EQ(prompt.answer().outcome, ApprovalOutcome::Deny);
}

TEST(PromptOnTerminal, ArrowKeysAreNotEsc) {
  PromptOnPty prompt(request({{"command", "git push"}}));
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("\x1b[A");
  ASSERT_TRUE(prompt.pty.waitFor("Press 1, 2 or 3"));
  prompt.pty.type("\x1bOB");
  ASSERT_TRUE(prompt.pty.waitFor("Press 1, 2 or 3"));
  prompt.pty.type("y");
  EXPECT_EQ(prompt.answer().outcome, ApprovalOutcome::AllowOnce);
}

TEST(PromptOnTerminal, PastedTextIsNotAnAnswer) {
  PromptOnPty prompt(request({{"command", "git push"}}));
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("\x1b[200~yes\x1b[201~");
  ASSERT_TRUE(prompt.pty.waitFor("Press 1, 2 or 3"));
  prompt.pty.type("n");
  ASSERT_TRUE(prompt.pty.waitFor("Enter to skip): "));
  prompt.pty.type("\r");
  EXPECT_EQ(prompt.answer().outcome, ApprovalOutcome::Deny);
}

TEST(PromptOnTerminal, CtrlCAndCtrlDDeny) {
  for (const char* key : {"\x03", "\x04"}) {
    PromptOnPty prompt(request({{"command", "git push"}}));
    ASSERT_TRUE(prompt.pty.waitFor(kChoice));
    prompt.pty.type(key);
    const ApprovalAnswer answer = prompt.answer();
    EXPECT_EQ(answer.outcome, ApprovalOutcome::Deny);
    EXPECT_EQ(answer.reason, "");
    EXPECT_TRUE(prompt.modeRestored());
  }
}

TEST(PromptOnTerminal, AClosedTerminalDenies) {
  PromptOnPty prompt(request({{"command", "git push"}}));
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.closeMaster();
  const ApprovalAnswer answer = prompt.answer();
  EXPECT_EQ(answer.outcome, ApprovalOutcome::Deny);
  EXPECT_EQ(answer.reason, "the terminal closed before an answer");
}

TEST(PromptOnTerminal, AnUnknownKeyGetsAHintAndAnotherChance) {
  PromptOnPty prompt(request({{"command", "git push"}}));
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("x");
  ASSERT_TRUE(prompt.pty.waitFor("Press 1, 2 or 3 (or y, a, n; Esc denies)."));
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("Y");
  EXPECT_EQ(prompt.answer().outcome, ApprovalOutcome::AllowOnce);
}

TEST(PromptOnTerminal, TooManyUnknownKeysDeny) {
  PromptOnPty prompt(request({{"command", "git push"}}));
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("xxxxxxxxxxxxxxxy");
  const ApprovalAnswer answer = prompt.answer();
  EXPECT_EQ(answer.outcome, ApprovalOutcome::Deny);
  EXPECT_EQ(answer.reason, "no valid answer after 10 unrecognised keys");
}

TEST(PromptOnTerminal, NoAnswerInTimeDenies) {
  ApprovalRequest r = request({{"command", "git push"}});
  r.timeout = 200ms;
  const auto start = std::chrono::steady_clock::now();
  PromptOnPty prompt(r);
  const ApprovalAnswer answer = prompt.answer();
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(answer.outcome, ApprovalOutcome::Deny);
  EXPECT_EQ(answer.reason, "no answer within 200 ms");
  EXPECT_GE(took, 200ms);
  EXPECT_LT(took, 1500ms);
  EXPECT_TRUE(prompt.pty.waitFor("(no answer within 200 ms denies the call)"));
  EXPECT_TRUE(prompt.pty.waitFor("→ denied (no answer within 200 ms)"));
  EXPECT_TRUE(prompt.modeRestored());
}

TEST(PromptOnTerminal, TheTimeoutCoversTheWholePrompt) {
  ApprovalRequest r = request({{"command", "git push"}});
  r.timeout = 500ms;
  PromptOnPty prompt(r);
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("a");
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  const ApprovalAnswer answer = prompt.answer();
  EXPECT_EQ(answer.outcome, ApprovalOutcome::Deny);
  EXPECT_EQ(answer.reason, "no answer within 500 ms");
}

TEST(PromptOnTerminal, ShowsTheToolAndEscapesTheArguments) {
  PromptOnPty prompt(request({{"command", "echo \x1b[2J\x1b]0;owned\x07 done"}}));
  ASSERT_TRUE(prompt.pty.waitFor(kChoice));
  prompt.pty.type("\x1b");
  EXPECT_EQ(prompt.answer().outcome, ApprovalOutcome::Deny);
  const std::string& output = prompt.pty.output();
  EXPECT_NE(output.find("Bash"), std::string::npos);
  EXPECT_NE(output.find("echo \\x1b[2J\\x1b]0;owned\\x07 done"), std::string::npos) << output;
  EXPECT_EQ(output.find('\x1b'), std::string::npos);  // the prompt itself uses none either
  EXPECT_EQ(output.find('\x07'), std::string::npos);
}

// Without a terminal: a pipe for keys, one for the output.
TEST(PromptOnTerminal, WorksOnPipes) {
  int keys[2];
  int out[2];
  ASSERT_EQ(::pipe(keys), 0);
  ASSERT_EQ(::pipe(out), 0);
  ASSERT_EQ(::write(keys[1], "2 2 4", 5), 5);
  ::close(keys[1]);
  const ApprovalAnswer answer =
      promptOnTerminal(keys[0], out[1], request({{"command", "git push"}}));
  EXPECT_EQ(answer.outcome, ApprovalOutcome::AlwaysAllow);
  EXPECT_EQ(answer.option, 1u);
  EXPECT_EQ(answer.scope, ApprovalScope::Global);
  ::close(keys[0]);
  ::close(out[1]);
  ::close(out[0]);
}

TEST(PromptOnTerminal, EndOfInputOnAPipeDenies) {
  int keys[2];
  int out[2];
  ASSERT_EQ(::pipe(keys), 0);
  ASSERT_EQ(::pipe(out), 0);
  ::close(keys[1]);
  const ApprovalAnswer answer =
      promptOnTerminal(keys[0], out[1], request({{"command", "git push"}}));
  EXPECT_EQ(answer.outcome, ApprovalOutcome::Deny);
  EXPECT_EQ(answer.reason, "the terminal closed before an answer");
  ::close(keys[0]);
  ::close(out[1]);
  ::close(out[0]);
}

TEST(PromptOnTerminal, AnOutputThatCannotBeWrittenDenies) {
  int keys[2];
  ASSERT_EQ(::pipe(keys), 0);
  ASSERT_EQ(::write(keys[1], "y", 1), 1);
  const int read_only = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  const ApprovalAnswer answer =
      promptOnTerminal(keys[0], read_only, request({{"command", "git push"}}));
  EXPECT_EQ(answer.outcome, ApprovalOutcome::Deny);
  EXPECT_EQ(answer.reason.rfind("cannot write to the terminal", 0), 0u) << answer.reason;
  ::close(read_only);
  ::close(keys[0]);
  ::close(keys[1]);
}

TEST(PromptOnTerminal, NoFileDescriptorDenies) {
  const ApprovalAnswer answer = promptOnTerminal(-1, -1, request({{"command", "git push"}}));
  EXPECT_EQ(answer.outcome, ApprovalOutcome::Deny);
  EXPECT_EQ(answer.reason, "no terminal to ask on");
}

// ------------------------------------------------- terminalApprovalHandler

// Runs `body` in a forked child; returns what it wrote to the given pipe end.
template <typename Body>
std::string inChild(Body body, const std::function<void(pid_t)>& meanwhile = {}) {
  int result[2];
  if (::pipe(result) != 0) return "pipe failed";
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(result[0]);
    const std::string text = body();
    if (::write(result[1], text.data(), text.size()) < 0) ::_exit(2);
    ::_exit(0);
  }
  ::close(result[1]);
  if (meanwhile) meanwhile(child);
  std::string text;
  char chunk[512];
  pollfd ready{result[0], POLLIN, 0};
  while (::poll(&ready, 1, 3000) > 0) {
    const ssize_t n = ::read(result[0], chunk, sizeof chunk);
    if (n <= 0) break;
    text.append(chunk, static_cast<size_t>(n));
  }
  ::close(result[0]);
  int status = 0;
  for (int i = 0; i < 200; ++i) {
    if (::waitpid(child, &status, WNOHANG) == child) return text;
    std::this_thread::sleep_for(10ms);
  }
  ::kill(child, SIGKILL);
  ::waitpid(child, &status, 0);
  return "child did not finish: " + text;
}

std::string describe(const ApprovalAnswer& answer) {
  return std::string(toString(answer.outcome)) + ":" + answer.reason + ";";
}

TEST(TerminalApprovalHandler, IsNamedTerminal) {
  EXPECT_EQ(terminalApprovalHandler()->name(), "terminal");
}

TEST(TerminalApprovalHandler, WithoutATerminalItDenies) {
  const std::string result = inChild([] {
    ::setsid();  // a new session has no controlling terminal: /dev/tty cannot open
    std::future<ApprovalAnswer> answer =
        terminalApprovalHandler()->ask(request({{"command", "git push"}}));
    if (answer.wait_for(0s) != std::future_status::ready) return std::string("not ready");
    return describe(answer.get());
  });
  EXPECT_EQ(result, "deny:no terminal to ask on (/dev/tty: No such device or address);");
}

// Makes the pty the controlling terminal of a new session in this (child) process.
bool takeTerminal(Pty& pty) {
  ::close(pty.master());
  return ::setsid() >= 0 && ::ioctl(pty.slave(), TIOCSCTTY, 0) == 0;
}

TEST(TerminalApprovalHandler, AsksOnTheControllingTerminal) {
  Pty pty;
  const std::string result = inChild(
      [&] {
        if (!takeTerminal(pty)) return std::string("no terminal");
        return describe(terminalApprovalHandler()->ask(request({{"command", "x"}})).get());
      },
      [&](pid_t) {
        if (pty.waitFor(kChoice)) pty.type("y");
      });
  EXPECT_EQ(result, "allow-once:;");
  EXPECT_NE(pty.output().find("Tool:      Bash"), std::string::npos);
}

TEST(TerminalApprovalHandler, AsksOneRequestAtATime) {
  // Two threads in one process, and a second process on the same terminal.
  Pty pty;
  const std::string result = inChild(
      [&] {
        if (!takeTerminal(pty)) return std::string("no terminal");
        const pid_t other = ::fork();
        if (other == 0) {
          const ApprovalAnswer answer =
              terminalApprovalHandler()->ask(request({{"command", "x"}})).get();
          ::_exit(answer.outcome == ApprovalOutcome::AllowOnce ? 10 : 11);
        }
        auto handler = terminalApprovalHandler();
        auto first = std::async(std::launch::async, [&] {
          return describe(handler->ask(request({{"command", "x"}})).get());
        });
        auto second = std::async(std::launch::async, [&] {
          return describe(handler->ask(request({{"command", "x"}})).get());
        });
        int status = 0;
        ::waitpid(other, &status, 0);
        return first.get() + second.get() + std::to_string(WEXITSTATUS(status));
      },
      [&](pid_t) {
        for (int i = 0; i < 3; ++i) {
          if (!pty.waitFor(kChoice)) return;
          pty.type("y");
          if (!pty.waitFor("→ allowed once")) return;
        }
      });
  EXPECT_EQ(result, "allow-once:;allow-once:;10");
  // Each prompt finished before the next began.
  const std::string& output = pty.output();
  size_t from = 0;
  for (int i = 0; i < 3; ++i) {
    const size_t start = output.find("toolguard: a tool call needs your approval", from);
    ASSERT_NE(start, std::string::npos) << output;
    const size_t end = output.find("→ allowed once", start);
    ASSERT_NE(end, std::string::npos) << output;
    EXPECT_EQ(output.find("toolguard: a tool call", start + 1),
              output.find("toolguard: a tool call", end));
    from = end;
  }
}

TEST(TerminalApprovalHandler, ABackgroundProcessDoesNotAsk) {
  // Reading the terminal from the background would stop the process (SIGTTIN).
  Pty pty;
  const std::string result = inChild([&] {
    if (!takeTerminal(pty)) return std::string("no terminal");
    const pid_t background = ::fork();
    if (background == 0) {
      ::setpgid(0, 0);  // a process group of its own: not the terminal's foreground
      const ApprovalAnswer answer =
          terminalApprovalHandler()->ask(request({{"command", "x"}})).get();
      const bool expected = answer.outcome == ApprovalOutcome::Deny &&
                            answer.reason == "the terminal is in use by another process group";
      ::_exit(expected ? 0 : 1);
    }
    int status = 0;
    ::waitpid(background, &status, 0);
    return std::string(WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "denied" : "asked");
  });
  EXPECT_EQ(result, "denied");
}

TEST(TerminalApprovalHandler, WaitingForAnotherPromptCountsAgainstTheTimeout) {
  Pty pty;
  int shown[2];  // the test tells the child when the first prompt is on the terminal
  ASSERT_EQ(::pipe(shown), 0);
  const std::string result = inChild(
      [&] {
        ::close(shown[1]);
        if (!takeTerminal(pty)) return std::string("no terminal");
        auto handler = terminalApprovalHandler();
        ApprovalRequest slow = request({{"command", "x"}});
        slow.timeout = 500ms;
        ApprovalRequest quick = request({{"command", "x"}});
        quick.timeout = 100ms;
        auto first =
            std::async(std::launch::async, [&] { return describe(handler->ask(slow).get()); });
        char byte = 0;
        if (::read(shown[0], &byte, 1) != 1) return std::string("first prompt not shown");
        auto second =
            std::async(std::launch::async, [&] { return describe(handler->ask(quick).get()); });
        const std::string second_answer = second.get();
        return first.get() + second_answer;
      },
      [&](pid_t) {
        ::close(shown[0]);
        if (pty.waitFor("no answer within 500 ms denies")) {
          EXPECT_EQ(::write(shown[1], "x", 1), 1);
        }
        ::close(shown[1]);
      });
  EXPECT_EQ(result, "deny:no answer within 500 ms;deny:no answer within 100 ms;");
  EXPECT_EQ(pty.output().find("no answer within 100 ms denies"), std::string::npos);
}

}  // namespace terminal_prompt_test
}  // namespace toolguard
