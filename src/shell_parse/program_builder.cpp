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

bool isOneOf(std::string_view type, std::initializer_list<std::string_view> types) {
  for (std::string_view t : types) {
    if (type == t) return true;
  }
  return false;
}

// Statement containers whose named children are statements (or clauses).
bool isContainer(std::string_view type) {
  return isOneOf(type, {"program", "list", "compound_statement", "do_group", "elif_clause",
                        "else_clause", "case_item", "negated_command"});
}

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

// POSIX's special builtins: in sh (POSIX mode), assignments before them stay.
// True when `gap`, the text between two words of a command, is what bash
// reads as a break between words: blanks and backslash-newlines. The
// grammar sometimes cuts one word in two (`"a"\``, `{1..2}\=x`) or leaves a
// part out (`$2\$`); bash reads one word there.
bool separatesWords(std::string_view gap) {
  bool blank = false;
  for (size_t i = 0; i < gap.size(); ++i) {
    if (gap[i] == ' ' || gap[i] == '\t') {
      blank = true;
    } else if (gap[i] == '\\' && i + 1 < gap.size() && gap[i + 1] == '\n') {
      ++i;
    } else {
      return false;
    }
  }
  return blank;
}

bool isSpecialBuiltin(std::string_view name) {
  return isOneOf(name, {":", ".", "break", "continue", "eval", "exec", "exit", "export", "readonly",
                        "return", "set", "shift", "source", "times", "trap", "unset"});
}

// The commands whose output the data flow works out before they run: a
// function of that name would make it wrong.
bool isFollowedProducer(std::string_view name) {
  return isOneOf(name, {"echo", "printf", "cat", "base64", "command", "builtin"});
}

