// security_demo: toolguard guarding an agent's tool calls, with no model
// server. Every call is scripted; each mode shows one part of the guard.
//
//   security_demo                 a menu: pick a mode, q to quit
//   security_demo --mode N        run mode N (1-4) and exit: 0 when every step
//                                 came out as expected, 1 otherwise
//   --home DIR                    the toolguard home for the approval store
//                                 (default: a temporary directory removed at
//                                 exit, so ~/.toolguard is never touched)
//   --answers KEYS                mode 3's answers instead of the terminal
//                                 prompt: "y,n" allows once, then denies
// Bad usage exits with 2.
#include <stdlib.h>

#include <exception>
#include <filesystem>
#include <iostream>
#include <string>

#include "demo_modes.hpp"
#include "demo_report.hpp"
#include "demo_tools.hpp"

namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage =
    "usage: security_demo [--mode 1|2|3|4] [--home DIR] [--answers KEYS]\n"
    "  --mode N        run one mode and exit (0: all as expected, 1: not)\n"
    "  --home DIR      toolguard home for the approval store (default: a temporary one)\n"
    "  --answers KEYS  answers for mode 3, e.g. y,n or y,n:REASON (y allow once, n deny)\n";

struct Mode {
  const char* title;
  bool (*run)(const demo::DemoSettings&, demo::Report&);
};

constexpr Mode kModes[] = {
    {"Policies: ALLOW, CONFIRM and DENY (and result filters)", demo::runPoliciesMode},
    {"Argument and path validation", demo::runValidationMode},
    {"The confirmation prompt", demo::runPromptMode},
    {"Persistent permissions", demo::runPermissionsMode},
};

// A directory made for this run and removed when the program ends.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (fs::temp_directory_path() / "toolguard-demo-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a temp dir");
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Runs one mode; an exception (a store file that cannot be read, ...) is a
// failed mode, never a crash.
bool runMode(int number, const demo::DemoSettings& settings) {
  demo::Report report(std::cout);
  bool ok = false;
  try {
    ok = kModes[number - 1].run(settings, report);
  } catch (const std::exception& e) {
    report.check(std::string("mode ") + std::to_string(number) + " failed: " + e.what(), false);
  }
  std::cout << "\n"
            << (ok ? "mode " + std::to_string(number) + ": every step as expected"
                   : "mode " + std::to_string(number) + ": " +
                         std::to_string(report.unexpectedCount()) + " unexpected")
            << std::endl;
  return ok;
}

// The menu: list the modes, read a number, q (or end of input) to quit.
int runMenu(const demo::DemoSettings& settings) {
  bool all_ok = true;
  for (;;) {
    std::cout << "\ntoolguard security demo (no model server needed: every call is scripted)\n";
    for (int i = 0; i < 4; ++i) std::cout << "  " << i + 1 << "  " << kModes[i].title << "\n";
    std::cout << "  q  quit\nchoose [1-4, q]: " << std::flush;
    std::string line;
    if (!std::getline(std::cin, line) || line == "q" || line == "Q") break;
    if (line.size() == 1 && line[0] >= '1' && line[0] <= '4') {
      all_ok = runMode(line[0] - '0', settings) && all_ok;
    } else if (!line.empty()) {
      std::cout << "please type 1, 2, 3, 4 or q\n";
    }
  }
  std::cout << "\n";
  return all_ok ? 0 : 1;
}

int usageError(const std::string& message) {
  std::cerr << "security_demo: " << message << "\n" << kUsage;
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int mode = 0;  // 0: the menu
  std::string home;
  demo::DemoSettings settings;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg != "--mode" && arg != "--home" && arg != "--answers") {
      return usageError("unknown argument '" + arg + "'");
    }
    if (i + 1 == argc) return usageError(arg + " needs a value");
    const std::string value = argv[++i];
    if (arg == "--mode") {
      if (value.size() != 1 || value[0] < '1' || value[0] > '4') {
        return usageError("--mode must be 1, 2, 3 or 4, not '" + value + "'");
      }
      mode = value[0] - '0';
    } else if (arg == "--home") {
      if (value.empty()) return usageError("--home needs a directory");
      home = value;
    } else {
      std::vector<toolguard::ApprovalAnswer> answers;
      std::string error;
      if (!demo::parseAnswerKeys(value, answers, error)) return usageError("--answers: " + error);
      settings.answers = std::move(answers);
    }
  }

  try {
    // Everything the demo writes goes to a scratch directory, or with --home
    // next to the store: the workspace must stay the same from run to run
    // for a project approval (mode 4) to be found again.
    ScratchDir scratch;
    settings.home = home.empty() ? scratch.path() / "toolguard-home" : fs::absolute(home);
    fs::path workspace =
        home.empty() ? scratch.path() / "workspace" : settings.home / "demo-workspace";
    settings.workspace = demo::prepareWorkspace(workspace);
    if (mode != 0) return runMode(mode, settings) ? 0 : 1;
    return runMenu(settings);
  } catch (const std::exception& e) {
    std::cerr << "security_demo: " << e.what() << "\n";
    return 1;
  }
}
