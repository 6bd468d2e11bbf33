// resolvePath: the checks and resolution every path argument goes through;
// validatePath: the same and a containment check.
#include <cstdio>

#include "resolve.hpp"
#include "toolguard/paths.hpp"

namespace toolguard {
namespace {

// Longer paths are refused: no file system takes them (PATH_MAX on Linux).
constexpr size_t kMaxPathBytes = 4096;

}  // namespace

Expected<void> checkPathCharacters(std::string_view path) {
  if (path.empty()) return fail("empty path");
  if (path.size() > kMaxPathBytes) {
    return fail("path is " + std::to_string(path.size()) + " bytes long (at most " +
                std::to_string(kMaxPathBytes) + ")");
  }
  for (size_t i = 0; i < path.size(); ++i) {
    const auto c = static_cast<unsigned char>(path[i]);
    if (c < 0x20 || c == 0x7F) {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02X", c);
      return fail(std::string(c == 0 ? "NUL byte" : "control character ") + (c == 0 ? "" : code) +
                  " at byte " + std::to_string(i) + " of the path");
    }
  }
  return {};
}

PathValidation resolvePath(std::string_view base, std::string_view path,
                           const PathOptions& options) {
  PathValidation out;
  if (Expected<void> characters = checkPathCharacters(path); !characters) {
    out.error = characters.error();
    return out;
  }
  if (!base.empty()) {
    if (Expected<void> characters = checkPathCharacters(base); !characters) {
      out.error = "working directory: " + characters.error();
      return out;
    }
  }
  const std::string home = options.home.empty() ? homeDirectory() : options.home;
  ResolvedPath result;
  result.lexical = normalizePath(path, base.empty() ? std::string_view("/") : base, home);
  result.resolved = result.lexical;
  std::string existing_directory;
  if (options.follow_symlinks) {
    // With `..` in the path, the kernel climbs out of a symlink's target, not
    // back to the link's directory: resolve the path as written too.
    const std::string joined = detail::joinPath(path, base.empty() ? "/" : base, home);
    const std::string& written = detail::hasDotDot(joined) ? joined : result.lexical;
    std::optional<detail::Resolution> physical = detail::resolveExisting(written);
    std::optional<detail::Resolution> normalized_first;
    if (physical && &written != &result.lexical) {
      normalized_first = detail::resolveExisting(result.lexical);
    }
    if (!physical || (&written != &result.lexical && !normalized_first)) {
      out.error = "too many levels of symbolic links (a loop) in " + result.lexical;
      return out;
    }
    result.resolved = physical->resolved;
    existing_directory = physical->existing_directory;
    if (normalized_first && normalized_first->resolved != result.resolved) {
      result.resolved_after_normalizing = normalized_first->resolved;
    }
    for (const std::string* form : {&result.resolved, &result.resolved_after_normalizing}) {
      if (Expected<void> characters = checkPathCharacters(*form); !characters && !form->empty()) {
        out.error = "a symbolic link leads to an unacceptable path: " + characters.error();
        return out;
      }
    }
  }
  switch (options.case_sensitivity) {
    case CaseSensitivity::Insensitive:
      result.case_insensitive = true;
      break;
    case CaseSensitivity::Sensitive:
      result.case_insensitive = false;
      break;
    case CaseSensitivity::Auto:
      result.case_insensitive =
          !existing_directory.empty() && isCaseInsensitiveDirectory(existing_directory);
      break;
  }
  out.path = std::move(result);
  return out;
}

PathValidation validatePath(std::string_view base, std::string_view path,
                            const PathOptions& options) {
  if (base.empty()) return PathValidation{std::nullopt, "no base directory to keep the path in"};
  PathValidation root = resolvePath("/", base, options);
  if (!root) return PathValidation{std::nullopt, "base directory: " + root.error};
  PathValidation out = resolvePath(base, path, options);
  if (!out) return out;
  const ResolvedPath& inside = *root.path;
  const ResolvedPath& candidate = *out.path;
  // Containment never folds case: a folded match could only widen `base`.
  const std::string* escaping = nullptr;
  if (!isWithin(candidate.lexical, inside.lexical) &&
      !isWithin(candidate.lexical, inside.resolved)) {
    escaping = &candidate.lexical;
  } else if (!isWithin(candidate.resolved, inside.resolved)) {
    escaping = &candidate.resolved;
  } else if (!candidate.resolved_after_normalizing.empty() &&
             !isWithin(candidate.resolved_after_normalizing, inside.resolved)) {
    escaping = &candidate.resolved_after_normalizing;
  }
  if (escaping == nullptr) return out;
  return PathValidation{std::nullopt, std::string(path) + " escapes " + inside.lexical +
                                          " (it leads to " + *escaping + ")"};
}

}  // namespace toolguard