std::optional<long long> count(const std::string& text) {
  if (text.empty() || text.size() > 6 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stoll(text);
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

void ProgramBuilder::children(TSNode node, ShellPlacement placement,
                              const std::vector<ShellRedirect>& redirects) {
  const std::vector<FieldChild> kids = childrenOf(node);
  for (size_t i = 0; i < kids.size(); ++i) {
    if (!kids[i].named) continue;
    ShellPlacement p = placement;
    if (i + 1 < kids.size() && !kids[i + 1].named && typeOf(kids[i + 1].node) == "&") {
      // `cmd &` runs in a subshell of its own.
      p.background = true;
      const ShellEnv outer = env_;
      statement(kids[i].node, p, redirects);
      env_ = outer;
      continue;
    }
    statement(kids[i].node, p, redirects);
    if (script_is_input_ && ts_node_eq(node, tree_.root()))
      regionNames(kids[i].node).forgetIn(env_);
  }
}

void ProgramBuilder::statement(TSNode node, ShellPlacement placement,
                               const std::vector<ShellRedirect>& redirects) {
  const std::string_view type = typeOf(node);
  if (type == "comment") return;
  if (type == "command") {
    command(node, placement, redirects);
  } else if (type == "list") {
    list(node, placement, redirects);
  } else if (type == "compound_statement" && tree_.textOf(node).starts_with("((")) {
    // ((x = 1)): may assign
    arithmetic(tree_.textOf(node));
    std::vector<TSNode> subs;
    collectSubstitutions(node, subs);
    substitutions(subs, placement);
  } else if (isContainer(type)) {
    children(node, placement, redirects);
  } else if (type == "pipeline") {
    pipeline(node, placement, redirects);
  } else if (type == "subshell") {
    placement.in_subshell = true;
    const ShellEnv outer = env_;
    children(node, placement, redirects);
    env_ = outer;
  } else if (type == "redirected_statement") {
    redirectedStatement(node, placement, redirects);
  } else if (type == "function_definition") {
    functionDefinition(node, placement, redirects);
  } else if (type == "if_statement") {
    ifStatement(node, placement, redirects);
  } else if (type == "while_statement" || type == "c_style_for_statement") {
    loop(node, placement, redirects);
  } else if (type == "for_statement") {
    forStatement(node, placement, redirects);
  } else if (type == "case_statement") {
    caseStatement(node, placement, redirects);
  } else if (isOneOf(type, {"variable_assignment", "variable_assignments"})) {
    assignmentsOnly(node, placement, redirects);
  } else if (isOneOf(type, {"declaration_command", "unset_command", "test_command"})) {
    builtinLike(node, placement, redirects);
  } else if (isOneOf(type, {"file_redirect", "herestring_redirect"})) {
    // A redirection with no command, as in `$(<file)`: bash reads the file.
    std::vector<TSNode> subs;
    Redirects with_own = redirects;
    redirect(node, with_own, subs, placement);
    substitutions(subs, placement);
    emit(SimpleCommand{}, placement, with_own, std::string(tree_.textOf(node)));
  } else if (type == "heredoc_body") {
    std::vector<TSNode> subs;
    collectSubstitutions(node, subs);
    substitutions(subs, placement);
  } else if (type == "ERROR") {
    // What does not parse: the commands tree-sitter still recognised in it
    // run as they are read (`{rm,-rf,/}` is a command name alone).
    regionNames(node).forgetIn(env_);
    TSNode previous{};
    for (const FieldChild& kid : childrenOf(node)) {
      // `{` right before a name is part of its word (`{rm,-rf,/}`: bash
      // reserves `{` only before a blank).
      const bool brace_before = !ts_node_is_null(previous) && typeOf(previous) == "{" &&
                                ts_node_end_byte(previous) == ts_node_start_byte(kid.node);
      previous = kid.node;
      if (!kid.named) continue;
      if (typeOf(kid.node) == "command_name") {
        SimpleCommand cmd;
        std::vector<TSNode> subs;
        word_placement_ = placement;
        evaluator(subs).fields(kid.node, cmd.words, brace_before ? "{" : "");
        substitutions(subs, placement);
        emit(std::move(cmd), placement, redirects, std::string(tree_.textOf(kid.node)));
        const SimpleCommand ran = out_.commands.back();
        effects(ran, placement, redirects);
      } else {
        if (brace_before && typeOf(kid.node) == "command") name_prefix_ = "{";
        statement(kid.node, placement, redirects);
        name_prefix_.clear();
      }
    }
    regionNames(node).forgetIn(env_);
  } else {
    // Anything else (new grammar nodes): read its substitutions, never skip
    // them; what they assign is not followed.
    regionNames(node).forgetIn(env_);
    std::vector<TSNode> subs;
    collectSubstitutions(node, subs);
    substitutions(subs, placement);
  }
}

void ProgramBuilder::list(TSNode node, ShellPlacement placement, const Redirects& redirects) {
  // `a && b`, `a || b`: what follows the first part may not run.
  bool first = true;
  for (const FieldChild& kid : childrenOf(node)) {
    if (!kid.named) continue;
    if (first) {
      statement(kid.node, placement, redirects);
      first = false;
      continue;
    }
    last_output_.reset();
    statement(kid.node, placement, redirects);
    regionNames(kid.node).forgetIn(env_);
  }
  last_output_.reset();
}

void ProgramBuilder::pipeline(TSNode node, ShellPlacement placement,
                              const std::vector<ShellRedirect>& redirects) {
  std::vector<TSNode> nodes;
  const uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(node, i);
    if (typeOf(child) != "comment") nodes.push_back(child);
  }
  stages(nodes, 0, placement, redirects, std::nullopt);
  // With lastpipe the last stage runs in this shell: what any stage may
  // assign is not known after the pipeline.
  const std::optional<std::string> output = last_output_;
  regionNames(node).forgetIn(env_);
  last_output_ = output;
}

void ProgramBuilder::stages(const std::vector<TSNode>& nodes, size_t offset,
                            ShellPlacement placement, const Redirects& redirects,
                            std::optional<std::string> carried) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    ShellPlacement p = placement;
    p.pipeline_position = i + offset;
    p.pipeline_length = nodes.size() + offset;
    const bool simple = typeOf(nodes[i]) == "command";
    const ShellEnv outer = env_;  // every stage runs in a subshell
    direct_input_ = simple && p.pipeline_position > 0 ? carried : std::nullopt;
    last_output_.reset();
    statement(nodes[i], p, redirects);
    direct_input_.reset();
    carried = simple ? last_output_ : std::nullopt;
    env_ = outer;
  }
  last_output_ = carried;
}

void ProgramBuilder::drainAfterHeredoc() {
  std::vector<Pending> pending;
  pending.swap(after_heredoc_);
  for (const Pending& p : pending) {
    if (!p.piped) {
      statement(p.node, p.placement, {});
      last_output_.reset();  // `cat <<EOF && ls`: more than one command's output
      continue;
    }
    std::vector<TSNode> nodes;
    if (typeOf(p.node) == "pipeline") {
      const uint32_t count = ts_node_named_child_count(p.node);
      for (uint32_t i = 0; i < count; ++i) nodes.push_back(ts_node_named_child(p.node, i));
    } else {
      nodes.push_back(p.node);
    }
    stages(nodes, 1, p.placement, {}, p.output);
    regionNames(p.node).forgetIn(env_);
  }
}

