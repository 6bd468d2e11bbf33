// One validation run over the compiled nodes.
#include "schema/context.hpp"

#include "schema/json_pointer.hpp"

namespace toolguard::schema {

Context::Context(const CompiledSchema& schema, std::vector<SchemaViolation>* out, std::size_t limit)
    : schema_(schema),
      out_(out),
      limit_(limit == 0 ? 1 : limit),
      track_(schema.annotations),
      dynamic_(schema.dynamic_scope) {
  path_.reserve(16);
}

bool Context::validate(NodeId id, const Json& value) {
  return enter(id, value, false);
}

bool Context::validateHere(NodeId id, const Json& value) {
  return enter(id, value, true);
}

bool Context::enter(NodeId id, const Json& value, bool here) {
  if (aborted_) return false;
  const Node* node = &schema_.nodes[id];
  if (node->kind == Node::Kind::Ref) node = &schema_.nodes[node->target];
  if (depth_ >= kMaxValidationDepth) {
    aborted_ = true;
    abort_violation_ = {instancePointer(), "depth", node->pointer,
                        "validation nested deeper than " + std::to_string(kMaxValidationDepth) +
                            " schemas (a too deeply nested value or a schema that recurses "
                            "without consuming the value); rejected"};
    return false;
  }
  ++depth_;
  const bool entered = dynamic_ && (scope_.empty() || scope_.back() != node->resource);
  if (entered) scope_.push_back(node->resource);
  bool ok;
  if (!track_) {
    ok = validateNode(*node, value);
  } else {
    frames_.emplace_back();
    ok = validateNode(*node, value);
    Evaluated done = std::move(frames_.back());
    frames_.pop_back();
    if (ok && here && !frames_.empty()) frames_.back().merge(done);
  }
  if (entered) scope_.pop_back();
  --depth_;
  return ok;
}

NodeId Context::dynamicTarget(const std::string& name, NodeId initial) const {
  for (std::uint32_t resource : scope_) {
    const auto& anchors = schema_.resources[resource].dynamic_anchors;
    if (auto it = anchors.find(name); it != anchors.end()) return it->second;
  }
  return initial;
}

NodeId Context::recursiveTarget(NodeId initial) const {
  NodeId target = initial;
  for (auto it = scope_.rbegin(); it != scope_.rend(); ++it) {
    const std::optional<NodeId>& root = schema_.resources[*it].recursive_root;
    if (!root) break;
    target = *root;
  }
  return target;
}

bool Context::validateNode(const Node& node, const Json& value) {
  if (node.kind == Node::Kind::False) {
    if (out_ != nullptr && out_->size() < limit_) {
      out_->push_back({instancePointer(), "false", node.pointer,
                       "the schema is false: no value is allowed here"});
    }
    return false;
  }
  bool ok = true;
  auto run = [&](const std::vector<std::unique_ptr<Keyword>>& checks) {
    for (const auto& check : checks) {
      if (!check->validate(value, *this)) {
        ok = false;
        if (stopped()) return false;
      }
    }
    return true;
  };
  if (!run(node.any)) return false;
  bool go_on = true;
  switch (value.type()) {
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      go_on = run(node.number);
      break;
    case Json::value_t::string:
      go_on = run(node.string);
      break;
    case Json::value_t::array:
      go_on = run(node.array);
      break;
    case Json::value_t::object:
      go_on = run(node.object);
      break;
    default:
      break;
  }
  if (!go_on || !run(node.combinators)) return false;
  if (!node.unevaluated.empty()) run(node.unevaluated);
  return ok;
}

bool Context::quietly(NodeId node, const Json& value, bool here) {
  std::vector<SchemaViolation>* saved = out_;
  out_ = nullptr;
  const bool ok = enter(node, value, here);
  out_ = saved;
  return ok;
}

bool Context::test(NodeId node, const Json& value) {
  return quietly(node, value, false);
}

bool Context::testHere(NodeId node, const Json& value) {
  return quietly(node, value, true);
}

std::optional<SchemaViolation> Context::first(NodeId node, const Json& value) {
  std::vector<SchemaViolation> found;
  std::vector<SchemaViolation>* saved_out = out_;
  const std::size_t saved_limit = limit_;
  out_ = &found;
  limit_ = 1;
  validate(node, value);
  out_ = saved_out;
  limit_ = saved_limit;
  if (aborted_) return abort_violation_;
  if (found.empty()) return std::nullopt;
  return std::move(found.front());
}

std::string Context::instancePointer() const {
  std::string pointer;
  for (const PathToken& token : path_) {
    if (token.key != nullptr) {
      appendToken(pointer, *token.key);
    } else {
      pointer += '/';
      pointer += std::to_string(token.index);
    }
  }
  return pointer;
}

void Context::record(const KeywordInfo& keyword, std::string message) {
  out_->push_back({instancePointer(), keyword.name, keyword.pointer, std::move(message)});
}

}  // namespace toolguard::schema
