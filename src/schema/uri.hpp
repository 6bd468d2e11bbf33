#pragma once
// URI references (RFC 3986): splitting off the fragment and resolving a
// reference against a base, for "$id" and "$ref". No URI is ever fetched.

#include <string>
#include <string_view>
#include <utility>

namespace toolguard::schema {

/// Resolves `reference` against `base` (RFC 3986 section 5.2, dot segments
/// removed). A base without a scheme works too: "" and "a/b.json" resolve
/// "c.json" to "c.json" and "a/c.json".
std::string resolveUri(std::string_view base, std::string_view reference);

/// Splits "uri#fragment" into {"uri", "fragment"}; the fragment is "" when
/// there is none (or it is empty).
std::pair<std::string, std::string> splitFragment(std::string_view uri);

}  // namespace toolguard::schema