void ProgramBuilder::ifStatement(TSNode node, ShellPlacement placement,
                                 const Redirects& redirects) {
  // The first condition always runs; then one of the branches, each from
  // where the condition left the variables (and not knowing what an elif's
  // condition or an earlier branch may have assigned).
  const std::vector<FieldChild> kids = childrenOf(node);
  size_t i = 0;
  for (; i < kids.size() && (!kids[i].named || kids[i].field == "condition"); ++i) {
    if (!kids[i].named) continue;
    ShellPlacement p = placement;
    p.in_condition = true;
    statement(kids[i].node, p, redirects);
  }
  ShellEnv alternative = env_;
  regionNames(node).forgetIn(alternative);
  for (; i < kids.size(); ++i) {
    if (!kids[i].named) continue;
    const std::string_view type = typeOf(kids[i].node);
    if (type == "elif_clause" || type == "else_clause") {
      env_ = alternative;
      for (const FieldChild& part : childrenOf(kids[i].node)) {
        if (!part.named) continue;
        ShellPlacement p = placement;
        if (part.field == "condition") p.in_condition = true;
        statement(part.node, p, redirects);
      }
      continue;
    }
    statement(kids[i].node, placement, redirects);
  }
  env_ = alternative;
  last_output_.reset();
}

void ProgramBuilder::loop(TSNode node, ShellPlacement placement, const Redirects& redirects) {
  // Runs any number of times: what it assigns is unknown on entry and after.
  const AssignedNames names = regionNames(node);
  names.forgetIn(env_);
  std::vector<TSNode> subs;
  for (const char* field : {"initializer", "condition", "update"}) {
    TSNode value = ts_node_child_by_field_name(node, field, static_cast<uint32_t>(strlen(field)));
    if (!ts_node_is_null(value)) {
      arithmetic(tree_.textOf(value));
      collectSubstitutions(value, subs);
    }
  }
  substitutions(subs, placement);
  for (const FieldChild& kid : childrenOf(node)) {
    if (!kid.named || kid.field == "initializer" || kid.field == "update") continue;
    ShellPlacement p = placement;
    if (kid.field == "condition") {
      if (typeOf(node) == "c_style_for_statement") continue;
      p.in_condition = true;
    }
    statement(kid.node, p, redirects);
  }
  names.forgetIn(env_);
  last_output_.reset();
}

void ProgramBuilder::forStatement(TSNode node, ShellPlacement placement,
                                  const Redirects& redirects) {
  // `for x in a b c`: written out once per word when every word is known
  // and nothing in the body breaks out; otherwise a loop like any other.
  TSNode variable = ts_node_child_by_field_name(node, "variable", 8);
  TSNode body = ts_node_child_by_field_name(node, "body", 4);
  std::vector<ShellWord> items;
  std::vector<TSNode> subs;
  bool has_in = false;
  word_placement_ = placement;
  for (const FieldChild& kid : childrenOf(node)) {
    if (!kid.named) {
      if (typeOf(kid.node) == "in") has_in = true;
      continue;
    }
    if (kid.field == "value") evaluator(subs).fields(kid.node, items);
  }
  substitutions(subs, placement);
  const AssignedNames names = regionNames(node);
  const bool select = tree_.textOf(node).starts_with("select");
  bool known = has_in && !select && !names.breaks && !ts_node_is_null(variable) &&
               !ts_node_is_null(body) && items.size() <= budget_.loop_items;
  for (const ShellWord& w : items) known = known && !w.dynamic;
  if (!known) {
    names.forgetIn(env_);
    if (!ts_node_is_null(body)) statement(body, placement, redirects);
    names.forgetIn(env_);
    last_output_.reset();
    return;
  }
  budget_.loop_items -= items.size();
  const std::string name(tree_.textOf(variable));
  for (const ShellWord& item : items) {
    env_.set(name, item.text);
    statement(body, placement, redirects);
  }
  last_output_.reset();
}

void ProgramBuilder::caseStatement(TSNode node, ShellPlacement placement,
                                   const Redirects& redirects) {
  std::vector<TSNode> subs;
  TSNode value = ts_node_child_by_field_name(node, "value", 5);
  if (!ts_node_is_null(value)) {
    word_placement_ = placement;
    evaluator(subs).single(value);
  }
  substitutions(subs, placement);
  ShellEnv alternative = env_;
  regionNames(node).forgetIn(alternative);
  const uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(node, i);
    if (typeOf(child) != "case_item") continue;
    env_ = alternative;
    statement(child, placement, redirects);
  }
  env_ = alternative;
  last_output_.reset();
}

