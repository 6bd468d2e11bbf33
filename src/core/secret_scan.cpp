// Recognizing credentials in text and JSON values.
#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "toolguard/secret_rules.hpp"

namespace toolguard {
namespace {

struct SecretFormat {
  const char* kind;
  const char* pattern;  // RE2, searched anywhere in the text
};

// Formats with a recognizable prefix or shape; generic high-entropy strings
// are left out on purpose (too many hashes and ids look like them).
constexpr SecretFormat kFormats[] = {
    {"a private key", R"(-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)"},
    {"an AWS access key id", R"(\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b)"},
    {"an AWS secret access key",
     R"((?i)aws_secret_access_key["']?\s*[=:]\s*["']?[A-Za-z0-9/+]{40})"},
    {"a Google API key", R"(\bAIza[0-9A-Za-z_\-]{35})"},
    {"a GitHub token", R"(\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}))"},
    {"a GitLab token", R"(\bglpat-[A-Za-z0-9_\-]{20,})"},
    {"a Slack token", R"(\bxox[abposr]-[A-Za-z0-9\-]{10,})"},
    {"a Stripe secret key", R"(\b[sr]k_live_[A-Za-z0-9]{16,})"},
    {"an Anthropic or OpenAI API key", R"(\bsk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,})"},
    {"a bearer token", R"((?i)\bbearer\s+[A-Za-z0-9._~+/\-]{20,}=*)"},
    {"basic authorization credentials", R"((?i)\bauthorization:\s*basic\s+[A-Za-z0-9+/]{8,}=*)"},
    {"a JSON web token", R"(\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,})"},
    {"a URL with a password", R"(\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^/\s:@]+:[^/\s@]+@)"},
};

class SecretScanner {
 public:
  SecretScanner() : set_(options(), RE2::UNANCHORED) {
    for (const SecretFormat& format : kFormats) {
      if (set_.Add(format.pattern, nullptr) < 0) std::abort();  // a bug in the table above
    }
    if (!set_.Compile()) std::abort();
  }

  std::optional<std::string> find(std::string_view text) const {
    std::vector<int> hits;
    RE2::Set::ErrorInfo error{};
    if (!set_.Match(text, &hits, &error) || hits.empty()) {
      // A matcher that gave up (out of memory on a huge value) cannot say
      // "no secret": fail closed.
      if (error.kind != RE2::Set::kNoError) return "text too large to scan for secrets";
      return std::nullopt;
    }
    return kFormats[*std::min_element(hits.begin(), hits.end())].kind;
  }

 private:
  static RE2::Options options() {
    RE2::Options o;
    o.set_log_errors(false);
    return o;
  }
  RE2::Set set_;
};

const SecretScanner& scanner() {
  static const SecretScanner instance;
  return instance;
}

std::string escapePointerToken(const std::string& token) {
  std::string out;
  for (char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::optional<std::string> findSecretInText(std::string_view text) {
  if (text.size() < 16) return std::nullopt;  // every format is longer
  return scanner().find(text);
}

std::optional<SecretMatch> findSecret(const nlohmann::json& value) {
  std::vector<std::pair<const nlohmann::json*, std::string>> stack{{&value, ""}};
  while (!stack.empty()) {
    auto [node, pointer] = std::move(stack.back());
    stack.pop_back();
    if (node->is_string()) {
      if (auto kind = findSecretInText(node->get_ref<const std::string&>())) {
        return SecretMatch{*kind, pointer};
      }
    } else if (node->is_object()) {
      for (const auto& [key, child] : node->items()) {
        std::string child_pointer = pointer + "/" + escapePointerToken(key);
        // The key itself: name the object, never the secret.
        if (auto kind = findSecretInText(key)) return SecretMatch{*kind + " (as a key)", pointer};
        stack.emplace_back(&child, std::move(child_pointer));
      }
    } else if (node->is_array()) {
      for (size_t i = 0; i < node->size(); ++i) {
        stack.emplace_back(&(*node)[i], pointer + "/" + std::to_string(i));
      }
    }
  }
  return std::nullopt;
}

}  // namespace toolguard
