// Running a command in the sandbox (toolguard/sandbox.hpp): the kernel's
// offer, the layout, the parent's preparation and its wait.
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <utility>

#include "core/file_descriptor.hpp"
#include "sandbox/landlock.hpp"
#include "sandbox/network_proxy.hpp"
#include "sandbox/proxy_hosts.hpp"
#include "sandbox/sandbox_child.hpp"
#include "sandbox/sandbox_layout.hpp"
#include "sandbox/seccomp_filter.hpp"
#include "toolguard/sandbox.hpp"

extern char** environ;

namespace toolguard {
namespace {

namespace fs = std::filesystem;
using sandbox::SandboxLayout;

// The number in a /proc/sys file, or -1 when there is none.
long sysctlNumber(const char* path) {
  detail::FileDescriptor fd(::open(path, O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return -1;
  char text[32] = {};
  const ssize_t got = ::read(fd.get(), text, sizeof text - 1);
  return got > 0 ? std::strtol(text, nullptr, 10) : -1;
}

// Whether an unprivileged user namespace can be made, read from the
// settings that forbid it (Debian's switch, Ubuntu's AppArmor restriction,
// the per-user limit) rather than tried: a try costs a fork on every run.
// Should the child's unshare fail anyway, the run fails, running nothing.
bool userNamespacesAllowed() {
  if (sysctlNumber("/proc/sys/user/max_user_namespaces") == 0) return false;
  if (::access("/proc/self/ns/user", F_OK) != 0) return false;  // no user namespaces at all
  if (::geteuid() == 0) return true;
  if (sysctlNumber("/proc/sys/kernel/unprivileged_userns_clone") == 0) return false;
  if (sysctlNumber("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == 1) return false;
  return true;
}

// The command's child, for the signal handler that passes signals on.
std::atomic<pid_t> g_sandboxed_child{0};

void passSignalOn(int signal) {
  const pid_t child = g_sandboxed_child.load();
  if (child > 0) ::kill(child, signal);
}

// Passes the signals that end a run on to the child while it runs, and
// restores the previous handlers after.
class SignalRelay {
 public:
  explicit SignalRelay(pid_t child) {
    g_sandboxed_child = child;
    struct sigaction relay {};
    relay.sa_handler = passSignalOn;
    sigemptyset(&relay.sa_mask);
    relay.sa_flags = SA_RESTART;
    for (size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &relay, &previous_[i]);
  }
  ~SignalRelay() {
    for (size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &previous_[i], nullptr);
    g_sandboxed_child = 0;
  }
  SignalRelay(const SignalRelay&) = delete;
  SignalRelay& operator=(const SignalRelay&) = delete;

 private:
  static constexpr std::array<int, 4> kSignals = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
  std::array<struct sigaction, 4> previous_{};
};

// The run's own directory (/tmp/toolguard-sandbox.XXXXXX) where no mount
// namespace can be made (or no mount point for a tmpfs): the command's
// private temporary directory (its TMPDIR, writable) and the masks' file,
// removed after the run.
class RunDirectory {
 public:
  static Expected<RunDirectory> make() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern =
        std::string(base && *base == '/' ? base : "/tmp") + "/toolguard-sandbox.XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
      return fail("sandbox: cannot make a private directory under " + pattern + ": " +
                  std::strerror(errno));
    }
    RunDirectory dir;
    dir.path_ = pattern;
    if (::mkdir(dir.tmp().c_str(), 0700) != 0 || ::mkdir(dir.maskDir().c_str(), 0) != 0) {
      return fail("sandbox: cannot prepare " + pattern + ": " + std::strerror(errno));
    }
    const int mask = ::open(dir.maskFile().c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0);
    if (mask < 0) return fail("sandbox: cannot prepare " + pattern + ": " + std::strerror(errno));
    ::close(mask);
    return dir;
  }
  RunDirectory() = default;
  RunDirectory(RunDirectory&& other) noexcept : path_(std::exchange(other.path_, "")) {}
  RunDirectory& operator=(RunDirectory&&) = delete;
  ~RunDirectory() {
    if (path_.empty()) return;
    std::error_code error;
    fs::permissions(maskDir(), fs::perms::owner_all, fs::perm_options::add, error);
    if (fs::remove_all(path_, error) != static_cast<std::uintmax_t>(-1)) return;
    // What the command left in its /tmp may be read-only to its owner.
    for (auto it = fs::recursive_directory_iterator(
             path_, fs::directory_options::skip_permission_denied, error);
         !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
      if (it->is_directory(error) && !it->is_symlink(error)) {
        fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, error);
      }
    }
    fs::remove_all(path_, error);
  }

  std::string tmp() const { return path_ + "/tmp"; }
  std::string maskFile() const { return path_ + "/mask-file"; }
  std::string maskDir() const { return path_ + "/mask-dir"; }

 private:
  std::string path_;
};

// The directory on which, in the command's own mount namespace, a fresh
// tmpfs becomes its private TMPDIR: an empty directory of the user's that
// stays on disk and is never written to (what the command writes there
// lives in memory and is gone with its namespace, so nothing is left to
// remove and the launcher need not wait). "" when it cannot be made.
//
// ~/.cache may be a link of the user's; below it, where sandboxed commands
// may write, no link is followed: a command cannot have the launcher make a
// directory elsewhere.
std::string privateTmpMountPoint(const std::string& home) {
  const std::string cache = home + "/.cache";
  ::mkdir(cache.c_str(), 0755);
  detail::FileDescriptor dir(::open(cache.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  for (const char* name : {"toolguard", "sandbox-tmp"}) {
    if (dir.get() < 0) return "";
    ::mkdirat(dir.get(), name, 0755);
    dir = detail::FileDescriptor(
        ::openat(dir.get(), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  }
  struct stat st {};
  if (dir.get() < 0 || ::fstat(dir.get(), &st) != 0 || st.st_uid != ::geteuid()) return "";
  return cache + "/toolguard/sandbox-tmp";
}

Expected<sandbox::LandlockRuleset> landlockRules(const SandboxLayout& layout,
                                                 const SandboxKernel& kernel,
                                                 const SandboxSettings& settings,
                                                 const std::string& private_tmp) {
  // private_tmp "": the child makes its tmpfs writable itself.
  const bool confine_tcp = settings.network == SandboxNetwork::None;
  Expected<sandbox::LandlockRuleset> ruleset =
      sandbox::LandlockRuleset::create(kernel.landlock_abi, confine_tcp);
  if (!ruleset) return ruleset;
  using namespace sandbox;
  const uint64_t all = fsAccessOf(kernel.landlock_abi);
  if (auto r = ruleset->allowPath("/", kFsReadAccess | kFsIoctlDev); !r) return fail(r.error());
  for (const std::string& place : layout.writable) {
    if (auto r = ruleset->allowPath(place, all); !r) return fail(r.error());
  }
  if (!private_tmp.empty()) {
    if (auto r = ruleset->allowPath(private_tmp, all); !r) return fail(r.error());
  }
  // Devices every program writes to harmlessly.
  const uint64_t device = kFsReadFile | kFsWriteFile | kFsTruncate | kFsIoctlDev;
  for (const char* path :
       {"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/pts"}) {
    std::error_code error;
    if (!fs::exists(path, error)) continue;
    if (auto r = ruleset->allowPath(path, device); !r) return fail(r.error());
  }
  return ruleset;
}

Expected<std::vector<sandbox::HostPattern>> hostPatterns(const SandboxSettings& settings) {
  std::vector<sandbox::HostPattern> patterns;
  for (const std::string& entry : settings.hosts) {
    Expected<sandbox::HostPattern> pattern = sandbox::parseHostPattern(entry);
    if (!pattern) return fail("sandbox.hosts: " + pattern.error());
    patterns.push_back(*pattern);
  }
  return patterns;
}

// The variables through which programs find a proxy: the inherited ones
// are dropped (a sandboxed command reaches nothing else), and with the
// proxy on they name it.
bool proxyVariable(std::string_view entry) {
  for (std::string_view name : {"http_proxy=", "https_proxy=", "all_proxy=", "no_proxy=",
                                "HTTP_PROXY=", "HTTPS_PROXY=", "ALL_PROXY=", "NO_PROXY="}) {
    if (entry.starts_with(name)) return true;
  }
  return false;
}

// Receives the proxy's listening socket from the child; -1 when the child
// ended (or failed) before sending it.
int receiveListener(int channel) {
  sandbox::FdMessage message;
  ssize_t got;
  while ((got = ::recvmsg(channel, &message.header, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
  }
  if (got != 1) return -1;
  const cmsghdr* header = CMSG_FIRSTHDR(&message.header);
  if (header == nullptr || header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS ||
      header->cmsg_len != CMSG_LEN(sizeof(int))) {
    return -1;
  }
  int fd = -1;
  std::memcpy(&fd, CMSG_DATA(header), sizeof fd);
  return fd;
}

SandboxKernel kernelFor(const SandboxRequest& request) {
  const SandboxKernel kernel = probeSandboxKernel();
  return request.kernel_limit ? limitSandboxKernel(kernel, *request.kernel_limit) : kernel;
}

}  // namespace

SandboxSettings defaultSandboxSettings() {
  SandboxSettings settings;
  settings.writable = {
      "~/.cache",     "~/.npm",           "~/.cargo/registry", "~/.cargo/git",
      "~/go/pkg/mod", "~/.m2/repository", "~/.gradle/caches",  "~/.local/share/virtualenvs",
      "~/.ccache"};
  settings.read_only = {".git/hooks/", ".git/config", ".toolguard/", ".claude/",
                        ".gemini/",    ".vscode/",    ".cursor/"};
  settings.deny_read = {"~/.ssh", "~/.aws", "~/.gnupg", "~/.config/gcloud", "~/.azure", "~/.kube",
                        "~/.docker/config.json", "~/.netrc", "~/.git-credentials", "~/.pypirc",
                        "~/.npmrc", "~/.config/gh", "~/.toolguard",
                        // Container daemons' sockets: root on the machine, outside any sandbox.
                        "/run/docker.sock", "/var/run/docker.sock", "/run/podman/podman.sock",
                        "/run/containerd/containerd.sock", ".env", ".env.*", "*.pem", "*.key",
                        "id_rsa*", "id_ed25519*", "id_ecdsa*", ".netrc", ".git-credentials"};
  settings.deny_read_except = {".env.example", ".env.sample",   ".env.template",
                               ".env.dist",    ".env.defaults", "*.example"};
  return settings;
}

SandboxKernel probeSandboxKernel() {
  SandboxKernel kernel;
  kernel.landlock_abi = sandbox::landlockAbi();
  kernel.seccomp = sandbox::seccompAvailable();
  kernel.user_namespaces = userNamespacesAllowed();
  return kernel;
}

SandboxKernel limitSandboxKernel(const SandboxKernel& kernel, const SandboxKernel& limit) {
  SandboxKernel limited;
  limited.landlock_abi = std::min(kernel.landlock_abi, limit.landlock_abi);
  limited.seccomp = kernel.seccomp && limit.seccomp;
  limited.user_namespaces = kernel.user_namespaces && limit.user_namespaces;
  return limited;
}

Expected<SandboxKernel> parseSandboxKernelLimit(const std::string& text) {
  SandboxKernel limit{.landlock_abi = 1 << 20, .seccomp = true, .user_namespaces = true};
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    start = end + 1;
    const size_t equals = item.find('=');
    const std::string name = item.substr(0, equals);
    const std::string value = equals == std::string::npos ? "" : item.substr(equals + 1);
    auto yes_no = [&](bool& into) -> Expected<void> {
      if (value != "yes" && value != "no") return fail(name + ": expected yes or no");
      into = value == "yes";
      return {};
    };
    if (name == "landlock" && !value.empty() &&
        value.find_first_not_of("0123456789") == std::string::npos && value.size() < 4) {
      limit.landlock_abi = std::stoi(value);
    } else if (name == "seccomp") {
      if (Expected<void> r = yes_no(limit.seccomp); !r) return fail(r.error());
    } else if (name == "userns") {
      if (Expected<void> r = yes_no(limit.user_namespaces); !r) return fail(r.error());
    } else {
      return fail("\"" + item + "\": expected landlock=N, seccomp=yes|no or userns=yes|no");
    }
  }
  return limit;
}

std::string sandboxShortfall(const SandboxSettings& settings, const SandboxKernel& kernel) {
  std::vector<std::string> missing;
  if (kernel.landlock_abi <= 0) {
    missing.emplace_back("writes outside the workspaces and ptrace (no Landlock)");
  }
  if (!kernel.user_namespaces && (!settings.read_only.empty() || !settings.deny_read.empty())) {
    missing.emplace_back("guarded places and secrets (no unprivileged user namespaces)");
  }
  if (settings.network == SandboxNetwork::None && !kernel.seccomp && !kernel.user_namespaces) {
    missing.emplace_back("the network (neither seccomp nor user namespaces)");
  }
  if ((settings.network == SandboxNetwork::Proxy || settings.network == SandboxNetwork::Loopback) &&
      !kernel.user_namespaces) {
    missing.emplace_back("a private network (no unprivileged user namespaces)");
  }
  if (kernel.landlock_abi < 6) {
    missing.emplace_back("signals and abstract Unix sockets to processes outside (Landlock ABI 6)");
  }
  std::string text;
  for (const std::string& part : missing) text += (text.empty() ? "" : "; ") + part;
  return text;
}

bool SandboxReport::complete() const {
  for (const SandboxPart& part : parts) {
    if (!part.held) return false;
  }
  return true;
}

std::string SandboxReport::missing() const {
  std::string text;
  for (const SandboxPart& part : parts) {
    if (!part.held) text += (text.empty() ? "" : "; ") + part.what + " (" + part.why + ")";
  }
  return text;
}

Expected<SandboxReport> describeSandbox(const SandboxSettings& settings,
                                        const SandboxRequest& request) {
  Expected<SandboxLayout> layout = sandbox::layoutSandbox(settings, request, kernelFor(request));
  if (!layout) return fail(layout.error());
  return layout->report;
}

namespace {

// A run made ready: the child's plan and everything it points into, and
// what is to be removed after the run. Built in place (the plan points
// into it), so it does not move.
struct PreparedRun {
  PreparedRun() = default;
  PreparedRun(const PreparedRun&) = delete;
  PreparedRun& operator=(const PreparedRun&) = delete;

  std::optional<RunDirectory> run_dir;  // only where no tmpfs can be mounted
  std::optional<sandbox::LandlockRuleset> ruleset;
  std::optional<sandbox::SeccompProgram> seccomp;
  std::vector<sandbox::HostPattern> hosts;
  bool proxy = false;
  std::vector<std::string> arguments;
  std::vector<std::string> environment;
  sandbox::ChildPlan plan;
};

Expected<void> prepareRun(PreparedRun& run, const SandboxSettings& settings,
                          const SandboxRequest& request, SandboxReport* report) {
  const SandboxKernel kernel = kernelFor(request);
  Expected<SandboxLayout> layout = sandbox::layoutSandbox(settings, request, kernel);
  if (!layout) return fail(layout.error());
  if (report != nullptr) *report = layout->report;
  if (!layout->report.complete() && settings.when_unavailable == SandboxFallback::Ask) {
    return fail("sandbox: this kernel cannot hold " + layout->report.missing() +
                "; the policy says to ask rather than run it with less (sandbox.when_unavailable)");
  }
  for (const std::string& dir : layout->make_dirs) {
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
      return fail("sandbox: cannot make the guarded directory " + dir + ": " +
                  std::strerror(errno));
    }
  }
  std::string tmp = layout->namespaces ? privateTmpMountPoint(request.home) : "";
  run.plan.private_tmp = tmp;
  if (tmp.empty()) {
    Expected<RunDirectory> run_dir = RunDirectory::make();
    if (!run_dir) return fail(run_dir.error());
    run.run_dir.emplace(std::move(*run_dir));
    tmp = run.run_dir->tmp();
  }
  run.plan.mask_file = run.run_dir ? run.run_dir->maskFile() : tmp + "/.toolguard-mask-file";
  run.plan.mask_dir = run.run_dir ? run.run_dir->maskDir() : tmp + "/.toolguard-mask-dir";
  run.plan.make_masks = !run.run_dir;

  if (layout->landlock) {
    Expected<sandbox::LandlockRuleset> rules =
        landlockRules(*layout, kernel, settings, run.run_dir ? tmp : "");
    if (!rules) return fail("sandbox: " + rules.error());
    run.ruleset = std::move(*rules);
  }
  // The proxy needs the private network; without one there is no network
  // at all rather than all of it.
  run.proxy = settings.network == SandboxNetwork::Proxy && layout->new_network;
  Expected<std::vector<sandbox::HostPattern>> hosts = hostPatterns(settings);
  if (!hosts) return fail("sandbox: " + hosts.error());
  run.hosts = std::move(*hosts);
  if (layout->seccomp) {
    Expected<sandbox::SeccompProgram> program = sandbox::buildSeccompProgram(
        {.no_network = settings.network == SandboxNetwork::None ||
                       (settings.network != SandboxNetwork::Open && !layout->new_network)});
    if (!program) return fail("sandbox: " + program.error());
    run.seccomp = std::move(*program);
  }

  sandbox::ChildPlan& plan = run.plan;
  plan.namespaces = layout->namespaces;
  plan.new_network = layout->new_network;
  plan.uid_map = std::to_string(::geteuid()) + " " + std::to_string(::geteuid()) + " 1";
  plan.gid_map = std::to_string(::getegid()) + " " + std::to_string(::getegid()) + " 1";
  using Kind = sandbox::MountStep::Kind;
  for (const std::string& place : layout->read_only) plan.mounts.push_back({Kind::ReadOnly, place});
  for (const std::string& place : layout->masked_dirs)
    plan.mounts.push_back({Kind::MaskDir, place});
  for (const std::string& place : layout->masked_files) {
    plan.mounts.push_back({Kind::MaskFile, place});
  }
  plan.proxy_port = sandbox::kProxyPort;
  plan.cwd = request.cwd;
  plan.landlock = run.ruleset ? &*run.ruleset : nullptr;
  plan.seccomp = run.seccomp ? &*run.seccomp : nullptr;

  run.arguments = request.command;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text = *entry;
    if (text.starts_with("TMPDIR=") || text.starts_with("TOOLGUARD_SANDBOX=") ||
        proxyVariable(text)) {
      continue;
    }
    run.environment.emplace_back(text);
  }
  if (run.proxy) {
    const std::string url =
        std::string("http://") + sandbox::kProxyAddress + ":" + std::to_string(sandbox::kProxyPort);
    for (const char* name :
         {"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"}) {
      run.environment.push_back(std::string(name) + "=" + url);
    }
  }
  run.environment.push_back("TMPDIR=" + tmp);
  run.environment.push_back("TOOLGUARD_SANDBOX=1");
  for (std::string& argument : run.arguments) plan.argv.push_back(argument.data());
  plan.argv.push_back(nullptr);
  for (std::string& entry : run.environment) plan.envp.push_back(entry.data());
  plan.envp.push_back(nullptr);
  return {};
}

std::string setupFailureText(const sandbox::SetupFailure& failure, const SandboxRequest& request) {
  if (failure.step == sandbox::ChildStep::Exec) {
    return "sandbox: cannot run " + request.command[0] + ": " + std::strerror(failure.error);
  }
  return "sandbox: the confinement could not be set up, nothing was run (" +
         std::string(sandbox::childStepName(failure.step)) + ": " + std::strerror(failure.error) +
         ")";
}

// Runs the prepared command in a child, serving the proxy while it runs,
// and waits for it.
Expected<int> forkAndWait(PreparedRun& run, const SandboxRequest& request) {
  int channel[2] = {-1, -1};
  if (run.proxy && ::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, channel) != 0) {
    return fail(std::string("sandbox: socketpair: ") + std::strerror(errno));
  }
  detail::FileDescriptor proxy_receive(channel[0]);
  detail::FileDescriptor proxy_send(channel[1]);
  run.plan.proxy_channel = proxy_send.get();

  int report_pipe[2];
  if (::pipe2(report_pipe, O_CLOEXEC) != 0) {
    return fail(std::string("sandbox: pipe: ") + std::strerror(errno));
  }
  detail::FileDescriptor report_read(report_pipe[0]);
  detail::FileDescriptor report_write(report_pipe[1]);
  const pid_t child = ::fork();
  if (child < 0) return fail(std::string("sandbox: fork: ") + std::strerror(errno));
  if (child == 0) sandbox::enterSandbox(run.plan, report_write.get());
  report_write.close();
  proxy_send.close();

  SignalRelay relay(child);
  std::optional<sandbox::NetworkProxy> network_proxy;
  if (run.proxy) {
    // -1: the child failed before handing the socket over; its report says why.
    if (const int listener = receiveListener(proxy_receive.get()); listener >= 0) {
      network_proxy.emplace(listener, std::move(run.hosts), request.on_connection);
    }
  }
  struct {
    int step;
    int error;
  } child_report{};
  ssize_t got;
  while ((got = ::read(report_read.get(), &child_report, sizeof child_report)) < 0 &&
         errno == EINTR) {
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (network_proxy) network_proxy->stop();
  if (got == static_cast<ssize_t>(sizeof child_report)) {
    return fail(setupFailureText(
        {static_cast<sandbox::ChildStep>(child_report.step), child_report.error}, request));
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

}  // namespace

Expected<int> runSandboxed(const SandboxSettings& settings, const SandboxRequest& request,
                           SandboxReport* report) {
  PreparedRun run;
  if (Expected<void> ready = prepareRun(run, settings, request, report); !ready) {
    return fail(ready.error());
  }
  return forkAndWait(run, request);
}

Expected<int> execSandboxed(const SandboxSettings& settings, const SandboxRequest& request,
                            const std::function<void(const SandboxReport&)>& before_run) {
  PreparedRun run;
  SandboxReport report;
  if (Expected<void> ready = prepareRun(run, settings, request, &report); !ready) {
    return fail(ready.error());
  }
  if (before_run) before_run(report);
  // A proxy to serve or a directory to remove: someone must stay.
  if (run.proxy || run.run_dir) return forkAndWait(run, request);
  if (const std::optional<sandbox::SetupFailure> failure = sandbox::confineProcess(run.plan)) {
    return fail(setupFailureText(*failure, request));
  }
  ::execvpe(run.plan.argv[0], run.plan.argv.data(), run.plan.envp.data());
  return fail(setupFailureText({sandbox::ChildStep::Exec, errno}, request));
}

}  // namespace toolguard