void ProgramBuilder::functionDefinition(TSNode node, ShellPlacement placement,
                                        const Redirects& redirects) {
  placement.in_function = true;
  TSNode name = ts_node_child_by_field_name(node, "name", 4);
  if (!ts_node_is_null(name)) placement.function_name = std::string(tree_.textOf(name));
  // `f() { ...; } > "$(cmd)"`: the redirection applies to every run of the
  // body, and its substitutions run too.
  std::vector<TSNode> subs;
  Redirects with_own = redirects;
  for (const FieldChild& child : childrenOf(node)) {
    if (child.named && (child.field == "redirect" ||
                        isOneOf(typeOf(child.node),
                                {"file_redirect", "heredoc_redirect", "herestring_redirect"}))) {
      redirect(child.node, with_own, subs, placement);
    }
  }
  substitutions(subs, placement);
  TSNode body = ts_node_child_by_field_name(node, "body", 4);
  if (ts_node_is_null(body)) return;
  functions_[placement.function_name] = body;
  // The body runs whenever the function is called, with whatever the
  // variables hold then: read here as a new shell would see it, and again
  // for each call with the values of that call.
  const ShellEnv outer = env_;
  env_ = env_.forChild(true);
  ++function_depth_;
  statement(body, placement, with_own);
  --function_depth_;
  env_ = outer;
}

void ProgramBuilder::callFunction(const SimpleCommand& cmd, TSNode body, ShellPlacement placement,
                                  const Redirects& redirects) {
  if (budget_.calls == 0 || !enter()) {
    out_.too_deep = true;
    return;
  }
  --budget_.calls;
  const ShellEnv outer = env_;
  std::vector<std::string> args;
  bool known = true;
  for (const ShellWord& w : cmd.arguments()) {
    known = known && !w.dynamic;
    args.push_back(w.text);
  }
  if (known) {
    env_.setPositional(std::move(args));
  } else {
    env_.forgetPositional();
  }
  placement.in_function = true;
  placement.function_name = cmd.name();
  ++function_depth_;
  statement(body, placement, redirects);
  --function_depth_;
  env_ = outer;
  regionNames(body).forgetIn(env_);
  leave();
}

void ProgramBuilder::withTailRedirects(TSNode node, ShellPlacement placement,
                                       const std::vector<ShellRedirect>& outer,
                                       const std::vector<ShellRedirect>& with_own) {
  const std::string_view type = typeOf(node);
  std::vector<TSNode> parts;
  const uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(node, i);
    if (typeOf(child) != "comment") parts.push_back(child);
  }
  if ((type != "list" && type != "pipeline") || parts.empty()) {
    statement(node, placement, with_own);
    return;
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    ShellPlacement p = placement;
    if (type == "pipeline") {
      p.pipeline_position = i;
      p.pipeline_length = parts.size();
    }
    if (i + 1 < parts.size()) {
      statement(parts[i], p, outer);
    } else {
      withTailRedirects(parts[i], p, outer, with_own);
    }
  }
}

void ProgramBuilder::redirectedStatement(TSNode node, ShellPlacement placement,
                                         std::vector<ShellRedirect> redirects) {
  const std::vector<ShellRedirect> outer = redirects;
  std::vector<TSNode> subs;
  TSNode body{};
  bool has_body = false;
  for (const FieldChild& child : childrenOf(node)) {
    if (!child.named) continue;
    if (child.field == "body") {
      body = child.node;
      has_body = true;
    } else {
      redirect(child.node, redirects, subs, placement);
    }
  }
  substitutions(subs, placement);
  std::vector<Pending> pending;
  pending.swap(after_heredoc_);  // the body runs first
  if (has_body) {
    // The grammar reads `a && b > f` and `a | b > f` as one statement
    // redirected; bash gives the redirection to `b` alone.
    last_output_.reset();
    withTailRedirects(body, placement, outer, redirects);
    // `cat <<EOF | sh`: what follows reads the command's known output.
    if (typeOf(body) == "command") {
      for (Pending& p : pending) p.output = last_output_;
    }
  } else {
    emit(SimpleCommand{}, placement, redirects, std::string(tree_.textOf(node)));
  }
  after_heredoc_.insert(after_heredoc_.end(), pending.begin(), pending.end());
  drainAfterHeredoc();
}

ShellWord ProgramBuilder::hereDocument(TSNode body, const ShellRedirect& r) const {
  ShellWord doc;
  doc.source = std::string(tree_.textOf(body));
  // `<<-` removes the leading tabs of every line.
  bool line_start = true;
  for (char c : doc.source) {
    if (line_start && c == '\t' && r.op.find("<<-") != std::string::npos) continue;
    line_start = c == '\n';
    doc.text += c;
  }
  // A quoted delimiter (`<<'EOF'`, `<<"EOF"`, `<<\EOF`) keeps the text as it is;
  // otherwise bash expands `$` and backquotes in it when it runs.
  const std::string& delimiter = r.target.source;
  const bool quoted = delimiter.find_first_of("'\"\\") != std::string::npos;
  if (quoted) return doc;
  // Unquoted: a backslash quotes `\`, `$`, a backquote and a newline (which
  // then vanishes), as in double quotes; other backslashes stay.
  std::string text;
  for (size_t i = 0; i < doc.text.size(); ++i) {
    const char c = doc.text[i];
    if (c == '\\' && i + 1 < doc.text.size() &&
        std::string_view("\\$`\n").find(doc.text[i + 1]) != std::string_view::npos) {
      if (doc.text[i + 1] != '\n') text += doc.text[i + 1];
      ++i;
      continue;
    }
    if (c == '$' || c == '`') doc.dynamic = true;
    text += c;
  }
  doc.text = std::move(text);
  return doc;
}

