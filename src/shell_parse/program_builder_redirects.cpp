// The builder's redirections and here-documents.
#include <algorithm>
#include <utility>

#include "known_output.hpp"
#include "program_builder.hpp"
#include "toolguard/paths.hpp"
#include "unterminated_quote.hpp"
#include "word_value.hpp"

namespace toolguard::detail {

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

}  // namespace toolguard::detail
