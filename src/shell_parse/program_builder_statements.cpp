// The builder's statements: lists, pipelines, if, loops, case, functions.
#include <algorithm>
#include <utility>

#include "known_output.hpp"
#include "program_builder.hpp"
#include "toolguard/paths.hpp"
#include "unterminated_quote.hpp"
#include "word_value.hpp"

namespace toolguard::detail {
namespace {

// Statement containers whose named children are statements (or clauses).
bool isContainer(std::string_view type) {
  return isOneOf(type, {"program", "list", "compound_statement", "do_group", "elif_clause",
                        "else_clause", "case_item", "negated_command"});
}

}  // namespace

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

}  // namespace toolguard::detail
