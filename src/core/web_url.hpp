#pragma once
// Where an http(s) URL goes, judged from its text alone: the developer's own
// machine, a public name on the internet, or something not known to be
// either. Closed world: every part of the authority must be known.

#include <string_view>

namespace toolguard::detail {

/// True for a DNS name: dot-separated labels of 1 to 63 ASCII letters,
/// digits and hyphens (none starting or ending with one), 253 bytes at most.
bool isDnsName(std::string_view name);

/// True when `text` starts with `prefix`, ASCII letters compared without case.
bool startsWithNoCase(std::string_view text, std::string_view prefix);

/// Where a URL's request would go.
enum class WebUrlHost {
  Loopback,  ///< localhost, 127.0.0.1, [::1] or 0.0.0.0, with at most a numeric port
  Public,    ///< a DNS name with an alphabetic top-level label that is not private or reserved
  Unknown,   ///< anything else: another scheme, user info, an IP literal, an odd character
};

/// Classifies `url`. It must start with `http://` or `https://` (either case)
/// unless `scheme_optional`, as curl and wget take a bare `host/path`. The
/// authority (up to the first `/`, `?` or `#`) must be a host and an optional
/// numeric port, nothing else: no user info (`localhost:1@evil.example`), no
/// percent escapes, no backslash, no character outside letters, digits, `-`
/// and `.` (IPv6 only as `[::1]`). A public name has at least two labels, an
/// alphabetic last label, is not under a private or reserved suffix (`.local`,
/// `.internal`, `.arpa`, `.localhost`, ...) nor a service that maps names to
/// any address (`nip.io`, `sslip.io`, `localtest.me`, ...). Names are not
/// resolved: a public name whose DNS points at a private address is not seen.
/// The rest of the URL must hold no whitespace or control character.
WebUrlHost classifyWebUrl(std::string_view url, bool scheme_optional);

}  // namespace toolguard::detail
