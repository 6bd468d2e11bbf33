#pragma once
// The rule interface: a rule looks at a call and abstains or returns a finding.

#include <optional>
#include <string>
#include <vector>

#include "toolguard/call_view.hpp"
#include "toolguard/path_access.hpp"
#include "toolguard/shell.hpp"
#include "toolguard/source_location.hpp"
#include "toolguard/tool_info.hpp"
#include "toolguard/verdict.hpp"

namespace toolguard {

/// What a rule says about a call it does not abstain on.
struct Finding {
  Verdict verdict = Verdict::Deny;
  std::string reason;  ///< shown to the person and to the model
  /// The part of a composite rule (a `first_match` case) that gave this
  /// finding, named in the decision instead of the rule; null otherwise.
  const class Rule* decided_by = nullptr;
};

/// Which calls a rule applies to; the engine indexes rules by it so a decision
/// consults only the rules that can apply. An empty list means "any".
/// All non-empty lists must match (tool name AND category AND kind).
struct RuleTarget {
  std::vector<std::string> tools;       ///< exact names or wildcards (`*`, `?`)
  std::vector<std::string> categories;  ///< tool metadata categories
  std::vector<ToolKind> kinds;          ///< tool kinds
};

/// A call a rule must (or must not) match; checked when a policy is loaded.
struct RuleExample {
  ToolCall call;
  bool should_match = true;
  SourceLocation where;
};

/// Identity of a rule: id, where it was defined, its layer and its target.
struct RuleHeader {
  std::string id;
  SourceLocation source;
  PolicyLayer layer = PolicyLayer::Code;
  RuleTarget target;
};

/// A header for a rule of the shell tools defined in code (source `file`, no line).
RuleHeader shellRuleHeader(std::string id, std::string file, PolicyLayer layer);

/// A rule. Implementations must be immutable and thread-safe after construction:
/// one engine serves many threads.
class Rule {
 public:
  explicit Rule(RuleHeader header) : header_(std::move(header)) {}
  virtual ~Rule() = default;
  Rule(const Rule&) = delete;
  Rule& operator=(const Rule&) = delete;

  const std::string& id() const { return header_.id; }
  const SourceLocation& source() const { return header_.source; }
  PolicyLayer layer() const { return header_.layer; }
  const RuleTarget& target() const { return header_.target; }

  /// The verdict this rule gives when it matches (used for linting and layering);
  /// nullopt for rules whose verdict depends on the call.
  virtual std::optional<Verdict> fixedVerdict() const { return std::nullopt; }

  /// Judges a call the target already selected: nullopt to abstain.
  virtual std::optional<Finding> evaluate(const CallView& view) const = 0;

  /// True for rules that judge each simple command of a shell program: the
  /// engine calls evaluateCommand() once per command instead of evaluate(),
  /// a command no such rule has a finding for is escalated, and the program
  /// gets the strictest verdict of its commands.
  virtual bool judgesShellCommands() const { return false; }

  /// Judges one simple command of the call's shell program (see above).
  virtual std::optional<Finding> evaluateCommand(const SimpleCommand& command,
                                                 const CallView& view) const;

  /// True for rules about paths that judge every path a call reads or writes,
  /// whatever the route: a file tool's path argument, an MCP tool's, a shell
  /// command's redirection or operand (`kind: file-write` with `path:` and no
  /// other condition on the call's arguments). When such a rule restricts
  /// (ask, deny, abort), the engine calls evaluateAccess() for each concrete
  /// path instead of evaluate().
  virtual bool judgesPathAccesses() const { return false; }

  /// Judges one concrete path a call reads or writes (a File PathAccess; see
  /// judgesPathAccesses). nullopt to abstain.
  virtual std::optional<Finding> evaluateAccess(const PathAccess& probe,
                                                const CallView& view) const;

  /// The path globs this rule names (`.ssh/id_*`), so that a recursive read
  /// or a glob aimed at those places meets the rule; empty for most rules.
  virtual std::vector<std::string> pathGlobs() const { return {}; }

  /// Calls this rule must and must not match (checked at load time).
  virtual const std::vector<RuleExample>& examples() const;

  /// A one-line description of what the rule matches, for `explain` and lint.
  virtual std::string describe() const { return id(); }

 private:
  RuleHeader header_;
};

/// True when a tool name matches a tool pattern: `*` matches any run of
/// characters, `?` one character; a pattern without them must equal the name.
bool toolNameMatches(std::string_view pattern, std::string_view name);

/// True when a pattern contains a wildcard character.
bool isWildcard(std::string_view pattern);

}  // namespace toolguard
