// `toolguard check --server URL`: the call goes to `toolguard serve`, which
// answers with the fleet's policy, approvals and queue. Whatever goes wrong
// on the way (unreachable, slow, an error status, an answer that is not a
// decision) is a deny here, said on stderr: a hook never fails open.
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "cli/bounded_input.hpp"
#include "cli/check_arguments.hpp"
#include "cli/check_deadline.hpp"
#include "cli/commands.hpp"
#include "core/model_text.hpp"
#include "front/call_json.hpp"
#include "front/policy_options.hpp"
#include "front/result_hook.hpp"
#include "http/plain_http.hpp"
#include "toolguard/audit_log.hpp"
#include "toolguard/strict_json.hpp"
#include "toolguard/tool_call.hpp"

namespace toolguard::cli {
namespace {

std::string percentEncoded(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// True when `answer` is a decision in `format` (what `check` would print).
bool isDecision(const nlohmann::json& answer, front::CallFormat format) {
  auto oneOf = [](const nlohmann::json& object, const char* key,
                  std::initializer_list<const char*> names) {
    if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return false;
    const std::string& value = object[key].get_ref<const std::string&>();
    for (const char* name : names) {
      if (value == name) return true;
    }
    return false;
  };
  switch (format) {
    case front::CallFormat::Toolguard:
      return oneOf(answer, "verdict", {"allow", "ask", "deny", "abort"});
    case front::CallFormat::Claude:
      // An empty object would leave the call to Claude Code's own rules: never from a service.
      return answer.is_object() && answer.contains("hookSpecificOutput") &&
             oneOf(answer["hookSpecificOutput"], "permissionDecision", {"allow", "ask", "deny"});
    case front::CallFormat::Gemini:
      return oneOf(answer, "decision", {"allow", "ask_user", "deny"});
    case front::CallFormat::GeminiHook:
      return oneOf(answer, "decision", {"allow", "deny"});
  }
  return false;
}

int failClosed(const std::string& why, front::CallFormat format) {
  claimCheckAnswer();
  std::cerr << "toolguard: " << why << "\n";
  if (format == front::CallFormat::Claude) return kExitError;  // exit 2 blocks the call
  Decision d = front::inputErrorDecision(why);
  d.reason = why;
  d.model_reason = detail::blockedText("its decision service could not be asked.");
  std::cout << front::dumpLine(front::renderDecision(d, "", format)) << '\n';
  return kExitError;
}

}  // namespace

int runRemoteCheck(const CheckOptions& o) {
  const front::CallFormat format = front::callFormatNamed(o.format);
  const std::string where = "the toolguard service at " + o.server;
  std::string text;
  constexpr size_t kMaxInputBytes = kMaxArgumentBytes + (size_t{64} << 10);
  if (!readBounded(std::cin, kMaxInputBytes, text, kMaxRecordedInputBytes)) {
    return failClosed("input larger than " + std::to_string(kMaxInputBytes) + " bytes", format);
  }
  // A client certificate (TLS) may stand for the token.
  detail::ClientCertificate certificate;
  if (const char* path = std::getenv("TOOLGUARD_CLIENT_CERT")) certificate.certificate = path;
  if (const char* path = std::getenv("TOOLGUARD_CLIENT_KEY")) certificate.key = path;
  if (certificate.certificate.empty() != certificate.key.empty()) {
    return failClosed("TOOLGUARD_CLIENT_CERT and TOOLGUARD_CLIENT_KEY go together: set both",
                      format);
  }
  if (!certificate.certificate.empty() && !o.server.starts_with("https://")) {
    return failClosed("TOOLGUARD_CLIENT_CERT needs an https:// service, not " + o.server, format);
  }
  const char* token = std::getenv("TOOLGUARD_TOKEN");
  if ((token == nullptr || *token == '\0') && certificate.certificate.empty()) {
    return failClosed(
        "no token for " + where + ": set TOOLGUARD_TOKEN (or TOOLGUARD_CLIENT_CERT and KEY)",
        format);
  }
  if (token == nullptr) token = "";
  for (const char* c = token; *c; ++c) {
    if (static_cast<unsigned char>(*c) < 0x21 || *c == 0x7f) {
      return failClosed("TOOLGUARD_TOKEN holds a space or a control character", format);
    }
  }
  const std::string target = "/v1/check?format=" + percentEncoded(o.format) +
                             "&wait=" + std::to_string(o.wait_s) +
                             "&cwd=" + percentEncoded(front::currentDirectory());
  // Beyond the wait for a person, the service has ten seconds to answer.
  const long timeout_ms = (static_cast<long>(o.wait_s) + 10) * 1000;
  // The machine's name, for the person the ask reaches (the web queue shows it).
  char machine[256] = {};
  if (gethostname(machine, sizeof machine - 1) != 0) machine[0] = '\0';
  std::map<std::string, std::string> headers{{"Content-Type", "application/json"}};
  if (*token != '\0') headers["Authorization"] = std::string("Bearer ") + token;
  std::string host = machine;
  if (!host.empty() && host.find_first_of("\r\n") == std::string::npos) {
    headers["X-Toolguard-Machine"] = host;
  }
  const Expected<detail::PlainHttpResponse> response =
      detail::postToService(o.server, target, headers, text, timeout_ms, certificate);
  if (!response) return failClosed(where + " could not be asked: " + response.error(), format);
  // Read strictly: a reply with a key twice (two "verdict"s), bytes after
  // the JSON or a NUL is not a decision, whichever value another reader
  // would take.
  StrictJson reply = parseStrictJson(response->body);
  nlohmann::json answer = reply.value ? std::move(*reply.value) : nlohmann::json();
  if (response->status != 200) {
    std::string message = answer.is_object() ? answer.value("error", "") : "";
    return failClosed(where + " answered " + std::to_string(response->status) +
                          (message.empty() ? "" : ": " + message),
                      format);
  }
  if (!reply.value) {
    return failClosed(where + " answered with no decision (" + reply.error + ")", format);
  }
  // A result hook's answer is a message or nothing ({}): the call has run.
  const bool result_hook =
      front::readResultHook(text, format, front::currentDirectory()).has_value();
  if (result_hook ? !answer.is_object() : !isDecision(answer, format)) {
    return failClosed(where + " answered with no decision", format);
  }
  // --mode tighten: the service's allow is no opinion here too.
  if (!result_hook && hookStyleOf(o).allow_is_no_opinion &&
      answer["hookSpecificOutput"].value("permissionDecision", "") == "allow") {
    answer = nlohmann::json::object();
  }
  claimCheckAnswer();
  std::cout << front::dumpLine(answer) << '\n';
  if (format == front::CallFormat::GeminiHook && answer["decision"] == "deny") {
    const nlohmann::json& reason = answer.contains("reason") ? answer["reason"] : nlohmann::json();
    std::cerr << "toolguard: " << (reason.is_string() ? reason.get<std::string>() : "") << "\n";
  }
  return kExitOk;
}

}  // namespace toolguard::cli
