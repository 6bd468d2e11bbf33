// The builder's simple commands, assignments and builtin-like commands.
#include <algorithm>
#include <utility>

#include "known_output.hpp"
#include "program_builder.hpp"
#include "toolguard/paths.hpp"
#include "unterminated_quote.hpp"
#include "word_value.hpp"

namespace toolguard::detail {
namespace {

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

}  // namespace

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

}  // namespace toolguard::detail
