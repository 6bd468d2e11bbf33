// Terms and patterns anywhere in a call (content_matcher.hpp).
#include "content_matcher.hpp"

#include <glob.h>
#include <re2/re2.h>

#include "toolguard/policy_error.hpp"
#include "toolguard/shell.hpp"
#include "value_matcher.hpp"

namespace toolguard::detail {
namespace {

// UTF-8 encodings of characters that render as nothing: soft hyphen,
// zero-width space / non-joiner / joiner, word joiner, invisible operators,
// byte order mark. A term split by one of them still reads as the term.
constexpr std::string_view kInvisible[] = {
    "\xC2\xAD",     "\xE2\x80\x8B", "\xE2\x80\x8C", "\xE2\x80\x8D", "\xE2\x81\xA0",
    "\xE2\x81\xA1", "\xE2\x81\xA2", "\xE2\x81\xA3", "\xE2\x81\xA4", "\xEF\xBB\xBF"};

size_t invisibleAt(std::string_view text, size_t i) {
  for (std::string_view mark : kInvisible) {
    if (text.substr(i, mark.size()) == mark) return mark.size();
  }
  return 0;
}

// The names a glob word expands to where the call runs, as the shell (or a
// file tool) would expand it: `cat prod-d?.conf` mentions prod-db.conf when
// that file is there. Relative words are expanded in `cwd` and tested
// without it; at most 1,024 names are looked at.
template <typename Test>
bool anyExpansion(const std::string& word, const std::string& cwd, Test test) {
  if (word.find_first_of("*?[") == std::string::npos || word.size() > 4096) return false;
  const bool relative = !word.starts_with('/');
  if (relative && (cwd.empty() || cwd.front() != '/')) return false;
  const std::string prefix = relative ? (cwd.ends_with('/') ? cwd : cwd + "/") : "";
  glob_t found{};
  const int status = ::glob((prefix + word).c_str(), GLOB_NOSORT, nullptr, &found);
  bool matched = false;
  if (status == 0) {
    for (size_t i = 0; i < found.gl_pathc && i < 1024 && !matched; ++i) {
      std::string_view name = found.gl_pathv[i];
      if (relative && name.starts_with(prefix)) name.remove_prefix(prefix.size());
      matched = test(name);
    }
  }
  globfree(&found);
  return matched;
}

}  // namespace

std::string foldedForTerms(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) >= 0xC2) {
      if (size_t skip = invisibleAt(text, i)) {
        i += skip;
        continue;
      }
    }
    char c = text[i++];
    out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
  }
  return out;
}

CompiledContentMatcher::CompiledContentMatcher(const ContentMatcher& spec) : patterns_(spec.regex) {
  if (spec.contains.empty() && spec.regex.empty()) {
    throw PolicyError(spec.where, "content: give terms (contains) or patterns (regex)");
  }
  for (const std::string& term : spec.contains) {
    std::string folded = foldedForTerms(term);
    if (folded.empty()) throw PolicyError(spec.where, "content: an empty term matches everything");
    terms_.push_back(std::move(folded));
  }
  if (!patterns_.empty()) regex_ = compileAlternatives(patterns_, spec.where, "content regex");
}

CompiledContentMatcher::~CompiledContentMatcher() = default;
CompiledContentMatcher::CompiledContentMatcher(CompiledContentMatcher&&) noexcept = default;

bool CompiledContentMatcher::matchesText(std::string_view text) const {
  if (!terms_.empty()) {
    const std::string folded = foldedForTerms(text);
    for (const std::string& term : terms_) {
      if (folded.find(term) != std::string::npos) return true;
    }
  }
  return regex_ && RE2::PartialMatch(text, *regex_);
}

bool CompiledContentMatcher::matchesWithExpansion(const std::string& text,
                                                  const std::string& cwd) const {
  return matchesText(text) ||
         anyExpansion(text, cwd, [this](std::string_view name) { return matchesText(name); });
}

bool CompiledContentMatcher::matches(const CallView& view) const {
  const std::string& cwd = view.call().context.cwd;
  // Iteratively: arguments are bounded in depth before they get here, but a
  // walk that cannot overflow the stack needs no such promise.
  std::vector<const nlohmann::json*> pending{&view.call().args};
  while (!pending.empty()) {
    const nlohmann::json* value = pending.back();
    pending.pop_back();
    if (value->is_string()) {
      if (matchesWithExpansion(value->get_ref<const std::string&>(), cwd)) return true;
    } else if (value->is_object()) {
      for (auto it = value->begin(); it != value->end(); ++it) {
        if (matchesText(it.key())) return true;
        pending.push_back(&it.value());
      }
    } else if (value->is_array()) {
      for (const nlohmann::json& item : *value) pending.push_back(&item);
    }
  }
  if (const ShellProgram* program = view.shellProgram()) {
    for (const SimpleCommand& command : program->commands) {
      for (const ShellWord& word : command.words) {
        if (matchesWithExpansion(word.text, cwd)) return true;
      }
      for (const auto& [name, value] : command.assignments) {
        if (matchesText(value.text)) return true;
      }
      for (const ShellRedirect& redirect : command.redirects) {
        if (matchesWithExpansion(redirect.target.text, cwd) ||
            matchesText(redirect.document.text)) {
          return true;
        }
      }
    }
  }
  return false;
}

std::string CompiledContentMatcher::describe() const {
  std::string out = "content";
  for (const std::string& term : terms_) out += " contains \"" + term + "\"";
  for (const std::string& p : patterns_) out += " regex \"" + p + "\"";
  return out;
}

}  // namespace toolguard::detail
