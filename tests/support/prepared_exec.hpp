#pragma once
// What a forked child needs to run a program, built before the fork.
//
// Between fork() and exec() a child of a process with threads (a test's
// scripted server, the ASan runtime's own) may only make async-signal-safe
// calls: a malloc, setenv or unsetenv there can wait forever for a lock
// another thread held at the moment of the fork. So the argument vector and
// the whole environment are made here, in the parent, and the child only
// redirects descriptors and calls exec().

#include <unistd.h>

#include <map>
#include <string>
#include <vector>

extern char** environ;

namespace toolguard::testing {

/// A program, its arguments and its environment, ready for execve().
class PreparedExec {
 public:
  /// `program` with `args` (argv[0] is the program), the current environment
  /// with `changes` applied: a variable set, or with an empty value removed.
  PreparedExec(std::string program, const std::vector<std::string>& args,
               const std::map<std::string, std::string>& changes)
      : program_(std::move(program)) {
    arguments_.push_back(program_);
    arguments_.insert(arguments_.end(), args.begin(), args.end());
    for (char** entry = environ; *entry != nullptr; ++entry) {
      std::string variable = *entry;
      const std::string name = variable.substr(0, variable.find('='));
      if (changes.count(name) == 0) environment_.push_back(std::move(variable));
    }
    for (const auto& [name, value] : changes) {
      if (!value.empty()) environment_.push_back(name + "=" + value);
    }
    for (std::string& a : arguments_) argv_.push_back(a.data());
    argv_.push_back(nullptr);
    for (std::string& e : environment_) envp_.push_back(e.data());
    envp_.push_back(nullptr);
  }

  PreparedExec(const PreparedExec&) = delete;
  PreparedExec& operator=(const PreparedExec&) = delete;

  /// In the child: replaces the process (async-signal-safe); exit 127 if it cannot.
  [[noreturn]] void exec() const noexcept {
    ::execve(program_.c_str(), argv_.data(), envp_.data());
    ::_exit(127);
  }

 private:
  std::string program_;
  std::vector<std::string> arguments_;
  std::vector<std::string> environment_;
  std::vector<char*> argv_;
  std::vector<char*> envp_;
};

}  // namespace toolguard::testing
