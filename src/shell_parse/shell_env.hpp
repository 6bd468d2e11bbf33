#pragma once
// Internal: what a program's shell variables hold at one point of it, as far
// as that is known before anything runs (the data flow of docs/shell.md,
// "Values followed through the program").

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolguard::detail {

/// What is known about one variable.
struct VariableValue {
  enum class State : uint8_t { Unknown, Unset, Set };
  State state = State::Unknown;
  std::string value;

  bool known() const { return state != State::Unknown; }
};

/// The shell variables, positional parameters and `$0` of one shell at one
/// point of the program. Copies are cheap (the state is shared until one of
/// them changes), so every command can keep the environment it ran in.
/// Soundness rule: a value is known only when every path bash could take to
/// this point gives it; anything else is Unknown.
class ShellEnv {
 public:
  /// A fresh `bash -c`: every variable comes from the environment (unknown)
  /// except HOME (`home`) and IFS (bash's default: space, tab, newline).
  static ShellEnv fresh(const std::string& home);

  /// What a script run from here in another shell (`bash -c ...`, `sh`
  /// reading a script), or later (`later`: a trap, an alias body), starts
  /// with: only HOME and IFS carry over, and nothing does when this shell
  /// could have changed what a new shell reads at start-up (BASH_ENV, ENV,
  /// SHELLOPTS, BASHOPTS) or is opaque. Code run later does not take HOME
  /// or IFS from here when the program may change them further on.
  ShellEnv forChild(bool later = false) const;

  VariableValue get(std::string_view name) const;
  /// Assigns, as bash would: a read-only variable keeps its value, a name
  /// bash manages itself (RANDOM, LINENO, PWD, ...) stays unknown.
  void set(std::string_view name, std::string value);
  void unset(std::string_view name);
  /// The value may have changed in a way not followed.
  void forget(std::string_view name);
  /// Also the name's attributes (declare -i/-l/-u/-a/...): it stays unknown
  /// for the rest of the program.
  void forgetForGood(std::string_view name);
  void markReadonly(std::string_view name);
  /// Anything may have changed: every later look-up is unknown (eval,
  /// source, traps, namerefs, a command whose name is only known at run time).
  void makeOpaque();
  bool opaque() const;

  /// The whole program may assign HOME or IFS somewhere: code that runs
  /// later than it is read (a trap, a function body) or in another shell
  /// does not take their values from here.
  void markChangedLater(bool home, bool ifs);

  /// The positional parameters ($1, $2, ...); nullptr when unknown.
  const std::vector<std::string>* positional() const;
  void setPositional(std::vector<std::string> values);
  void forgetPositional();
  /// `$0`, when known.
  const std::optional<std::string>& zero() const;
  void setZero(std::optional<std::string> value);

  /// IFS's characters, or nullopt when IFS's value is unknown. An unset IFS
  /// splits as the default does.
  std::optional<std::string> ifs() const;

  /// The output of echo, printf, cat and base64 may be worked out before
  /// they run: false once the program could have replaced them (a function
  /// or alias of that name, PATH changed, enable, hash).
  bool outputsKnown() const;
  void distrustOutputs();

  /// The shell is not bash (sh, dash, ksh, zsh, busybox): bash-only ways of
  /// assigning (`+=`, `printf -v`, `declare`) and brace expansion are not
  /// followed there. Kept by code run later in the same shell.
  bool posix() const { return state_->posix; }
  void setPosix(bool posix);

 private:
  struct Entry {
    VariableValue value;
    enum class Readonly : uint8_t { No, Yes, Maybe } readonly = Readonly::No;
    bool for_good = false;  // attributes changed: never known again
  };
  struct State {
    std::map<std::string, Entry, std::less<>> vars;
    bool opaque = false;
    bool outputs_known = true;
    bool startup_changed = false;  // BASH_ENV, ENV, SHELLOPTS or BASHOPTS assigned
    bool ifs_assigned = false;
    bool home_changes_later = false;
    bool ifs_changes_later = false;
    bool posix = false;
    std::optional<std::vector<std::string>> positional;
    std::optional<std::string> zero;
  };
  State& mutate();
  // Remembers that IFS, what a new shell reads at start-up, or PATH changed.
  void noteSpecial(std::string_view name);
  std::shared_ptr<const State> state_ = std::make_shared<State>();
};

/// True for the names bash manages itself, whose value no assignment fixes.
bool isManagedVariable(std::string_view name);

/// True when `text` is a shell variable name.
bool isVariableName(std::string_view text);

}  // namespace toolguard::detail