void ProgramBuilder::redirect(TSNode node, std::vector<ShellRedirect>& redirects,
                              std::vector<TSNode>& subs, ShellPlacement placement) {
  const std::string_view type = typeOf(node);
  ShellRedirect r;
  bool has_target = false;
  for (const FieldChild& fc : childrenOf(node)) {
    const TSNode child = fc.node;
    const std::string_view child_type = typeOf(child);
    if (!fc.named) {
      r.op += child_type;
      continue;
    }
    const std::string_view f = fc.field;
    if (child_type == "file_descriptor" || f == "descriptor") {
      try {
        r.fd = std::stoi(std::string(tree_.textOf(child)));
      } catch (...) {
      }
    } else if (child_type == "heredoc_start") {
      r.target.text = r.target.source = std::string(tree_.textOf(child));
      has_target = true;
    } else if (child_type == "heredoc_body") {
      collectSubstitutions(child, subs);
      r.document = hereDocument(child, r);
    } else if (isOneOf(child_type, {"heredoc_end", "heredoc_content"})) {
      continue;
    } else if (type == "heredoc_redirect" && !has_target) {
      continue;
    } else if (type == "heredoc_redirect") {
      // The rest of the line after `<<EOF`: more redirections of the same
      // command (`cat <<EOF > /dev/sda`), the next stages of its pipeline
      // (`cat <<EOF | sh`), or the next command of a list (`&& ls`).
      if (isOneOf(child_type, {"file_redirect", "herestring_redirect", "heredoc_redirect"})) {
        redirect(child, redirects, subs, placement);
      } else {
        // Run after the command itself: they come after it in the program.
        after_heredoc_.push_back({child, placement, f != "right", std::nullopt});
      }
    } else if (!has_target) {
      word_placement_ = placement;
      WordEvaluator words = evaluator(subs);
      r.target = type == "herestring_redirect" ? words.hereString(child) : words.single(child);
      has_target = true;
    } else {
      word_placement_ = placement;
      ShellWord more = evaluator(subs).single(child);  // `> a b`: extra words of the redirect
      r.target.text += " " + more.text;
      r.target.dynamic = r.target.dynamic || more.dynamic;
    }
  }
  redirects.push_back(std::move(r));
}

