#pragma once
// Running a command where the kernel holds it: Landlock (files, TCP ports,
// signals and abstract sockets), seccomp (socket families), a private mount
// and network namespace where the kernel lets an unprivileged process make
// one, and no new privileges. What the sandbox allows comes from the
// policy's `sandbox:` section (docs/sandbox.md).

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "toolguard/expected.hpp"

namespace toolguard {

/// What a sandboxed command may reach over the network.
enum class SandboxNetwork {
  None,      ///< nothing: no TCP or UDP socket, no connection out of the sandbox
  Loopback,  ///< a loopback of the sandbox's own (servers it starts), nothing outside
  Proxy,     ///< only HTTP and HTTPS through toolguard's proxy, to the hosts the policy names
  Open,      ///< the network is not confined
};

/// What happens when the kernel cannot hold part of the confinement the
/// policy asks for (an old kernel, user namespaces turned off).
enum class SandboxFallback {
  Ask,         ///< the command is not run unconfined: a person must decide
  Unconfined,  ///< the command runs with what the kernel can hold, said so
};

/// The policy's `sandbox:` section: what a confined command may do.
struct SandboxSettings {
  /// Places besides the workspaces and a private temporary directory where
  /// the command may write (tool caches: ~/.cache, ~/.npm, ...); `~` is the
  /// home directory. Places that do not exist are left out.
  std::vector<std::string> writable;
  /// Places inside each workspace (relative to it) that stay read-only: the
  /// guard's and the agents' configuration, git's hooks and config. A
  /// relative name ending in `/` is a directory, made (empty) when missing so
  /// that the command cannot make it.
  std::vector<std::string> read_only;
  /// Secrets the command may not read: absolute or `~` places (~/.ssh), and
  /// file-name globs looked for inside the workspaces (`.env`, `*.pem`).
  std::vector<std::string> deny_read;
  /// Globs of file names that deny_read's name globs never cover
  /// (`.env.example`).
  std::vector<std::string> deny_read_except;
  SandboxNetwork network = SandboxNetwork::None;
  /// With network Proxy, the hosts the proxy lets through: `example.com`
  /// (ports 80 and 443), `*.example.com` (names below it), `host:PORT`, or
  /// an address written out with its port (`127.0.0.1:8080`, `[::1]:3000`,
  /// `localhost:5432`). A name must resolve to public addresses only; only
  /// an entry that names an address (or localhost) reaches a private one.
  std::vector<std::string> hosts;
  SandboxFallback when_unavailable = SandboxFallback::Ask;
};

/// The built-in `sandbox:` defaults (docs/sandbox.md lists them).
SandboxSettings defaultSandboxSettings();

/// What this kernel offers an unprivileged process.
struct SandboxKernel {
  int landlock_abi = 0;          ///< 0: no Landlock; 1 to 7 and later
  bool seccomp = false;          ///< seccomp filters can be loaded
  bool user_namespaces = false;  ///< a private mount and network namespace can be made
};

/// Probes the running kernel (a few system calls, no side effect).
SandboxKernel probeSandboxKernel();

/// What `settings` ask for that `kernel` cannot hold, whatever the
/// workspace ("" when it can hold every part): a quick answer for a hook,
/// which must not look through the workspace on every call.
std::string sandboxShortfall(const SandboxSettings& settings, const SandboxKernel& kernel);

/// One request a sandboxed command made through the proxy, and what the
/// proxy did with it.
struct SandboxConnection {
  std::string method;  ///< CONNECT, GET, ...
  std::string host;    ///< as the request named it (lower case)
  int port = 0;
  bool allowed = false;
  std::string reason;  ///< the hosts entry that let it through, or why it was refused
};

/// Where a command runs and what it is.
struct SandboxRequest {
  std::vector<std::string> workspaces;  ///< absolute; writable
  std::string home;                     ///< the home directory (`~`)
  std::vector<std::string> command;     ///< the program and its arguments
  std::string cwd;                      ///< where it runs ("": where the caller is)
  /// Use at most these of the kernel's features (to see and test what an
  /// older kernel gives); never more than the kernel has.
  std::optional<SandboxKernel> kernel_limit;
  /// Told of every request through the proxy (network Proxy), from the
  /// proxy's threads while the command runs: the audit. It returns false
  /// when it could not record the request, and the proxy then refuses it
  /// (nothing goes out unrecorded).
  std::function<bool(const SandboxConnection&)> on_connection;
};

/// `kernel` with nothing above `limit` (the lower ABI, each feature only
/// when both have it).
SandboxKernel limitSandboxKernel(const SandboxKernel& kernel, const SandboxKernel& limit);

/// Reads a kernel limit written `landlock=N,seccomp=yes|no,userns=yes|no`
/// (any subset; what is not named is not limited).
Expected<SandboxKernel> parseSandboxKernelLimit(const std::string& text);

/// One part of the confinement and whether this kernel holds it.
struct SandboxPart {
  std::string what;   ///< "writes outside the workspaces", "reads of ~/.ssh", ...
  bool held = false;  ///< false: the kernel cannot hold it (why says why)
  std::string why;    ///< the mechanism, or why it is not held
};

/// The confinement a command gets on this kernel, part by part.
struct SandboxReport {
  SandboxKernel kernel;
  std::vector<SandboxPart> parts;
  /// True when every part is held.
  bool complete() const;
  /// The parts not held, joined for a message ("" when complete).
  std::string missing() const;
};

/// The confinement `request` would get under `settings` on this kernel,
/// without running anything.
Expected<SandboxReport> describeSandbox(const SandboxSettings& settings,
                                        const SandboxRequest& request);

/// Runs `request.command` confined and waits for it. Returns its exit status
/// (128 + the signal's number when a signal ended it). Fails, running
/// nothing, when the confinement cannot be set up, or when a part is not held
/// and `settings.when_unavailable` is Ask. `report`, when given, receives
/// what was held.
Expected<int> runSandboxed(const SandboxSettings& settings, const SandboxRequest& request,
                           SandboxReport* report = nullptr);

/// Like runSandboxed, for a launcher that has nothing left to do: where no
/// one need stay behind (no proxy to serve, no directory to remove), the
/// calling process confines itself and becomes the command, saving a fork
/// and a wait; it returns only when that fails. Otherwise it runs the
/// command in a child and returns its status as runSandboxed does.
/// `before_run` is told what is held once the run is ready, before the
/// command starts. The calling process must have one thread (a user
/// namespace needs it).
Expected<int> execSandboxed(const SandboxSettings& settings, const SandboxRequest& request,
                            const std::function<void(const SandboxReport&)>& before_run);

}  // namespace toolguard
