// What a program's shell variables hold: copy-on-write state, bash's
// read-only and managed variables.
#include "shell_env.hpp"

#include <algorithm>
#include <cctype>

namespace toolguard::detail {
namespace {

constexpr std::string_view kDefaultIfs = " \t\n";
// Values larger than this are not followed: doubling a variable twenty
// times in a short command line would otherwise take gigabytes.
constexpr size_t kMaxValueBytes = 64 * 1024;
constexpr size_t kMaxPositional = 4096;

// Variables bash sets itself, or whose assignment means something else
// (RANDOM=5 seeds, SECONDS=0 restarts a clock): never known.
constexpr std::string_view kManaged[] = {
    "BASH",         "BASHOPTS",      "BASHPID",        "BASH_ALIASES",  "BASH_ARGC",
    "BASH_ARGV",    "BASH_ARGV0",    "BASH_CMDS",      "BASH_COMMAND",  "BASH_LINENO",
    "BASH_REMATCH", "BASH_SOURCE",   "BASH_SUBSHELL",  "BASH_VERSINFO", "BASH_VERSION",
    "COLUMNS",      "COMP_CWORD",    "COMP_LINE",      "COMP_POINT",    "COMP_WORDS",
    "DIRSTACK",     "EPOCHREALTIME", "EPOCHSECONDS",   "EUID",          "FUNCNAME",
    "GROUPS",       "HISTCMD",       "HOSTNAME",       "HOSTTYPE",      "LINENO",
    "LINES",        "MACHTYPE",      "MAPFILE",        "OLDPWD",        "OPTARG",
    "OPTIND",       "OSTYPE",        "PIPESTATUS",     "PPID",          "PWD",
    "RANDOM",       "READLINE_LINE", "READLINE_POINT", "REPLY",         "SECONDS",
    "SHELLOPTS",    "SHLVL",         "SRANDOM",        "UID",           "_"};

}  // namespace

bool isManagedVariable(std::string_view name) {
  return std::find(std::begin(kManaged), std::end(kManaged), name) != std::end(kManaged);
}

bool isVariableName(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

ShellEnv ShellEnv::fresh(const std::string& home) {
  ShellEnv env;
  State& s = env.mutate();
  s.vars["HOME"].value = {VariableValue::State::Set, home};
  s.vars["IFS"].value = {VariableValue::State::Set, std::string(kDefaultIfs)};
  return env;
}

ShellEnv ShellEnv::forChild(bool later) const {
  ShellEnv child;
  State& c = child.mutate();
  c.posix = state_->posix;
  if (state_->opaque || state_->startup_changed) {
    c.opaque = true;
    return child;
  }
  if (!later || !state_->home_changes_later) c.vars["HOME"].value = get("HOME");
  // bash sets IFS itself at start-up; a value this shell exported might
  // still reach a shell that takes it from the environment.
  if (!state_->ifs_assigned && !(later && state_->ifs_changes_later)) {
    c.vars["IFS"].value = {VariableValue::State::Set, std::string(kDefaultIfs)};
  }
  c.outputs_known = state_->outputs_known;
  c.home_changes_later = state_->home_changes_later;
  c.ifs_changes_later = state_->ifs_changes_later;
  return child;
}

void ShellEnv::setPosix(bool posix) {
  if (state_->posix != posix) mutate().posix = posix;
}

void ShellEnv::markChangedLater(bool home, bool ifs) {
  if (!home && !ifs) return;
  State& s = mutate();
  s.home_changes_later = s.home_changes_later || home;
  s.ifs_changes_later = s.ifs_changes_later || ifs;
}

ShellEnv::State& ShellEnv::mutate() {
  if (state_.use_count() != 1) state_ = std::make_shared<State>(*state_);
  return const_cast<State&>(*state_);
}

VariableValue ShellEnv::get(std::string_view name) const {
  if (state_->opaque || isManagedVariable(name)) return {};
  const auto it = state_->vars.find(name);
  if (it == state_->vars.end() || it->second.for_good) return {};
  return it->second.value;
}

void ShellEnv::noteSpecial(std::string_view name) {
  if (name == "IFS" && !state_->ifs_assigned) mutate().ifs_assigned = true;
  if ((name == "BASH_ENV" || name == "ENV" || name == "SHELLOPTS" || name == "BASHOPTS") &&
      !state_->startup_changed) {
    mutate().startup_changed = true;
  }
  if ((name == "PATH" || name == "BASH_CMDS") && state_->outputs_known) distrustOutputs();
}

void ShellEnv::set(std::string_view name, std::string value) {
  noteSpecial(name);
  if (isManagedVariable(name)) return;
  State& s = mutate();
  Entry& e = s.vars[std::string(name)];
  if (e.readonly == Entry::Readonly::Yes) return;  // bash refuses the assignment
  if (e.readonly == Entry::Readonly::Maybe) {
    e.value = {};
    return;
  }
  if (value.size() > kMaxValueBytes) {
    e.value = {};  // too large to follow (`X=$X$X` repeated): known only at run time
    return;
  }
  e.value = {VariableValue::State::Set, std::move(value)};
}

void ShellEnv::unset(std::string_view name) {
  noteSpecial(name);
  if (isManagedVariable(name)) return;
  Entry& e = mutate().vars[std::string(name)];
  if (e.readonly == Entry::Readonly::Yes) return;
  e.value = e.readonly == Entry::Readonly::Maybe ? VariableValue{}
                                                 : VariableValue{VariableValue::State::Unset, ""};
}

void ShellEnv::forget(std::string_view name) {
  noteSpecial(name);
  if (isManagedVariable(name)) return;
  Entry& e = mutate().vars[std::string(name)];
  if (e.readonly != Entry::Readonly::Yes) e.value = {};
}

void ShellEnv::forgetForGood(std::string_view name) {
  forget(name);
  if (isManagedVariable(name)) return;
  Entry& e = mutate().vars[std::string(name)];
  e.for_good = true;
  if (e.readonly == Entry::Readonly::No) e.readonly = Entry::Readonly::Maybe;
}

void ShellEnv::markReadonly(std::string_view name) {
  Entry& e = mutate().vars[std::string(name)];
  e.readonly = Entry::Readonly::Yes;
}

void ShellEnv::makeOpaque() {
  State& s = mutate();
  s.opaque = true;
  s.outputs_known = false;
  s.positional.reset();
  s.zero.reset();
}

bool ShellEnv::opaque() const {
  return state_->opaque;
}

const std::vector<std::string>* ShellEnv::positional() const {
  if (state_->opaque || !state_->positional) return nullptr;
  return &*state_->positional;
}

void ShellEnv::setPositional(std::vector<std::string> values) {
  if (state_->opaque) return;
  size_t bytes = 0;
  for (const std::string& v : values) bytes += v.size() + 1;
  if (values.size() > kMaxPositional || bytes > kMaxValueBytes) {
    forgetPositional();  // `set -- "$@" "$@"` repeated
    return;
  }
  mutate().positional = std::move(values);
}

void ShellEnv::forgetPositional() {
  if (state_->positional) mutate().positional.reset();
}

const std::optional<std::string>& ShellEnv::zero() const {
  return state_->zero;
}

void ShellEnv::setZero(std::optional<std::string> value) {
  if (state_->opaque) return;
  mutate().zero = std::move(value);
}

std::optional<std::string> ShellEnv::ifs() const {
  const VariableValue v = get("IFS");
  if (v.state == VariableValue::State::Set) return v.value;
  if (v.state == VariableValue::State::Unset) return std::string(kDefaultIfs);
  return std::nullopt;
}

bool ShellEnv::outputsKnown() const {
  return state_->outputs_known && !state_->opaque;
}

void ShellEnv::distrustOutputs() {
  if (state_->outputs_known) mutate().outputs_known = false;
}

}  // namespace toolguard::detail
