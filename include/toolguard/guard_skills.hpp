#pragma once
// Skills of the LLM guard agent: Markdown texts with YAML front matter that
// teach the validator how to read code in one language. The guard agent
// loads the skills of the call's language at once (auto_invoke) and may ask
// for any other one through its `skill` tool.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/call_view.hpp"

namespace toolguard {

/// One skill.
struct GuardSkill {
  /// Unique key: lowercase letters, digits and '-' (not first), at most 64 characters.
  std::string name;
  std::string description;  ///< one line, listed in the `skill` tool's description
  /// The language it is about ("bash", "python", "go", "js", "powershell"),
  /// or "" for a skill about no language in particular.
  std::string language;
  /// Loaded without the model asking when the call's language is `language`
  /// (so it needs one).
  bool auto_invoke = false;
  /// The Markdown text after the front matter, without leading blank lines,
  /// trailing white space, with `\r\n` read as `\n`.
  std::string body;
  std::string source;  ///< where it came from: "<builtin>/bash.md" or the file's path
};

/// Parses one skill file: `---`, YAML front matter with `name` (required),
/// `description` (required), `language` and `auto_invoke`, `---`, then the
/// Markdown body (which must not be empty). `\n` and `\r\n` line ends are
/// both read. `source_name` is used in errors and kept in GuardSkill::source.
/// Throws PolicyError naming source, line and column (of the whole file) for
/// missing or unclosed front matter, invalid YAML, an unknown, duplicate or
/// mistyped key, a bad name, an unknown language, auto_invoke without a
/// language, or an empty body; every front matter error is reported at once.
GuardSkill parseGuardSkill(std::string_view text, const std::string& source_name);

/// A set of skills by name. Adding a skill with a name already present
/// replaces it: add the least specific first (built-in, then user
/// directories, then a trusted project's).
class GuardSkillLibrary {
 public:
  /// The skills compiled into the library (guard-skills/*.md in the source
  /// tree): bash, python, go, js (JavaScript/TypeScript), powershell and
  /// code-simulation. Parsed once, on first use (thread-safe), and shared:
  /// copy it to add skills. Throws std::logic_error if a built-in skill does
  /// not parse (a build defect).
  static const GuardSkillLibrary& builtin();

  /// Adds (or replaces by name) one skill.
  void add(GuardSkill skill);

  /// Adds every `*.md` file directly in `dir`, in file-name order (hidden
  /// files, such as editors' lock files, are not skills). A directory that
  /// does not exist adds nothing; a path that is not a directory, or a
  /// directory that cannot be listed, throws PolicyError. So does a file that
  /// cannot be read or parsed, is not a regular file, or is larger than
  /// 256 KiB: a broken skill is never skipped silently.
  void addDirectory(const std::filesystem::path& dir);

  /// The skill named `name`, or nullptr. Valid while this library lives and
  /// is not changed.
  const GuardSkill* find(std::string_view name) const;

  /// Every skill, sorted by name.
  const std::vector<GuardSkill>& all() const { return skills_; }

  /// The auto_invoke skills whose language is one of `languages`, by name.
  std::vector<const GuardSkill*> autoInvoked(const std::vector<std::string>& languages) const;

 private:
  std::vector<GuardSkill> skills_;  // sorted by name
};

/// The guard-skills directories that apply to calls made under the given
/// project roots, least specific first: `guard-skills/` under
/// `toolguard_home` (~/.toolguard; skipped when empty), under the user config
/// directory ($TOOLGUARD_CONFIG_DIR, else $XDG_CONFIG_HOME/toolguard, else
/// ~/.config/toolguard: the policy files' user directory), and under ~/.agents,
/// ~/.claude and ~/.bitcode; then `.toolguard/guard-skills/` of each project
/// root, in the order given (outermost first), whose lexically normalized path
/// is one of `trusted_projects` (normalized too, as trustedProjects() returns
/// them). An untrusted project's skills are never read: a cloned repository
/// must not be able to instruct the validator. Directories are listed whether
/// or not they exist.
std::vector<std::filesystem::path> guardSkillDirectories(
    const std::filesystem::path& toolguard_home,
    const std::vector<std::filesystem::path>& project_roots,
    const std::vector<std::string>& trusted_projects);

/// The built-in skills plus those of `directories`, in order. Throws PolicyError.
GuardSkillLibrary loadGuardSkills(const std::vector<std::filesystem::path>& directories);

/// The languages of the code a call would run or write, for picking skills:
/// a shell tool is "bash", plus, for each simple command of its program
/// (wrappers such as sudo and `bash -c` unwrapped; names compared by base
/// name, without case and without a `.exe` suffix), "python" (python,
/// python3, python3.12, ...; `uv run`), "go" (go run|build|test|generate),
/// "js" (node, nodejs, deno, bun, bunx, npx) and "powershell" (pwsh,
/// powershell); a command run by its path (`./deploy.py`) counts by its
/// extension. A file tool (read, write, search) is judged by its paths'
/// extensions, without case (.py, .go, .js/.mjs/.cjs/.ts/.mts/.cts/.jsx/.tsx,
/// .ps1/.psm1, .sh/.bash). Sorted, without duplicates; empty when nothing is
/// recognised (and for other tools).
std::vector<std::string> detectCallLanguages(const CallView& view);

}  // namespace toolguard
