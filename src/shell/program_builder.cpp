// Walking the bash syntax tree into a list of simple commands.
#include "program_builder.hpp"

#include "toolguard/paths.hpp"
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

}  // namespace

ProgramBuilder::ProgramBuilder(const BashTree& tree, const std::string& home, ShellProgram& out,
                               const SimpleCommand& prototype)
    : tree_(tree), home_(home), out_(out), prototype_(prototype) {}

void ProgramBuilder::build() {
  TSNode root = tree_.root();
  if (ts_node_has_error(root)) {
    out_.parse_error = true;
    if (out_.error.empty()) out_.error = firstError(root, tree_);
  }
  statement(root, prototype_.placement, {});
}

ShellWord ProgramBuilder::word(TSNode node, std::vector<TSNode>& substitutions) {
  WordEvaluator evaluator(tree_, home_, substitutions);
  return evaluator.evaluate(node);
}

void ProgramBuilder::substitutions(const std::vector<TSNode>& nodes, ShellPlacement placement) {
  for (TSNode node : nodes) {
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
  }
}

void ProgramBuilder::children(TSNode node, ShellPlacement placement,
                              const std::vector<ShellRedirect>& redirects) {
  const std::vector<FieldChild> kids = childrenOf(node);
  for (size_t i = 0; i < kids.size(); ++i) {
    if (!kids[i].named) continue;
    ShellPlacement p = placement;
    if (i + 1 < kids.size() && !kids[i + 1].named && typeOf(kids[i + 1].node) == "&") {
      p.background = true;
    }
    statement(kids[i].node, p, redirects);
  }
}

void ProgramBuilder::statement(TSNode node, ShellPlacement placement,
                               const std::vector<ShellRedirect>& redirects) {
  const std::string_view type = typeOf(node);
  if (type == "comment") return;
  if (type == "command") {
    command(node, placement, redirects);
  } else if (isContainer(type)) {
    children(node, placement, redirects);
  } else if (type == "pipeline") {
    pipeline(node, placement, redirects);
  } else if (type == "subshell") {
    placement.in_subshell = true;
    children(node, placement, redirects);
  } else if (type == "redirected_statement") {
    redirectedStatement(node, placement, redirects);
  } else if (type == "function_definition") {
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
    if (!ts_node_is_null(body)) statement(body, placement, with_own);
  } else if (isOneOf(type, {"if_statement", "while_statement"})) {
    conditional(node, placement, redirects);
  } else if (isOneOf(type, {"for_statement", "case_statement", "c_style_for_statement"})) {
    // The words iterated over or matched may hold substitutions; the body runs.
    std::vector<TSNode> subs;
    for (const char* field : {"value", "initializer", "condition", "update"}) {
      TSNode value = ts_node_child_by_field_name(node, field, static_cast<uint32_t>(strlen(field)));
      if (!ts_node_is_null(value)) collectSubstitutions(value, subs);
    }
    substitutions(subs, placement);
    const uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode child = ts_node_named_child(node, i);
      if (isOneOf(typeOf(child), {"do_group", "compound_statement", "case_item"})) {
        statement(child, placement, redirects);
      }
    }
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
  } else {
    // Anything else (new grammar nodes, ERROR): read its statements and
    // substitutions, never skip them.
    std::vector<TSNode> subs;
    collectSubstitutions(node, subs);
    substitutions(subs, placement);
  }
}

void ProgramBuilder::pipeline(TSNode node, ShellPlacement placement,
                              const std::vector<ShellRedirect>& redirects) {
  std::vector<TSNode> stages;
  const uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(node, i);
    if (typeOf(child) != "comment") stages.push_back(child);
  }
  for (size_t i = 0; i < stages.size(); ++i) {
    ShellPlacement p = placement;
    p.pipeline_position = i;
    p.pipeline_length = stages.size();
    statement(stages[i], p, redirects);
  }
}

void ProgramBuilder::drainAfterHeredoc() {
  std::vector<Pending> pending;
  pending.swap(after_heredoc_);
  for (const Pending& p : pending) {
    if (p.piped) {
      pipedAfterHeredoc(p.node, p.placement);
    } else {
      statement(p.node, p.placement, {});
    }
  }
}

void ProgramBuilder::pipedAfterHeredoc(TSNode node, ShellPlacement placement) {
  std::vector<TSNode> stages;
  if (typeOf(node) == "pipeline") {
    const uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) stages.push_back(ts_node_named_child(node, i));
  } else {
    stages.push_back(node);
  }
  for (size_t i = 0; i < stages.size(); ++i) {
    ShellPlacement p = placement;
    p.pipeline_position = i + 1;
    p.pipeline_length = stages.size() + 1;
    statement(stages[i], p, {});
  }
}

