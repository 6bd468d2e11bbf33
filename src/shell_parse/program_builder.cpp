// Walking the bash syntax tree into a list of simple commands.
#include "program_builder.hpp"

#include <algorithm>
#include <utility>

#include "known_output.hpp"
#include "toolguard/paths.hpp"
#include "unterminated_quote.hpp"
#include "word_value.hpp"

namespace toolguard::detail {
namespace {

std::string firstError(TSNode node, const BashTree& tree) {
  if (ts_node_is_missing(node)) {
    TSPoint p = ts_node_start_point(node);
    return "missing " + std::string(typeOf(node)) + " at line " + std::to_string(p.row + 1) +
           ", column " + std::to_string(p.column + 1);
  }
  if (typeOf(node) == "ERROR") {
    TSPoint p = ts_node_start_point(node);
    return "cannot parse '" + std::string(tree.textOf(node)).substr(0, 40) + "' at line " +
           std::to_string(p.row + 1) + ", column " + std::to_string(p.column + 1);
  }
  const uint32_t count = ts_node_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_child(node, i);
    if (ts_node_has_error(child)) return firstError(child, tree);
  }
  return "the command does not parse";
}

// The grammar skips a backslash before a blank where it expects a token
// (`x=\\ <newline>y=1` reads as `x=y=1`; `p \\ a` as `p a`) while bash reads
// an escaped blank as part of a word. It also ends `$'\\\\'` at a later
// quote than bash does. The offset of the first such backslash that no
// token of the tree covers, or of such a string, or npos.
size_t misparsedAt(TSNode node, std::string_view text, uint32_t& covered) {
  const uint32_t count = ts_node_child_count(node);
  if (typeOf(node) == "ansi_c_string") {
    const uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
    uint32_t i = start + 2;
    while (i < end && text[i] != '\'') i += text[i] == '\\' ? 2 : 1;
    if (i + 1 != end) return start;
  }
  // Quoted text, here-documents and comments hold their text themselves.
  if (count == 0 ||
      isOneOf(typeOf(node), {"string", "raw_string", "ansi_c_string", "translated_string",
                             "heredoc_body", "comment", "word"})) {
    const uint32_t start = ts_node_start_byte(node);
    for (uint32_t i = covered; i + 1 < start && i + 1 < text.size(); ++i) {
      if (text[i] == '\\' && (text[i + 1] == ' ' || text[i + 1] == '\t')) return i;
    }
    covered = std::max(covered, ts_node_end_byte(node));
    return std::string_view::npos;
  }
  for (uint32_t i = 0; i < count; ++i) {
    const size_t at = misparsedAt(ts_node_child(node, i), text, covered);
    if (at != std::string_view::npos) return at;
  }
  return std::string_view::npos;
}

// Every function_definition's name in the tree.
void functionNames(TSNode node, const BashTree& tree, std::set<std::string, std::less<>>& out) {
  if (typeOf(node) == "function_definition") {
    TSNode name = ts_node_child_by_field_name(node, "name", 4);
    if (!ts_node_is_null(name)) out.insert(std::string(tree.textOf(name)));
  }
  const uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; ++i) functionNames(ts_node_named_child(node, i), tree, out);
}

// The commands whose output the data flow works out before they run: a
// function of that name would make it wrong.
bool isFollowedProducer(std::string_view name) {
  return isOneOf(name, {"echo", "printf", "cat", "base64", "command", "builtin"});
}

constexpr size_t kMaxProgramDepth = 64;

}  // namespace

ProgramBuilder::ProgramBuilder(const BashTree& tree, ShellProgram& out, std::vector<ShellEnv>& envs,
                               const SimpleCommand& prototype, ShellEnv env, BuildBudget& budget)
    : tree_(tree),
      out_(out),
      envs_(envs),
      prototype_(prototype),
      env_(std::move(env)),
      budget_(budget),
      word_placement_(prototype.placement) {}

