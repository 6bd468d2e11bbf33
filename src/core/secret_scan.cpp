// Recognizing credentials in text and JSON values.
#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "core/secret_formats.hpp"
#include "core/unicode_text.hpp"
#include "toolguard/secret_rules.hpp"

namespace toolguard {
namespace {

using detail::kSecretFormats;
using detail::kSecretTriggers;
using detail::SecretFormat;

class SecretScanner {
 public:
  SecretScanner() : set_(options(), RE2::UNANCHORED) {
    for (const SecretFormat& format : kSecretFormats) {
      if (set_.Add(format.detect, nullptr) < 0) std::abort();  // a bug in the table above
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
    return kSecretFormats[*std::min_element(hits.begin(), hits.end())].kind;
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

namespace detail {

namespace {

// For each byte, the triggers (bits, by index in kSecretTriggers) whose first
// letter it is, A-Z counted as a-z.
struct TriggerStarts {
  std::array<std::uint32_t, 256> by_byte{};
  TriggerStarts() {
    static_assert(std::size(kSecretTriggers) <= 32, "one bit per trigger");
    for (size_t i = 0; i < std::size(kSecretTriggers); ++i) {
      const auto first = static_cast<unsigned char>(kSecretTriggers[i][0]);
      by_byte[first] |= 1u << i;
      if (first >= 'a' && first <= 'z') by_byte[first - 'a' + 'A'] |= 1u << i;
    }
  }
};

// Whether `trigger` (lowercase) starts at `at`, the text's A-Z read as a-z.
bool triggerAt(std::string_view text, size_t at, const char* trigger) {
  for (size_t k = 0; trigger[k] != '\0'; ++k) {
    if (at + k >= text.size() || asciiLower(text[at + k]) != trigger[k]) return false;
  }
  return true;
}

}  // namespace

bool mayHoldSecret(std::string_view text) {
  if (text.size() < 8) return false;  // the shortest format, `a://b:c@`, has 8 bytes
  // RE2 ignoring case also takes the long s (U+017F) for s and the Kelvin
  // sign (U+212A) for k: a text with either is scanned.
  if (text.find("\xC5\xBF") != std::string_view::npos ||
      text.find("\xE2\x84\xAA") != std::string_view::npos) {
    return true;
  }
  // One pass: at each byte, only the triggers starting with its letter.
  static const TriggerStarts starts;
  for (size_t at = 0; at < text.size(); ++at) {
    for (std::uint32_t bits = starts.by_byte[static_cast<unsigned char>(text[at])]; bits != 0;
         bits &= bits - 1) {
      if (triggerAt(text, at, kSecretTriggers[std::countr_zero(bits)])) return true;
    }
  }
  return false;
}

}  // namespace detail

std::optional<std::string> findSecretInText(std::string_view text) {
  // Most texts hold no trigger: they are answered without compiling the set.
  if (!detail::mayHoldSecret(text)) return std::nullopt;
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