void ProgramBuilder::conditional(TSNode node, ShellPlacement placement,
                                 const std::vector<ShellRedirect>& redirects) {
  for (const FieldChild& child : childrenOf(node)) {
    if (!child.named) continue;
    ShellPlacement p = placement;
    if (child.field == "condition") p.in_condition = true;
    statement(child.node, p, redirects);
  }
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
    withTailRedirects(body, placement, outer, redirects);
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
  doc.dynamic = !quoted && doc.text.find_first_of("$`") != std::string::npos;
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
        after_heredoc_.push_back({child, placement, f != "right"});
      }
    } else if (!has_target) {
      r.target = word(child, subs);
      has_target = true;
    } else {
      ShellWord more = word(child, subs);  // `> a b`: extra words of the redirect
      r.target.text += " " + more.text;
      r.target.dynamic = r.target.dynamic || more.dynamic;
    }
  }
  redirects.push_back(std::move(r));
}

void ProgramBuilder::command(TSNode node, ShellPlacement placement,
                             std::vector<ShellRedirect> redirects) {
  SimpleCommand cmd;
  std::vector<TSNode> subs;
  for (const FieldChild& fc : childrenOf(node)) {
    if (!fc.named) continue;
    const TSNode child = fc.node;
    const std::string_view type = typeOf(child);
    const std::string_view f = fc.field;
    if (f == "name") {
      const uint32_t parts = ts_node_named_child_count(child);
      cmd.words.push_back(parts == 1 ? word(ts_node_named_child(child, 0), subs)
                                     : word(child, subs));
    } else if (f == "redirect" ||
               isOneOf(type, {"file_redirect", "heredoc_redirect", "herestring_redirect"})) {
      redirect(child, redirects, subs, placement);
    } else if (type == "variable_assignment") {
      assignment(child, cmd, subs);
    } else if (type == "subshell") {
      ShellPlacement p = placement;
      p.in_subshell = true;
      children(child, p, {});
    } else {
      cmd.words.push_back(word(child, subs));
    }
  }
  substitutions(subs, placement);
  std::vector<Pending> pending;
  pending.swap(after_heredoc_);
  emit(std::move(cmd), placement, redirects, std::string(tree_.textOf(node)));
  after_heredoc_.insert(after_heredoc_.end(), pending.begin(), pending.end());
  drainAfterHeredoc();
}

void ProgramBuilder::assignment(TSNode node, SimpleCommand& cmd, std::vector<TSNode>& subs) {
  TSNode name = ts_node_child_by_field_name(node, "name", 4);
  TSNode value = ts_node_child_by_field_name(node, "value", 5);
  ShellWord v;
  if (!ts_node_is_null(value)) v = word(value, subs);
  cmd.assignments.emplace_back(ts_node_is_null(name) ? "" : std::string(tree_.textOf(name)),
                               std::move(v));
}

void ProgramBuilder::assignmentsOnly(TSNode node, ShellPlacement placement,
                                     const std::vector<ShellRedirect>& redirects) {
  SimpleCommand cmd;
  std::vector<TSNode> subs;
  if (typeOf(node) == "variable_assignment") {
    assignment(node, cmd, subs);
  } else {
    const uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) assignment(ts_node_named_child(node, i), cmd, subs);
  }
  substitutions(subs, placement);
  emit(std::move(cmd), placement, redirects, std::string(tree_.textOf(node)));
}

void ProgramBuilder::builtinLike(TSNode node, ShellPlacement placement,
                                 const std::vector<ShellRedirect>& redirects) {
  // export/declare/local/readonly/typeset/unset, and [ ] / [[ ]] tests: the
  // keyword is the command name; substitutions inside run.
  SimpleCommand cmd;
  std::vector<TSNode> subs;
  const std::string_view type = typeOf(node);
  if (type == "test_command") {
    placement.in_condition = true;
    const std::string_view text = tree_.textOf(node);
    cmd.words.push_back(ShellWord{text.starts_with("[[") ? "[[" : "[", false, ""});
    collectSubstitutions(node, subs);
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
        assignment(child, cmd, subs);
      } else {
        cmd.words.push_back(word(child, subs));
      }
    }
  }
  substitutions(subs, placement);
  emit(std::move(cmd), placement, redirects, std::string(tree_.textOf(node)));
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
}

}  // namespace toolguard::detail
