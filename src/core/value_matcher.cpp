// Matching argument values, command text, context fields and paths.
#include "value_matcher.hpp"

#include <algorithm>

#include "glob.hpp"
#include "toolguard/policy_error.hpp"
#include "web_url.hpp"

namespace toolguard::detail {

std::unique_ptr<RE2> compileRegex(const std::string& pattern, const SourceLocation& where,
                                  std::string_view what) {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_dot_nl(true);
  auto re = std::make_unique<RE2>("(?:" + pattern + ")", options);
  if (!re->ok()) {
    throw PolicyError(where, "invalid " + std::string(what) + " '" + pattern + "': " + re->error());
  }
  return re;
}

std::unique_ptr<RE2> compileAlternatives(const std::vector<std::string>& patterns,
                                         const SourceLocation& where, std::string_view what) {
  if (patterns.empty()) return nullptr;
  std::string joined;
  for (const std::string& p : patterns) {
    // Appends, not operator+: GCC 12 -O2 warns (-Wrestrict) on the temporaries.
    if (!joined.empty()) joined += '|';
    joined.append("(?:").append(p).append(")");
  }
  try {
    return compileRegex(joined, where, what);
  } catch (const PolicyError&) {
    for (const std::string& p : patterns) compileRegex(p, where, what);  // names the bad one
    throw;
  }
}

namespace {

std::string same(const std::string& s) {
  return s;
}

}  // namespace

CompiledValueMatcher::CompiledValueMatcher(const ValueMatcher& spec)
    : equals_(spec.equals), one_of_(spec.one_of), web_url_(spec.web_url) {
  glob_ = lazyTranslated(spec.glob, spec.where, "glob", glob_text_,
                         [](const std::string& g) { return textGlobToRegex(g); });
  regex_ = compileTranslated(spec.regex, spec.where, "regex", regex_text_, same);
  if (!equals_ && one_of_.empty() && !glob_ && !regex_ && !web_url_) {
    throw PolicyError(spec.where,
                      "matcher needs at least one of equals, one_of, glob, regex, web_url");
  }
}

bool CompiledValueMatcher::matchesText(std::string_view text) const {
  if (!one_of_.empty() && std::none_of(one_of_.begin(), one_of_.end(), [&](const auto& v) {
        return v.is_string() && v.template get_ref<const std::string&>() == text;
      })) {
    return false;
  }
  if (equals_ && !(equals_->is_string() && equals_->get_ref<const std::string&>() == text)) {
    return false;
  }
  if (glob_ && !fullMatch(text, glob_)) return false;
  if (regex_ && !RE2::FullMatch(text, *regex_)) return false;
  return !web_url_ || leadsTo(text);
}

bool CompiledValueMatcher::leadsTo(std::string_view text) const {
  const WebUrlHost host = classifyWebUrl(text, false);
  return *web_url_ == WebUrlKind::Public ? host == WebUrlHost::Public
                                         : host == WebUrlHost::Loopback;
}

bool CompiledValueMatcher::matchesScalar(const nlohmann::json& value) const {
  if (equals_ && *equals_ != value) return false;
  if (!one_of_.empty() && std::find(one_of_.begin(), one_of_.end(), value) == one_of_.end()) {
    return false;
  }
  if (!glob_ && !regex_ && !web_url_) return true;
  if (value.is_object() || value.is_array()) return false;
  if (web_url_ && !(value.is_string() && leadsTo(value.get_ref<const std::string&>()))) {
    return false;
  }
  const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (glob_ && !fullMatch(text, glob_)) return false;
  if (regex_ && !RE2::FullMatch(text, *regex_)) return false;
  return true;
}

bool CompiledValueMatcher::matches(const nlohmann::json& value) const {
  if (equals_ && *equals_ == value && one_of_.empty() && !glob_ && !regex_ && !web_url_) {
    return true;
  }
  if (value.is_array()) {
    for (const auto& element : value) {
      if (matchesScalar(element)) return true;
    }
    return false;
  }
  return matchesScalar(value);
}

bool CompiledValueMatcher::matchesEvery(const nlohmann::json& value) const {
  if (equals_ && *equals_ == value && one_of_.empty() && !glob_ && !regex_ && !web_url_) {
    return true;
  }
  if (value.is_array()) {
    return !value.empty() && std::all_of(value.begin(), value.end(), [this](const auto& element) {
      return matchesScalar(element);
    });
  }
  return matchesScalar(value);
}

std::string CompiledValueMatcher::describe() const {
  std::string out;
  auto add = [&out](std::string part) {
    if (!out.empty()) out += " and ";
    out += part;
  };
  if (equals_) add("equals " + equals_->dump());
  if (!one_of_.empty()) add("one of " + nlohmann::json(one_of_).dump());
  if (glob_) add("glob \"" + glob_text_ + "\"");
  if (regex_) add("regex \"" + regex_text_ + "\"");
  if (web_url_) {
    add(*web_url_ == WebUrlKind::Public ? "a URL to a public name" : "a URL to this machine");
  }
  return out;
}

}  // namespace toolguard::detail
