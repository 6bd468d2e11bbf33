// tg_guard_new's options JSON, read strictly: an unknown or mistyped member
// is an error naming it, never ignored.
#include <stdexcept>

#include "capi/capi_types.hpp"
#include "policy/embedded_profiles.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/strict_json.hpp"

namespace {

using nlohmann::json;

constexpr uint64_t kMaxApprovalTimeoutMs = 86'400'000;  // as the command's --approval-timeout

bool readBool(const json& value, const std::string& name) {
  if (!value.is_boolean())
    throw std::invalid_argument("options: \"" + name + "\" must be true or false");
  return value.get<bool>();
}

std::string readString(const json& value, const std::string& name) {
  if (!value.is_string()) throw std::invalid_argument("options: \"" + name + "\" must be a string");
  std::string text = value.get<std::string>();
  if (text.find('\0') != std::string::npos) {
    throw std::invalid_argument("options: \"" + name + "\" holds a NUL character");
  }
  return text;
}

std::vector<std::string> readStrings(const json& value, const std::string& name) {
  if (!value.is_array())
    throw std::invalid_argument("options: \"" + name + "\" must be an array of strings");
  std::vector<std::string> out;
  for (size_t i = 0; i < value.size(); ++i) {
    out.push_back(readString(value[i], name + "[" + std::to_string(i) + "]"));
  }
  return out;
}

}  // namespace

GuardSettings readGuardSettings(const char* options_json) {
  GuardSettings s;
  if (options_json == nullptr || *options_json == '\0') return s;
  toolguard::StrictJson parsed = toolguard::parseStrictJson(options_json);
  if (!parsed.value) throw std::invalid_argument("options: " + parsed.error);
  const json& o = *parsed.value;
  if (!o.is_object()) throw std::invalid_argument("options: must be a JSON object");
  for (const auto& [name, value] : o.items()) {
    if (name == "policy_files") {
      s.policy.policy_files = readStrings(value, name);
    } else if (name == "profiles") {
      s.policy.profiles = readStrings(value, name);
    } else if (name == "builtin") {
      s.policy.no_builtin = !readBool(value, name);
    } else if (name == "user") {
      s.policy.no_user = !readBool(value, name);
    } else if (name == "project") {
      s.policy.no_project = !readBool(value, name);
    } else if (name == "managed") {
      s.policy.no_managed = !readBool(value, name);
    } else if (name == "project_dir") {
      s.policy.project = readString(value, name);
    } else if (name == "home") {
      s.home = readString(value, name);
    } else if (name == "audit") {
      s.audit = readBool(value, name);
    } else if (name == "audit_log") {
      s.audit_log = readString(value, name);
    } else if (name == "approval_timeout_ms") {
      if (!value.is_number_unsigned()) {
        throw std::invalid_argument("options: \"approval_timeout_ms\" must be a whole number >= 0");
      }
      if (value.get<uint64_t>() > kMaxApprovalTimeoutMs) {
        throw std::invalid_argument(
            "options: \"approval_timeout_ms\" must be at most 86400000 (a day)");
      }
      s.approval_timeout = std::chrono::milliseconds(value.get<uint64_t>());
    } else if (name == "cwd") {
      s.cwd = readString(value, name);
      if (!s.cwd.starts_with('/')) {
        throw std::invalid_argument("options: \"cwd\" must be an absolute path");
      }
    } else if (name == "ask_server") {
      if (!value.is_object())
        throw std::invalid_argument("options: \"ask_server\" must be an object");
      for (const auto& [field, text] : value.items()) {
        if (field == "url") {
          s.ask_server_url = readString(text, "ask_server.url");
        } else if (field == "token") {
          s.ask_server_token = readString(text, "ask_server.token");
        } else {
          throw std::invalid_argument("options: unknown member \"ask_server." + field + "\"");
        }
      }
      if (s.ask_server_url.empty())
        throw std::invalid_argument("options: \"ask_server.url\" is missing");
    } else {
      throw std::invalid_argument("options: unknown member \"" + name + "\"");
    }
  }
  for (const std::string& profile : s.policy.profiles) {
    if (toolguard::policyProfileText(profile) == nullptr) {
      throw std::invalid_argument("options: \"profiles\": " +
                                  toolguard::detail::unknownProfileMessage(profile));
    }
  }
  return s;
}