void ProgramBuilder::command(TSNode node, ShellPlacement placement,
                             std::vector<ShellRedirect> redirects) {
  std::optional<std::string> piped = std::exchange(direct_input_, std::nullopt);
  SimpleCommand cmd;
  std::vector<TSNode> subs;
  const bool has_name = !ts_node_is_null(ts_node_child_by_field_name(node, "name", 4));
  // Where the last word read ends (unset after anything else) and where its
  // fields start in cmd.words: a word the grammar did not separate from it
  // by blanks is part of the same bash word, read here as not known.
  constexpr uint32_t kNoWord = UINT32_MAX;
  uint32_t word_end = kNoWord;
  size_t word_fields = 0;
  auto misread = [&](std::string_view source) {
    out_.parse_error = true;
    if (out_.error.empty()) {
      out_.error = "a word the parser cut in two: " + std::string(source.substr(0, 40));
    }
    if (word_fields == cmd.words.size()) {
      cmd.words.push_back(ShellWord{std::string(source), true, std::string(source)});
    }
    for (size_t i = word_fields; i < cmd.words.size(); ++i) cmd.words[i].dynamic = true;
  };
  auto wordRead = [&](TSNode child, size_t first) {
    const uint32_t start = ts_node_start_byte(child);
    const uint32_t end = ts_node_end_byte(child);
    const bool separate =
        word_end == kNoWord ||
        separatesWords(std::string_view(tree_.text()).substr(word_end, start - word_end));
    if (!separate) {
      misread(std::string_view(tree_.text()).substr(word_end, end - word_end));
    } else {
      word_fields = first;
    }
    word_end = end;
  };
  for (const FieldChild& fc : childrenOf(node)) {
    if (!fc.named) continue;
    const TSNode child = fc.node;
    const std::string_view type = typeOf(child);
    const std::string_view f = fc.field;
    word_placement_ = placement;
    const size_t first = cmd.words.size();
    const bool word =
        f == "name" || !(f == "redirect" || isOneOf(type, {"file_redirect", "heredoc_redirect",
                                                           "herestring_redirect", "subshell"}));
    if (!word) word_end = kNoWord;
    if (f == "name") {
      const uint32_t parts = ts_node_named_child_count(child);
      evaluator(subs).fields(parts == 1 ? ts_node_named_child(child, 0) : child, cmd.words,
                             std::exchange(name_prefix_, ""));
      wordRead(child, first);
    } else if (f == "redirect" ||
               isOneOf(type, {"file_redirect", "heredoc_redirect", "herestring_redirect"})) {
      redirect(child, redirects, subs, placement);
    } else if (type == "variable_assignment") {
      assignment(child, cmd, subs, !has_name);
      wordRead(child, first);
    } else if (type == "subshell") {
      ShellPlacement p = placement;
      p.in_subshell = true;
      const ShellEnv outer = env_;
      children(child, p, {});
      env_ = outer;
    } else {
      evaluator(subs).fields(child, cmd.words);
      wordRead(child, first);
    }
  }
  if (word_end != kNoWord) {
    const std::string_view rest =
        std::string_view(tree_.text()).substr(word_end, ts_node_end_byte(node) - word_end);
    if (!rest.empty() && !separatesWords(rest)) misread(rest);
  }
  substitutions(subs, placement);
  // What it reads: the stage before it, unless a redirection says otherwise.
  if (piped) cmd.input = ShellWord{*piped, false, ""};
  for (const ShellRedirect& r : redirects) {
    if (r.fd.value_or(0) != 0 || r.op.find('>') != std::string::npos) continue;
    if (r.op == "<<<") {
      cmd.input = ShellWord{r.target.text + "\n", r.target.dynamic, r.target.source};
    } else if (r.op == "<<" || r.op == "<<-") {
      cmd.input = r.document;
    } else {
      cmd.input.reset();
    }
  }
  std::vector<Pending> pending;
  pending.swap(after_heredoc_);
  emit(std::move(cmd), placement, redirects, std::string(tree_.textOf(node)));
  const SimpleCommand ran = out_.commands.back();  // effects may add commands (a function's body)
  std::optional<std::string> output = knownOutput(ran, env_);
  effects(ran, placement, redirects);
  for (Pending& p : pending) p.output = output;
  after_heredoc_.insert(after_heredoc_.end(), pending.begin(), pending.end());
  last_output_ = output;
  drainAfterHeredoc();  // `cat <<EOF | sh` leaves the pipeline's output
}

void ProgramBuilder::assignment(TSNode node, SimpleCommand& cmd, std::vector<TSNode>& subs,
                                bool apply) {
  TSNode name = ts_node_child_by_field_name(node, "name", 4);
  TSNode value = ts_node_child_by_field_name(node, "value", 5);
  ShellWord v;
  if (!ts_node_is_null(value)) v = evaluator(subs).assignmentValue(value);
  const std::string n = ts_node_is_null(name) ? "" : std::string(tree_.textOf(name));
  if (apply) {
    // NAME=value, NAME+=value, NAME[i]=value, NAME=(array): followed only
    // for the first, with a known value.
    const bool append = tree_.textOf(node).substr(n.size()).starts_with("+=");
    const bool plain = isVariableName(n) && (ts_node_is_null(value) || typeOf(value) != "array");
    if (!plain || v.dynamic || (append && env_.posix())) {
      env_.forget(n.substr(0, n.find('[')));  // dash has no `+=`: a command named `D+=x`
    } else if (append) {
      const VariableValue old = env_.get(n);
      if (old.known()) {
        env_.set(n, old.value + v.text);
      } else {
        env_.forget(n);
      }
    } else {
      env_.set(n, v.text);
    }
  }
  cmd.assignments.emplace_back(n, std::move(v));
}

void ProgramBuilder::assignmentsOnly(TSNode node, ShellPlacement placement,
                                     const std::vector<ShellRedirect>& redirects) {
  SimpleCommand cmd;
  std::vector<TSNode> subs;
  word_placement_ = placement;
  if (typeOf(node) == "variable_assignment") {
    assignment(node, cmd, subs, true);
  } else {
    const uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) assignment(ts_node_named_child(node, i), cmd, subs, true);
  }
  substitutions(subs, placement);
  emit(std::move(cmd), placement, redirects, std::string(tree_.textOf(node)));
  last_output_ = std::string();
}

