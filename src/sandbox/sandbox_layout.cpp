// The places of a sandboxed run (sandbox_layout.hpp).
#include "sandbox/sandbox_layout.hpp"

#include <dirent.h>
#include <fnmatch.h>
#include <re2/re2.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include "core/glob.hpp"

namespace toolguard::sandbox {
namespace {

namespace fs = std::filesystem;

bool placeIsAbsolute(const std::string& entry) {
  return !entry.empty() && (entry[0] == '/' || entry[0] == '~');
}

std::string expandHome(const std::string& entry, const std::string& home) {
  if (entry == "~") return home;
  if (entry.starts_with("~/")) return home + entry.substr(1);
  return entry;
}

std::string withoutTrailingSlash(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

bool isInside(const std::string& path, const std::string& root) {
  return path == root || (path.starts_with(root) && (root == "/" || path[root.size()] == '/'));
}

// The file's type without following a link: 'd', 'f', 'l', 'o', or 0 when
// there is nothing there.
char typeOf(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return 0;
  if (S_ISDIR(st.st_mode)) return 'd';
  if (S_ISREG(st.st_mode)) return 'f';
  if (S_ISLNK(st.st_mode)) return 'l';
  return 'o';
}

// The deny globs of a run. A glob without `/` names a file at any depth, so
// it is matched against the name alone with fnmatch (no compiling: this runs
// on every sandboxed command); a glob with `/` is a path glob, compiled once.
struct GlobList {
  std::vector<std::string> names;
  std::vector<std::unique_ptr<RE2>> paths;

  bool matches(const std::string& path) const {
    const char* name = path.c_str() + path.rfind('/') + 1;
    for (const std::string& glob : names) {
      if (::fnmatch(glob.c_str(), name, 0) == 0) return true;
    }
    for (const auto& expression : paths) {
      if (RE2::FullMatch(path, *expression)) return true;
    }
    return false;
  }
};

Expected<GlobList> compileGlobs(const std::vector<std::string>& globs, const std::string& home) {
  GlobList list;
  for (const std::string& glob : globs) {
    // fnmatch and the path globs agree on a plain name glob (`*`, `?`, `[...]`
    // within one name); `**` and `{` are path-glob syntax.
    if (glob.find('/') == std::string::npos && glob.find("**") == std::string::npos &&
        glob.find('{') == std::string::npos) {
      list.names.push_back(glob);
      continue;
    }
    auto expression = std::make_unique<RE2>(detail::pathGlobToRegex(glob, home));
    if (!expression->ok()) return fail("sandbox: the glob " + glob + " does not compile");
    list.paths.push_back(std::move(expression));
  }
  return list;
}

// Looks through `root` for files and directories the deny globs name,
// without following links out of it. False when it stopped at the limit.
bool findSecrets(const std::string& root, const GlobList& deny, const GlobList& except,
                 SandboxLayout& layout) {
  size_t seen = 0;
  std::vector<std::string> pending = {root};
  while (!pending.empty()) {
    const std::string dir = std::move(pending.back());
    pending.pop_back();
    DIR* stream = ::opendir(dir.c_str());
    if (stream == nullptr) continue;  // unreadable: the command cannot read it either
    while (const dirent* entry = ::readdir(stream)) {
      const std::string_view name = entry->d_name;
      if (name == "." || name == "..") continue;
      if (++seen > kMaxSearchedEntries) {
        ::closedir(stream);
        return false;
      }
      const std::string path = dir + "/" + std::string(name);
      unsigned char type = entry->d_type;
      if (type == DT_UNKNOWN) {
        const char t = typeOf(path);
        type = t == 'd' ? DT_DIR : t == 'l' ? DT_LNK : DT_REG;
      }
      const bool secret = deny.matches(path) && !except.matches(path);
      if (type == DT_DIR) {
        if (secret) {
          layout.masked_dirs.push_back(path);
        } else {
          pending.push_back(path);
        }
      } else if (secret) {
        // A link is hidden where it leads (the mount follows it), if that is
        // a file; a link to a directory is hidden as one.
        std::error_code error;
        if (type == DT_LNK && fs::is_directory(path, error)) {
          layout.masked_dirs.push_back(path);
        } else if (type != DT_LNK || fs::exists(path, error)) {
          layout.masked_files.push_back(path);
        }
      }
    }
    ::closedir(stream);
  }
  return true;
}

std::string listed(const std::vector<std::string>& places) {
  std::string text;
  for (size_t i = 0; i < places.size() && i < 5; ++i) text += (i ? ", " : "") + places[i];
  if (places.size() > 5) text += " and " + std::to_string(places.size() - 5) + " more";
  return text;
}

void addPart(SandboxLayout& layout, std::string what, bool held, std::string why) {
  layout.report.parts.push_back({std::move(what), held, std::move(why)});
}

}  // namespace

Expected<SandboxLayout> layoutSandbox(const SandboxSettings& settings,
                                      const SandboxRequest& request, const SandboxKernel& kernel) {
  SandboxLayout layout;
  layout.report.kernel = kernel;
  layout.landlock = kernel.landlock_abi > 0;
  layout.seccomp = kernel.seccomp;
  layout.namespaces = kernel.user_namespaces;
  // A private network namespace for the proxy (its only way out), or where
  // seccomp cannot refuse sockets: it adds nothing to a filter that allows
  // no network socket at all, and making and tearing one down costs about a
  // millisecond a run.
  layout.new_network =
      kernel.user_namespaces &&
      ((!kernel.seccomp && settings.network == SandboxNetwork::None) ||
       settings.network == SandboxNetwork::Proxy || settings.network == SandboxNetwork::Loopback);
  if (request.command.empty()) return fail("sandbox: no command to run");
  if (request.home.empty() || request.home[0] != '/') {
    return fail("sandbox: the home directory is not an absolute path");
  }

  std::vector<std::string> workspaces;
  for (const std::string& workspace : request.workspaces) {
    std::error_code error;
    const fs::path canonical = fs::canonical(workspace, error);
    if (error || !fs::is_directory(canonical, error)) {
      return fail("sandbox: the workspace " + workspace + " is not a directory");
    }
    workspaces.push_back(canonical.string());
    layout.writable.push_back(canonical.string());
  }
  for (const std::string& entry : settings.writable) {
    std::error_code error;
    const fs::path canonical = fs::canonical(expandHome(entry, request.home), error);
    if (!error && fs::is_directory(canonical, error)) layout.writable.push_back(canonical.string());
  }
  auto writable = [&](const std::string& path) {
    for (const std::string& root : layout.writable) {
      if (isInside(path, root)) return true;
    }
    return false;
  };

  // Guarded places: kept read-only where the command could otherwise write.
  std::vector<std::string> unguarded;
  for (const std::string& entry : settings.read_only) {
    const bool directory = entry.ends_with("/");
    std::vector<std::string> places;
    if (placeIsAbsolute(entry)) {
      places.push_back(withoutTrailingSlash(expandHome(entry, request.home)));
    } else {
      for (const std::string& workspace : workspaces) {
        places.push_back(withoutTrailingSlash(workspace + "/" + entry));
      }
    }
    for (const std::string& place : places) {
      if (!writable(place)) continue;  // read-only already
      const char type = typeOf(place);
      if (type == 'l') {
        unguarded.push_back(place + " (a symbolic link, which the command could replace)");
      } else if (type != 0) {
        layout.read_only.push_back(place);
      } else if (const std::string parent = fs::path(place).parent_path().string();
                 typeOf(parent) == 'd') {
        if (directory) {
          layout.make_dirs.push_back(place);
          layout.read_only.push_back(place);
        } else {
          unguarded.push_back(place + " (does not exist; the command could make it)");
        }
      }
    }
  }

  // Secrets: named places, and names looked for inside the workspaces.
  std::vector<std::string> name_globs;
  for (const std::string& entry : settings.deny_read) {
    if (!placeIsAbsolute(entry)) {
      name_globs.push_back(entry);
      continue;
    }
    const std::string place = withoutTrailingSlash(expandHome(entry, request.home));
    std::error_code error;
    if (fs::is_directory(place, error)) {
      layout.masked_dirs.push_back(place);
    } else if (fs::exists(place, error)) {
      layout.masked_files.push_back(place);
    }
  }
  // Other programs' sockets in /tmp, and the places where they keep them:
  // through one, a command could drive a program outside the sandbox (a tmux
  // or screen session, an ssh-agent, X11, a database). Hidden like secrets.
  if (DIR* tmp = ::opendir("/tmp")) {
    static constexpr const char* kIpcNames[] = {
        "tmux-*",     "ssh-*",      "screen*",    ".X11-unix", ".ICE-unix", ".XIM-unix",
        ".font-unix", ".Test-unix", ".s.PGSQL.*", "dbus-*",    "pulse-*",   "systemd-private-*"};
    while (const dirent* entry = ::readdir(tmp)) {
      const std::string name = entry->d_name;
      const std::string path = "/tmp/" + name;
      bool ipc = entry->d_type == DT_SOCK;
      for (const char* pattern : kIpcNames) ipc = ipc || ::fnmatch(pattern, name.c_str(), 0) == 0;
      if (!ipc || name == "." || name == "..") continue;
      (typeOf(path) == 'd' ? layout.masked_dirs : layout.masked_files).push_back(path);
    }
    ::closedir(tmp);
  }
  if (!name_globs.empty()) {
    Expected<GlobList> deny = compileGlobs(name_globs, request.home);
    if (!deny) return fail(deny.error());
    Expected<GlobList> except = compileGlobs(settings.deny_read_except, request.home);
    if (!except) return fail(except.error());
    for (const std::string& workspace : workspaces) {
      if (!findSecrets(workspace, *deny, *except, layout)) layout.unsearched.push_back(workspace);
    }
  }

  const std::string landlock_why = layout.landlock
                                       ? "Landlock ABI " + std::to_string(kernel.landlock_abi)
                                       : "the kernel has no Landlock (or it is turned off)";
  const std::string namespace_why =
      layout.namespaces ? "a private mount namespace"
                        : "the kernel lets no unprivileged process make a user namespace";
  addPart(layout, "writes outside the workspaces, the writable places and a private TMPDIR",
          layout.landlock, landlock_why);
  if (!layout.masked_files.empty() || !layout.masked_dirs.empty()) {
    std::vector<std::string> secrets = layout.masked_dirs;
    secrets.insert(secrets.end(), layout.masked_files.begin(), layout.masked_files.end());
    addPart(layout, "reads of secrets: " + listed(secrets), layout.namespaces, namespace_why);
  }
  for (const std::string& workspace : layout.unsearched) {
    addPart(layout, "reads of secrets inside " + workspace, false,
            "more than " + std::to_string(kMaxSearchedEntries) + " entries to search");
  }
  if (!layout.read_only.empty()) {
    addPart(layout, "changes to guarded places: " + listed(layout.read_only), layout.namespaces,
            namespace_why);
  }
  for (const std::string& place : unguarded) {
    addPart(layout, "changes to " + place, false, "nothing there to hold read-only");
  }
  if (settings.network == SandboxNetwork::None) {
    std::vector<std::string> by;
    if (layout.new_network) by.emplace_back("a private network namespace");
    if (layout.seccomp) by.emplace_back("seccomp on socket families");
    if (layout.landlock && kernel.landlock_abi >= 4) by.emplace_back("Landlock TCP rules");
    std::string why;
    for (const std::string& mechanism : by) why += (why.empty() ? "" : ", ") + mechanism;
    // Landlock's TCP rules alone leave UDP (DNS to anywhere) open.
    addPart(layout, "network connections", layout.new_network || layout.seccomp,
            why.empty() ? "neither a network namespace nor seccomp is available"
            : layout.new_network || layout.seccomp ? why
                                                   : why + " only: UDP is not confined");
  }
  // Loopback and proxy: held by a private network namespace, or not.
  auto privateNetwork = [&](const std::string& what, const std::string& held_by) {
    addPart(layout, what, layout.new_network,
            layout.new_network
                ? held_by
                : "no user namespaces for a private network: " +
                      std::string(layout.seccomp ? "no network at all instead (seccomp)"
                                                 : "the network is open"));
  };
  if (settings.network == SandboxNetwork::Loopback) {
    privateNetwork("network connections but to the sandbox's own loopback",
                   "a private network namespace");
  }
  if (settings.network == SandboxNetwork::Proxy) {
    privateNetwork("network connections but HTTP and HTTPS through toolguard's proxy to " +
                       (settings.hosts.empty() ? std::string("no host") : listed(settings.hosts)),
                   "a private network namespace whose only way out is the proxy");
  }
  addPart(layout, "ptrace of processes outside the sandbox", layout.landlock, landlock_why);
  addPart(layout, "signals and abstract Unix sockets to processes outside the sandbox",
          layout.landlock && kernel.landlock_abi >= 6,
          layout.landlock && kernel.landlock_abi >= 6
              ? "Landlock scopes (ABI 6)"
              : "the kernel's Landlock has no scopes (ABI 6 and later)");
  addPart(layout, "new privileges (set-user-ID programs, file capabilities)", true,
          "no_new_privs, and no capabilities");
  return layout;
}

}  // namespace toolguard::sandbox
