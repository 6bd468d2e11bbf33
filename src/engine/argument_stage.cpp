// Limits, input schemas and validateArgs hooks: the argument checks that are not rules.
#include "argument_stage.hpp"

#include <algorithm>
#include <exception>

#include "toolguard/rule.hpp"

namespace toolguard::detail {
namespace {

std::string byteCount(size_t bytes) {
  return std::to_string(bytes) + " bytes";
}

// The schema's verdict on `args`, or nullopt when they conform (or the tool has none).
std::optional<std::string> schemaError(const CompiledPolicy& compiled, const std::string& tool,
                                       const nlohmann::json& args) {
  if (!compiled.policy.validate_input_schemas) return std::nullopt;
  auto it = compiled.schemas.find(tool);
  if (it == compiled.schemas.end()) return std::nullopt;
  if (const auto* broken = std::get_if<std::string>(&it->second)) {
    return "the input schema of " + tool + " cannot be checked: " + *broken;
  }
  const JsonSchema& schema = std::get<JsonSchema>(it->second);
  std::optional<SchemaViolation> violation = schema.firstViolation(args);
  if (!violation) return std::nullopt;
  return "the arguments do not match the input schema of " + tool + ": " + describe(*violation);
}

}  // namespace

Expected<void> checkArgumentShape(const ToolCall& call, const ArgumentLimits& limits) {
  if (!call.args.is_object() && !call.args.is_null()) return fail("args: expected a JSON object");
  const size_t max_depth = std::min(limits.max_depth, kMaxArgumentDepth);
  if (jsonDepth(call.args, max_depth + 1) > max_depth) {
    return fail("args: nested deeper than " + std::to_string(max_depth) +
                " levels (limits.max_argument_depth)");
  }
  if (const size_t size = jsonSize(call.args, limits.max_bytes); size > limits.max_bytes) {
    return fail("args: larger than " + byteCount(limits.max_bytes) +
                " (limits.max_argument_bytes)");
  }
  return {};
}

namespace {

bool sameIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

}  // namespace

Expected<void> checkArgumentNames(const ToolCall& call, const ToolInfo& tool) {
  if (!call.args.is_object() || call.args.size() < 1) return {};
  for (auto it = call.args.begin(); it != call.args.end(); ++it) {
    const std::string& name = it.key();
    for (auto other = std::next(it); other != call.args.end(); ++other) {
      if (sameIgnoringCase(name, other.key())) {
        return fail("args: \"" + name + "\" and \"" + other.key() +
                    "\" differ only in case (a tool that reads names without regard to case "
                    "could run either)");
      }
    }
    const auto read_in_other_case = [&](const std::string& read) {
      return !read.empty() && read != name && sameIgnoringCase(read, name);
    };
    const std::string* read = nullptr;
    if (read_in_other_case(tool.command_arg)) read = &tool.command_arg;
    for (const std::string& path : tool.path_args) {
      if (read == nullptr && read_in_other_case(path)) read = &path;
    }
    if (read != nullptr) {
      return fail("args: \"" + name + "\" is the argument \"" + *read + "\" of " + call.tool +
                  " in another case, which the guard does not read");
    }
  }
  return {};
}

ArgumentOutcome checkArguments(const CompiledPolicy& compiled, const ToolCall& call) {
  ArgumentOutcome out;
  if (auto error = schemaError(compiled, call.tool, call.args)) {
    out.rejection = std::move(error);
    return out;
  }
  // What the validators see: a copy of the call, made when one applies.
  std::optional<ToolCall> current;
  bool changed = false;
  for (const ArgumentValidatorEntry& entry : compiled.policy.argument_validators) {
    if (!entry.validate || !toolNameMatches(entry.tool, call.tool)) continue;
    const std::string who = "validator " + (entry.name.empty() ? entry.tool : entry.name);
    if (!current) current = call;
    ArgumentCheck check;
    try {
      check = entry.validate(*current);
    } catch (const std::exception& e) {
      out.rejection = who + " failed: " + e.what();
      return out;
    } catch (...) {
      out.rejection = who + " failed";
      return out;
    }
    if (check.rejected) {
      out.rejection = who + " rejected the arguments: " +
                      (check.reason.empty() ? std::string("no reason given") : check.reason);
      return out;
    }
    if (check.sanitized && *check.sanitized != current->args) {
      if (!check.sanitized->is_object()) {
        out.rejection = who + " returned arguments that are not a JSON object";
        return out;
      }
      current->args = std::move(*check.sanitized);
      changed = true;
    }
  }
  if (!changed) return out;
  if (auto error = schemaError(compiled, call.tool, current->args)) {
    out.rejection = "after the validators: " + *error;
    return out;
  }
  out.sanitized = std::move(current->args);
  return out;
}

}  // namespace toolguard::detail