void ProgramBuilder::builtinLike(TSNode node, ShellPlacement placement,
                                 const std::vector<ShellRedirect>& redirects) {
  // export/declare/local/readonly/typeset/unset, and [ ] / [[ ]] tests: the
  // keyword is the command name; substitutions inside run.
  SimpleCommand cmd;
  std::vector<TSNode> subs;
  std::vector<size_t> assigned_words;  // which words were written NAME=value
  std::vector<size_t> appended_words;  // ... of those, NAME+=value
  const std::string_view type = typeOf(node);
  word_placement_ = placement;
  if (type == "test_command") {
    placement.in_condition = true;
    const std::string_view text = tree_.textOf(node);
    cmd.words.push_back(ShellWord{text.starts_with("[[") ? "[[" : "[", false, ""});
    collectSubstitutions(node, subs);
    // [[ x -eq y ]] evaluates its operands as arithmetic.
    for (std::string_view op : {"-eq", "-ne", "-lt", "-le", "-gt", "-ge"}) {
      if (text.find(op) != std::string_view::npos) arithmetic(text);
    }
  } else {
    const uint32_t count = ts_node_child_count(node);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode child = ts_node_child(node, i);
      if (!ts_node_is_named(child)) {
        if (cmd.words.empty())
          cmd.words.push_back(ShellWord{std::string(typeOf(child)), false, ""});
        continue;
      }
      if (typeOf(child) == "variable_assignment") {
        assignment(child, cmd, subs, false);
        assigned_words.push_back(cmd.assignments.size() - 1);
        const std::string& assigned = cmd.assignments.back().first;
        if (tree_.textOf(child).substr(assigned.size()).starts_with("+=")) {
          appended_words.push_back(cmd.assignments.size() - 1);
        }
      } else {
        evaluator(subs).fields(child, cmd.words);
      }
    }
  }
  substitutions(subs, placement);
  emit(cmd, placement, redirects, std::string(tree_.textOf(node)));
  if (type == "declaration_command") {
    declarationEffects(cmd, assigned_words, appended_words);
  } else if (type == "unset_command") {
    effects(cmd, placement, redirects);
  }
  last_output_.reset();
}

void ProgramBuilder::declarationEffects(const SimpleCommand& cmd,
                                        const std::vector<size_t>& assigned_words,
                                        const std::vector<size_t>& appended_words) {
  const std::string_view keyword = cmd.commandName();
  if ((keyword == "local" && function_depth_ == 0) ||
      (env_.posix() && (keyword == "declare" || keyword == "typeset"))) {
    // Outside a function bash refuses `local`; inside one run through eval
    // it works. dash has no declare. What they name is not followed.
    for (const auto& [name, value] : cmd.assignments) env_.forget(name.substr(0, name.find('[')));
    for (size_t i = 1; i < cmd.words.size(); ++i) {
      const std::string& w = cmd.words[i].text;
      if (cmd.words[i].dynamic) {
        env_.makeOpaque();
        return;
      }
      if (isVariableName(w.substr(0, w.find('=')))) env_.forget(w.substr(0, w.find('=')));
    }
    return;
  }
  bool readonly = keyword == "readonly";
  bool attributes = false;
  std::vector<std::string> names;
  for (size_t i = 1; i < cmd.words.size(); ++i) {
    const ShellWord& w = cmd.words[i];
    if (w.dynamic) {
      env_.makeOpaque();
      return;
    }
    if ((w.text.starts_with("-") || w.text.starts_with("+")) && w.text.size() > 1) {
      if (w.text.find('n') != std::string::npos) {
        env_.makeOpaque();  // a nameref: assignments land elsewhere
        return;
      }
      if (w.text.find('f') != std::string::npos || w.text.find('F') != std::string::npos) return;
      if (w.text.find('r') != std::string::npos) readonly = true;
      if (w.text.find_first_not_of("-+xgpr") != std::string::npos) attributes = true;
      continue;
    }
    names.push_back(w.text.substr(0, w.text.find('=')));
  }
  for (size_t index : assigned_words) {
    const auto& [name, value] = cmd.assignments[index];
    const std::string base = name.substr(0, name.find('['));
    const bool append = std::find(appended_words.begin(), appended_words.end(), index) !=
                        appended_words.end();  // `export D+=x`: not followed
    if (attributes || append || base != name || value.dynamic || !isVariableName(name)) {
      attributes ? env_.forgetForGood(base) : env_.forget(base);
    } else if (keyword == "local" || keyword == "declare" || keyword == "typeset" ||
               keyword == "export" || keyword == "readonly") {
      env_.set(name, value.text);
    }
    if (readonly) env_.markReadonly(base);
  }
  // Names without a value: export and readonly keep it; local, declare and
  // typeset make a new variable whose value is not followed.
  for (const std::string& name : names) {
    if (!isVariableName(name)) continue;
    if (attributes) {
      env_.forgetForGood(name);
    } else if (keyword != "export" && keyword != "readonly") {
      env_.forget(name);
    }
    if (readonly) env_.markReadonly(name);
  }
}

