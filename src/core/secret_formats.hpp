#pragma once
// The credential formats toolguard recognizes, shared by the secrets rule
// (which finds them) and the audit log (which removes them).

#include <string_view>

namespace toolguard::detail {

/// One credential format.
struct SecretFormat {
  const char* kind;    ///< for messages: "a GitHub token"
  const char* detect;  ///< RE2, searched anywhere in a text
  /// RE2 that finds the span to remove: capture group 1 when there is one,
  /// else the whole match (so `Bearer [REDACTED]` keeps its context).
  const char* redact;
};

/// Formats with a recognizable prefix or shape; generic high-entropy strings
/// are left out on purpose (too many hashes and ids look like them).
inline constexpr SecretFormat kSecretFormats[] = {
    {"a private key", R"(-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)",
     // the whole block, through its END line (or the end of the text)
     R"(-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\z))"},
    {"an AWS access key id", R"(\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b)",
     R"(\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b)"},
    {"an AWS secret access key",
     R"((?i)aws_secret_access_key["']?\s*[=:]\s*["']?[A-Za-z0-9/+]{40})",
     R"((?i)aws_secret_access_key["']?\s*[=:]\s*["']?([A-Za-z0-9/+]{40,}))"},
    {"a Google API key", R"(\bAIza[0-9A-Za-z_\-]{35})", R"(\bAIza[0-9A-Za-z_\-]{35})"},
    {"a GitHub token", R"(\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}))",
     R"(\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}))"},
    {"a GitLab token", R"(\bglpat-[A-Za-z0-9_\-]{20,})", R"(\bglpat-[A-Za-z0-9_\-]{20,})"},
    {"a Slack token", R"(\bxox[abposr]-[A-Za-z0-9\-]{10,})", R"(\bxox[abposr]-[A-Za-z0-9\-]{10,})"},
    {"a Stripe secret key", R"(\b[sr]k_live_[A-Za-z0-9]{16,})", R"(\b[sr]k_live_[A-Za-z0-9]{16,})"},
    {"an Anthropic or OpenAI API key", R"(\bsk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,})",
     R"(\bsk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,})"},
    {"a bearer token", R"((?i)\bbearer\s+[A-Za-z0-9._~+/\-]{20,}=*)",
     R"((?i)\bbearer\s+([A-Za-z0-9._~+/\-]{20,}=*))"},
    {"basic authorization credentials", R"((?i)\bauthorization:\s*basic\s+[A-Za-z0-9+/]{8,}=*)",
     R"((?i)\bauthorization:\s*basic\s+([A-Za-z0-9+/]{8,}=*))"},
    {"a JSON web token", R"(\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,})",
     R"(\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,})"},
    // user:password@ of a URL (the user goes too: it is often a token)
    {"a URL with a password", R"(\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^/\s:@]+:[^/\s@]+@)",
     R"(\b[a-zA-Z][a-zA-Z0-9+.\-]*://([^/\s:@]+:[^/\s@]+)@)"},
};

/// Lowercase literals of which every format above needs at least one in a
/// text it matches (in any case): a text holding none of them holds no
/// secret, and its scan compiles no regular expression. The unit test
/// SecretTriggers.EveryFormatNeedsATrigger proves this for every format with
/// RE2's own prefilter; a format added without its trigger fails it.
// (RE2 factors "gh" out of the GitHub alternatives, so their triggers are
// what follows it: a trigger-free text must be provably safe to RE2.)
inline constexpr const char* kSecretTriggers[] = {
    "-----begin ",   "akia",   "asia", "abia",    "acca", "aws_secret_access_key",
    "aiza",          "hp_",    "ho_",  "hu_",     "hs_",  "hr_",
    "ithub_pat_",    "glpat-", "xox",  "k_live_", "sk-",  "bearer",
    "authorization", "eyj",    "://",
};

/// False when `text` holds no trigger (so no secret); true means "scan it".
bool mayHoldSecret(std::string_view text);

}  // namespace toolguard::detail
