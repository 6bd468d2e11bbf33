// Paths and programs the built-in shell rules reason about.
#include "shell_facts.hpp"

#include <algorithm>

#include "command_args.hpp"
#include "command_paths.hpp"
#include "toolguard/paths.hpp"

namespace toolguard::detail {
namespace {

constexpr std::string_view kProtectedDirectories[] = {
    "/",        "/bin",       "/boot",         "/dev",     "/etc",     "/home",
    "/lib",     "/lib32",     "/lib64",        "/opt",     "/proc",    "/root",
    "/sbin",    "/srv",       "/sys",          "/usr",     "/var",     "/usr/bin",
    "/usr/lib", "/usr/local", "/usr/sbin",     "/var/lib", "/var/log", "/Users",
    "/System",  "/Library",   "/Applications", "/private", "/mnt",     "/media"};

constexpr std::string_view kCredentialDirectories[] = {".ssh",    ".gnupg",  ".aws",    ".kube",
                                                       ".docker", ".config", ".gcloud", ".azure"};

bool isProtected(const std::string& path, const std::string& home) {
  for (std::string_view dir : kProtectedDirectories) {
    if (path == dir) return true;
  }
  if (path == home || (isWithin(home, path) && path != home)) return true;  // home or a parent
  for (std::string_view dir : kCredentialDirectories) {
    if (path == home + "/" + std::string(dir)) return true;
  }
  return false;
}

// The directory after `c` (a `cd` or `pushd`) runs in `cwd`.
std::optional<std::string> afterDirectoryChange(const SimpleCommand& c,
                                                std::optional<std::string> cwd,
                                                const std::string& home) {
  CommandArgs a = parseArgs(c.arguments());
  if (a.operands.empty()) return home;
  if (a.operands[0].dynamic || a.operands[0].text == "-" || !cwd) {
    return std::nullopt;  // a directory known only at run time
  }
  const std::string& dir = a.operands[0].text;
  return normalizePath(dir.starts_with('~') ? "./" + dir : dir, *cwd, home);
}

// Whether `c` moves the shell that runs a command `depth` wrappers deep: a cd
// run by a wrapper (`bash -c 'cd x'`, xargs) moves only its own shell.
bool movesShellAt(const SimpleCommand& c, size_t depth) {
  if (!c.wrappers.empty() && c.wrappers.size() != depth) return false;
  const std::string_view name = c.commandName();
  return name == "cd" || name == "pushd";
}

// The trail of the program's directories for commands `depth` wrappers deep.
CommandCwds::Trail trailAt(const ShellProgram& program, size_t depth,
                           const std::optional<std::string>& start, const std::string& home) {
  CommandCwds::Trail trail;
  trail.directories.push_back(start);
  trail.before.reserve(program.commands.size());
  for (const SimpleCommand& c : program.commands) {
    trail.before.push_back(static_cast<std::uint32_t>(trail.directories.size() - 1));
    if (movesShellAt(c, depth)) {
      trail.directories.push_back(afterDirectoryChange(c, trail.directories.back(), home));
    }
  }
  return trail;
}

}  // namespace

std::optional<std::string> effectiveCwd(const CommandScene& scene) {
  std::optional<std::string> cwd = scene.view.programCwd();
  const auto& commands = scene.program.commands;
  const SimpleCommand* self = &scene.command;
  if (commands.empty() || self < commands.data() || self >= commands.data() + commands.size()) {
    return cwd;
  }
  const size_t index = static_cast<size_t>(self - commands.data());
  const size_t depth = self->wrappers.size();
  if (&scene.program == scene.view.shellProgram()) {
    // The view's program: each depth's trail is worked out once.
    CommandCwds& memo = scene.view.commandCwds();
    auto known = std::find_if(memo.by_depth.begin(), memo.by_depth.end(),
                              [depth](const auto& entry) { return entry.first == depth; });
    if (known == memo.by_depth.end()) {
      memo.by_depth.emplace_back(depth, trailAt(scene.program, depth, cwd, scene.home));
      known = std::prev(memo.by_depth.end());
    }
    cwd = known->second.directories[known->second.before[index]];
  } else {
    // Another program (a script literal's): read the moves before the command.
    for (const SimpleCommand* c = commands.data(); c < self; ++c) {
      if (movesShellAt(*c, depth)) cwd = afterDirectoryChange(*c, cwd, scene.home);
    }
  }
  // `env -C DIR CMD`, `sudo -D DIR CMD`: the command runs in DIR.
  if (self->working_directory && cwd) {
    const ShellWord& dir = *self->working_directory;
    if (dir.dynamic) return std::nullopt;
    cwd = normalizePath(dir.text.starts_with('~') ? "./" + dir.text : dir.text, *cwd, scene.home);
  }
  return cwd;
}

std::string absolutePath(const ShellWord& word, const CommandScene& scene) {
  // The shell already expanded an unquoted ~; a `~` left in a word is a name.
  const std::string text = word.text.starts_with('~') ? "./" + word.text : word.text;
  if (text.starts_with('/')) return normalizePath(text, "/", scene.home);
  const std::optional<std::string> cwd = effectiveCwd(scene);
  return normalizePath(text, cwd ? *cwd : std::string(kUnknownDirectory), scene.home);
}

ResolvedPath resolvedPath(const ShellWord& word, const CommandScene& scene) {
  ResolvedPath out;
  out.lexical = absolutePath(word, scene);
  out.resolved = out.lexical;
  if (word.dynamic || out.lexical.starts_with(kUnknownDirectory)) return out;
  // As absolutePath reads the word, but resolved as written: `link/..` climbs
  // out of the link's target, as the kernel does.
  const std::string text = word.text.starts_with('~') ? "./" + word.text : word.text;
  const std::optional<std::string> cwd =
      text.starts_with('/') ? std::optional<std::string>("/") : effectiveCwd(scene);
  PathValidation checked = cwd ? scene.view.resolve(text, *cwd) : PathValidation{};
  if (checked) {
    out = std::move(*checked.path);
  } else {
    out.resolved = std::string(kUnknownDirectory) + out.lexical;
  }
  return out;
}

std::string asciiLower(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

PathRisk pathRisk(const ShellWord& word, const CommandScene& scene) {
  if (!word.dynamic) {
    return eitherForm(resolvedPath(word, scene),
                      [&](const std::string& p) { return isProtected(p, scene.home); })
               ? PathRisk::Protected
               : PathRisk::Ordinary;
  }
  // A glob or run-time value: judge the directory written before it.
  const size_t cut = word.text.find_first_of("*?[$`{");
  const std::string literal = word.text.substr(0, cut);
  const size_t slash = literal.rfind('/');
  if (slash == std::string::npos && cut == 0 && word.text.front() == '$') {
    return PathRisk::Unknown;  // `$DIR/x`: nothing known about where
  }
  // `*` is in the current directory, `/etc/*` in /etc.
  ShellWord prefix{slash == std::string::npos ? "." : literal.substr(0, slash == 0 ? 1 : slash),
                   false, ""};
  return isProtected(absolutePath(prefix, scene), scene.home) ? PathRisk::Protected
                                                              : PathRisk::Unknown;
}

bool isBlockDevice(std::string_view path) {
  constexpr std::string_view kDisks[] = {"/dev/sd",   "/dev/hd",      "/dev/vd",   "/dev/xvd",
                                         "/dev/nvme", "/dev/mmcblk",  "/dev/disk", "/dev/md",
                                         "/dev/dm-",  "/dev/mapper/", "/dev/loop", "/dev/rdisk"};
  return std::any_of(std::begin(kDisks), std::end(kDisks),
                     [&](std::string_view disk) { return path.starts_with(disk); });
}

bool isHarmlessDevice(std::string_view path) {
  return path == "/dev/null" || path == "/dev/stdout" || path == "/dev/stderr" ||
         path == "/dev/tty" || path.starts_with("/dev/fd/");
}

bool isSecretFile(const std::string& path) {
  const std::string base = path.substr(path.rfind('/') + 1);
  if (base == ".ssh" || base == ".gnupg" || base == ".aws" || base == ".kube" ||
      path.ends_with("/.docker/config.json") || path.ends_with("/.kube/config")) {
    return true;
  }
  return base == ".env" || base.starts_with(".env.") || base.starts_with("id_rsa") ||
         base.starts_with("id_ed25519") || base.starts_with("id_ecdsa") || base.ends_with(".pem") ||
         base.ends_with(".key") || base == ".netrc" || base == ".npmrc" || base == ".pypirc" ||
         path.find("/.aws/credentials") != std::string::npos ||
         path.find("/.ssh/") != std::string::npos || path.find("/.gnupg/") != std::string::npos ||
         base.find("credentials") != std::string::npos || base.find("secret") != std::string::npos;
}

bool isInterpreter(std::string_view name) {
  constexpr std::string_view kNames[] = {"sh",      "bash", "zsh",  "dash", "ksh",      "fish",
                                         "ash",     "mksh", "csh",  "tcsh", "python",   "python2",
                                         "python3", "perl", "ruby", "node", "nodejs",   "php",
                                         "lua",     "deno", "bun",  "pwsh", "osascript"};
  if (std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames)) return true;
  return name.starts_with("python3.");
}

bool isNetworkSender(std::string_view name) {
  constexpr std::string_view kNames[] = {"curl", "wget",  "nc",    "ncat",   "netcat", "socat",
                                         "scp",  "sftp",  "rsync", "ssh",    "ftp",    "telnet",
                                         "http", "https", "xh",    "aria2c", "fetch",  "lftp"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

std::vector<ShellWord> writtenPaths(const SimpleCommand& command) {
  std::vector<ShellWord> out;
  for (const CommandPath& p : commandPaths(command)) {
    if (p.kind == PathAccessKind::Write && p.shape != PathShape::Pattern) out.push_back(p.word);
  }
  return out;
}

bool redirectWritesAFile(const ShellRedirect& redirect) {
  if (redirect.op.find('>') == std::string::npos) return false;
  const std::string& target = redirect.target.text;
  if (redirect.target.dynamic) return true;
  if (target == "/dev/null") return false;
  if (target == "-" && redirect.op.find('&') != std::string::npos) return false;  // `>&-` closes
  // `2>&1`, `>&2`: duplicating a descriptor writes no file.
  const bool descriptor = !target.empty() && std::all_of(target.begin(), target.end(), [](char c) {
    return c >= '0' && c <= '9';
  });
  return !(descriptor && redirect.op.find('&') != std::string::npos);
}

}  // namespace toolguard::detail