void ProgramBuilder::effects(const SimpleCommand& cmd, ShellPlacement placement,
                             const Redirects& redirects) {
  if (cmd.words.empty()) return;  // assignments alone were applied as they were read
  if (cmd.nameIsDynamic()) {
    env_.makeOpaque();  // `$cmd X` may be `read X`, `eval ...`
    return;
  }
  const std::vector<ShellWord>& w = cmd.words;
  std::string_view name = cmd.commandName();
  size_t first = 0;
  bool bypasses_functions = false;
  while ((name == "builtin" || name == "command") && first + 1 < w.size()) {
    bypasses_functions = true;
    ++first;
    while (first < w.size() && w[first].text.starts_with("-")) {
      if (w[first].text.find_first_of("vV") != std::string::npos) return;  // a lookup
      ++first;
    }
    if (first >= w.size() || w[first].dynamic) {
      env_.makeOpaque();
      return;
    }
    name = w[first].text;
  }
  if (isSpecialBuiltin(name)) {
    // In POSIX mode (sh) assignments before a special builtin stay.
    for (const auto& [n, value] : cmd.assignments) env_.forget(n.substr(0, n.find('[')));
  }
  if (!bypasses_functions) {
    if (auto it = functions_.find(name); it != functions_.end()) {
      callFunction(cmd, it->second, placement, redirects);
      return;
    }
  }
  if (isOneOf(name, {"eval", "source", ".", "trap", "alias", "enable", "fc", "coproc", "declare",
                     "typeset", "local", "export", "readonly"})) {
    env_.makeOpaque();
  } else if (name == "hash") {
    env_.distrustOutputs();  // `hash -p PATH cat`: cat is another program
  } else if (name == "let") {
    for (size_t i = first + 1; i < w.size(); ++i) {
      arithmetic(w[i].text);
    }
  } else if (name == "printf" && first + 2 < w.size() && w[first + 1].text.starts_with("-v")) {
    // printf -v NAME FORMAT ARGS: NAME gets what printf would print.
    const bool separate = w[first + 1].text == "-v";
    const std::string target = separate ? w[first + 2].text : w[first + 1].text.substr(2);
    std::vector<std::string> rest;
    bool known = true;
    size_t format = first + (separate ? 3 : 2);
    if (format < w.size() && w[format].text == "--") ++format;  // the end of the options
    for (size_t i = format; i < w.size(); ++i) {
      known = known && !w[i].dynamic;
      rest.push_back(w[i].text);
    }
    std::optional<std::string> value = known ? printfOutput(rest) : std::nullopt;
    if (value && isVariableName(target) && env_.outputsKnown() && !env_.posix()) {
      env_.set(target, std::move(*value));
    } else {
      env_.forget(target.substr(0, target.find('[')));
    }
  } else if (name == "unset") {
    for (size_t i = first + 1; i < w.size(); ++i) {
      if (w[i].dynamic) return env_.makeOpaque();
      if (w[i].text == "-f") return;  // functions
      if (w[i].text == "-n") return env_.makeOpaque();
      if (w[i].text.starts_with("-")) continue;
      const std::string& n = w[i].text;
      if (isVariableName(n)) {
        env_.unset(n);
      } else {
        env_.forget(n.substr(0, n.find('[')));
      }
    }
  } else if (changesNamedVariables(name)) {
    // read, mapfile, getopts, wait -p, printf without -v: every name given.
    for (size_t i = first + 1; i < w.size(); ++i) {
      if (w[i].dynamic) return env_.makeOpaque();
      std::string_view t = w[i].text;
      if (t.starts_with("-") && t.size() > 2) t.remove_prefix(2);
      if (isVariableName(t)) env_.forget(t);
    }
  } else if (name == "set") {
    for (size_t i = first + 1; i < w.size(); ++i) {
      const std::string& t = w[i].text;
      if (w[i].dynamic) return env_.forgetPositional();
      if (t == "-o" || t == "+o") {
        ++i;
        continue;
      }
      if (t == "--" || t == "-" || !(t.starts_with("-") || t.starts_with("+"))) {
        std::vector<std::string> values;
        for (size_t k = (t == "--" || t == "-") ? i + 1 : i; k < w.size(); ++k) {
          if (w[k].dynamic) return env_.forgetPositional();
          values.push_back(w[k].text);
        }
        env_.setPositional(std::move(values));
        return;
      }
    }
  } else if (name == "shift") {
    const std::vector<std::string>* positional = env_.positional();
    const std::optional<long long> n =
        first + 1 < w.size() ? count(w[first + 1].text) : std::optional<long long>(1);
    if (positional == nullptr || !n || w.size() > first + 2) return env_.forgetPositional();
    if (static_cast<size_t>(*n) <= positional->size()) {
      env_.setPositional(std::vector<std::string>(
          positional->begin() + static_cast<std::ptrdiff_t>(*n), positional->end()));
    }
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
