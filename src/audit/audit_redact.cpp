// Secrets removed from what the audit log records: values under credential
// keys, and every match of the built-in secret formats inside strings.
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>
#include <utility>
#include <vector>

#include "audit/audit_detail.hpp"
#include "core/secret_formats.hpp"
#include "core/unicode_text.hpp"
#include "toolguard/audit_log.hpp"
#include "toolguard/secret_rules.hpp"

namespace toolguard {
namespace detail {
namespace {

using nlohmann::json;

// Each match of a format's `redact` pattern is replaced; and when
// findSecretInText still finds a secret after these replacements, the whole
// string is redacted (fail closed).
class Redactor {
 public:
  Redactor() {
    RE2::Options options;
    options.set_log_errors(false);
    for (const SecretFormat& format : kSecretFormats) {
      auto re = std::make_unique<RE2>(format.redact, options);
      if (!re->ok()) std::abort();  // a bug in the shared table
      patterns_.push_back(std::move(re));
    }
  }

  // Replaces every match of one pattern; true if anything was replaced.
  static bool replaceAll(const RE2& re, std::string& text) {
    const int groups = std::min(re.NumberOfCapturingGroups(), 1);
    std::array<re2::StringPiece, 2> match;
    std::string out;
    size_t pos = 0;     // where the next search starts
    size_t copied = 0;  // text[0, copied) is in `out` already
    bool replaced = false;
    while (pos <= text.size() &&
           re.Match(text, pos, text.size(), RE2::UNANCHORED, match.data(), groups + 1)) {
      const re2::StringPiece& secret =
          (groups == 1 && match[1].data() != nullptr) ? match[1] : match[0];
      const size_t begin = static_cast<size_t>(secret.data() - text.data());
      const size_t end = begin + secret.size();
      const size_t match_end = static_cast<size_t>(match[0].data() - text.data()) + match[0].size();
      if (end > begin) {
        out.append(text, copied, begin - copied);
        out.append(kRedacted);
        copied = end;
        replaced = true;
      }
      pos = match_end > pos ? match_end : pos + 1;
    }
    if (!replaced) return false;
    out.append(text, copied, std::string::npos);
    text = std::move(out);
    return true;
  }

  std::string redact(std::string_view text) const {
    if (!findSecretInText(text)) return std::string(text);
    std::string out(text);
    for (const auto& re : patterns_) replaceAll(*re, out);
    if (findSecretInText(out)) return std::string(kRedacted);
    return out;
  }

 private:
  std::vector<std::unique_ptr<RE2>> patterns_;
};

const Redactor& redactor() {
  static const Redactor instance;
  return instance;
}

bool isUpper(char c) {
  return c >= 'A' && c <= 'Z';
}
bool isLower(char c) {
  return c >= 'a' && c <= 'z';
}
bool isAsciiDigit(char c) {
  return c >= '0' && c <= '9';
}
bool isAlnum(char c) {
  return isUpper(c) || isLower(c) || isAsciiDigit(c);
}

// The key's words, lowercase: split at non-alphanumerics and camelCase humps
// ("apiKey" -> api key, "APIKey" -> api key, "X-Auth-Token" -> x auth token).
std::vector<std::string> keyWords(std::string_view key) {
  std::vector<std::string> words;
  std::string word;
  for (size_t i = 0; i < key.size(); ++i) {
    const char c = key[i];
    if (!isAlnum(c)) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
      continue;
    }
    const bool hump = !word.empty() && isUpper(c) &&
                      (isLower(key[i - 1]) || isAsciiDigit(key[i - 1]) ||
                       (isUpper(key[i - 1]) && i + 1 < key.size() && isLower(key[i + 1])));
    if (hump) {
      words.push_back(std::move(word));
      word.clear();
    }
    word += asciiLower(c);
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

}  // namespace

bool isCredentialKey(std::string_view key) {
  // Whole words that name a credential.
  static constexpr std::string_view kWords[] = {
      "password", "passwd", "passphrase", "secret",     "secrets",     "token",
      "auth",     "cookie", "cookies",    "credential", "credentials", "authorization",
  };
  // Runs of letters and digits that name one, however the words are joined
  // (api_key, api-key, apiKey, APIKEY, client_secret, x-api-key).
  static constexpr std::string_view kJoined[] = {
      "password",     "passwd",       "passphrase",    "apikey",      "accesskey",    "privatekey",
      "secretkey",    "clientsecret", "authorization", "credential",  "sessiontoken", "accesstoken",
      "refreshtoken", "authtoken",    "apitoken",      "bearertoken", "idtoken",
  };
  const std::vector<std::string> words = keyWords(key);
  std::string joined;
  for (const std::string& word : words) {
    if (std::find(std::begin(kWords), std::end(kWords), word) != std::end(kWords)) return true;
    joined += word;
  }
  for (std::string_view name : kJoined) {
    if (joined.find(name) != std::string::npos) return true;
  }
  return false;
}

std::string redactSecretsInText(std::string_view text) {
  // Most texts hold no secret: their answer costs no compiled pattern.
  if (!findSecretInText(text)) return std::string(text);
  return redactor().redact(text);
}

}  // namespace detail

nlohmann::json redactSecrets(const nlohmann::json& args) {
  using nlohmann::json;
  json out;
  // (value to copy, where its redacted copy goes); without recursion, so
  // any depth is fine. Object members (std::map nodes) and array elements
  // (sized before their children are filled) do not move once created.
  std::vector<std::pair<const json*, json*>> stack{{&args, &out}};
  while (!stack.empty()) {
    auto [from, to] = stack.back();
    stack.pop_back();
    switch (from->type()) {
      case json::value_t::string:
        *to = detail::redactSecretsInText(from->get_ref<const std::string&>());
        break;
      case json::value_t::object: {
        *to = json::object();
        for (auto it = from->begin(); it != from->end(); ++it) {
          std::string key = detail::redactSecretsInText(it.key());
          // Two keys redacted to the same text: keep both.
          const std::string base = key;
          for (int n = 2; to->contains(key); ++n) key = base + " (" + std::to_string(n) + ")";
          json& slot = (*to)[key];
          if (detail::isCredentialKey(it.key())) {
            slot = std::string(detail::kRedacted);
          } else {
            stack.emplace_back(&it.value(), &slot);
          }
        }
        break;
      }
      case json::value_t::array: {
        *to = json::array();
        auto& elements = to->get_ref<json::array_t&>();
        elements.resize(from->size());
        for (size_t i = 0; i < elements.size(); ++i) stack.emplace_back(&(*from)[i], &elements[i]);
        break;
      }
      default:
        *to = *from;
        break;
    }
  }
  return out;
}

}  // namespace toolguard