void ProgramBuilder::build() {
  TSNode root = tree_.root();
  if (ts_node_has_error(root)) {
    out_.parse_error = true;
    if (out_.error.empty()) {
      out_.error = unterminatedQuote(tree_.text()).value_or(firstError(root, tree_));
    }
  }
  if (tree_.text().find("\\ ") != std::string::npos ||
      tree_.text().find("\\\t") != std::string::npos ||
      tree_.text().find("$'") != std::string::npos) {
    uint32_t covered = 0;
    size_t at = misparsedAt(root, tree_.text(), covered);
    // ... or after the last token.
    for (size_t i = covered; at == std::string::npos && i + 1 < tree_.text().size(); ++i) {
      const char next = tree_.text()[i + 1];
      if (tree_.text()[i] == '\\' && (next == ' ' || next == '\t')) at = i;
    }
    if (at != std::string::npos) {
      out_.parse_error = true;
      if (out_.error.empty()) {
        out_.error = "a word the parser misreads at byte " + std::to_string(at + 1);
      }
    }
  }
  // A function definition needs `(` or the word `function` (perhaps split
  // by a line continuation): most command lines have neither, and are not
  // walked for them.
  const std::string_view text = tree_.text();
  if (text.find('(') != std::string_view::npos || text.find("function") != std::string_view::npos ||
      text.find("\\\n") != std::string_view::npos) {
    functionNames(root, tree_, function_names_);
  }
  for (const std::string& name : function_names_) {
    if (isFollowedProducer(name)) env_.distrustOutputs();
  }
  // Code that runs later than it is read (traps, function bodies) or in
  // another shell sees HOME and IFS as the whole program leaves them.
  const AssignedNames all =
      mayAssignAnything(text) ? assignedNames(root, tree_, function_names_) : AssignedNames{};
  assigns_nothing_ = all.assignsNothing();
  env_.markChangedLater(all.runs_code || all.names.count("HOME") != 0,
                        all.runs_code || all.names.count("IFS") != 0);
  statement(root, prototype_.placement, {});
}

AssignedNames ProgramBuilder::regionNames(TSNode node) const {
  // A part assigns no more than the whole program.
  if (assigns_nothing_) return AssignedNames{};
  return assignedNames(node, tree_, function_names_);
}

bool ProgramBuilder::enter() {
  if (budget_.depth >= kMaxProgramDepth) {
    out_.too_deep = true;
    return false;
  }
  ++budget_.depth;
  return true;
}

WordEvaluator ProgramBuilder::evaluator(std::vector<TSNode>& substitutions) {
  // sh, dash, ksh: no brace expansion here (a word with one is not followed).
  return WordEvaluator(tree_, env_, *this, substitutions,
                       env_.posix() ? no_brace_words_ : budget_.brace_words);
}

std::optional<std::string> ProgramBuilder::run(TSNode node) {
  if (!enter()) return std::nullopt;
  const ShellEnv outer = env_;  // a command substitution runs in a subshell
  const ShellPlacement saved_placement = word_placement_;
  ShellPlacement inner = word_placement_;
  inner.pipeline_position = 0;
  inner.pipeline_length = 1;
  inner.background = false;
  inner.in_command_substitution = true;
  std::optional<std::string> output = std::string();
  const uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(node, i);
    const std::string_view type = typeOf(child);
    if (type == "comment") continue;
    last_output_.reset();
    statement(child, inner, {});
    if (type == "variable_assignment" || type == "variable_assignments") continue;
    if ((type == "command" || type == "pipeline" || type == "redirected_statement") &&
        last_output_ && output) {
      *output += *last_output_;
    } else {
      output.reset();
    }
  }
  // Inside backquotes a backslash is read once more before the commands
  // are: what tree-sitter read is not what runs.
  const std::string_view text = tree_.textOf(node);
  if (text.starts_with("`") && text.find('\\') != std::string_view::npos) output.reset();
  env_ = outer;
  word_placement_ = saved_placement;
  last_output_.reset();
  leave();
  return output;
}

void ProgramBuilder::substitutions(const std::vector<TSNode>& nodes, ShellPlacement placement) {
  for (TSNode node : nodes) {
    if (!enter()) return;
    const ShellEnv outer = env_;
    ShellPlacement inner = placement;
    inner.pipeline_position = 0;
    inner.pipeline_length = 1;
    inner.background = false;
    if (typeOf(node) == "process_substitution") {
      inner.in_process_substitution = true;
    } else {
      inner.in_command_substitution = true;
    }
    children(node, inner, {});
    env_ = outer;
    leave();
  }
}

void ProgramBuilder::arithmetic(std::string_view text) {
  if (forgetArithmeticNames(text, env_)) valueRunsAsCode(kArithmeticValue);
}

void ProgramBuilder::valueRunsAsCode(std::string_view what) {
  // A command nobody can judge: its name is only known at run time.
  SimpleCommand cmd;
  cmd.words.push_back(ShellWord{std::string(what), true, std::string(what)});
  emit(std::move(cmd), word_placement_, {}, std::string(what));
}

void ProgramBuilder::emit(SimpleCommand cmd, ShellPlacement placement,
                          const std::vector<ShellRedirect>& redirects, std::string text) {
  cmd.placement = placement;
  cmd.redirects.insert(cmd.redirects.begin(), redirects.begin(), redirects.end());
  cmd.wrappers = prototype_.wrappers;
  cmd.privileged = prototype_.privileged;
  cmd.unknown_extra_arguments = prototype_.unknown_extra_arguments;
  cmd.text = std::move(text);
  out_.commands.push_back(std::move(cmd));
  envs_.push_back(env_);
}

}  // namespace toolguard::detail
