#!/usr/bin/python3
"""Fails unless every command line in README.md and docs/**/*.md is accounted
for (run, checked, or mapped to the test that covers it), and unless every
agent settings snippet there is what `toolguard install` writes.

Which lines are command lines. Fenced blocks are read by the first word of
their info string:
* sh, bash, shell: every line is a command line, except blank lines and lines
  that are only a `#` comment. A line ending in `\\`, `|`, `&&` or `||` goes on
  in the next one. A `$ ` prompt is refused there: a block that shows a prompt
  and output is a console block.
* console: the lines that start with `$ ` (with their continuations); the
  other lines are the output.
* text, or no info: notation (a synopsis, output, a list of files). Its lines
  that look like commands are command lines: `$ ` lines, and lines whose first
  word (after VAR=value assignments) is a program in PROGRAMS or a path under
  scripts/ or build/. An indented line after one that starts with `[`, `-` or
  `|` goes on with it. These may use synopsis notation ([optional], a|b, ...,
  NAME placeholders).
* any info in NOT_COMMANDS (json, yaml, cpp, ...) holds no command lines. An
  info in neither list fails the test: a new kind of block is decided on,
  not skipped.
Inline code spans that begin with `toolguard ` are parsed against --help too.

How a command line is accounted for:
(a) run. A `toolguard` line that can run on its own (concrete, no server, no
    network, no VAR=value before it) runs in an isolated home and must not be
    refused as a usage error; a console `$ ... | toolguard check` must print
    the verdict the block shows. A line that RUNNERS names runs through bash
    in an isolated home and must print what the docs say it prints.
(b) checked. Every line of a shell or console block, and every concrete
    notation line, passes `bash -n`. Then each simple command of the line
    (split at |, ||, &&, ;, without redirections) is checked:
    - `toolguard ...`: parsed against the binary's own --help (its
      sub-commands exist where named, its options exist for that command);
      so is the `toolguard ...` after `--` in another program's line.
    - `scripts/NAME`: the script exists and is executable; each argument is
      at a position the script reads ($N), and a word (not a number or path)
      is one of its case labels or array elements; each VAR=value before it is
      a variable the script names.
    - `cmake --build build/KIND --target T`: KIND is a kind scripts/build.sh
      builds, T a target that the CMake files add.
    - `build/KIND/DIR/PROGRAM`: a program the build makes in DIR; its options
      appear in its sources (a Google Benchmark program: --benchmark_* flags,
      and --benchmark_filter matches one of its benchmarks).
    - VAR=value and `export VAR=value`: a TOOLGUARD_* variable is read in
      src/; another one is used later in the same block ($VAR), or
      MAPPED_VARIABLES names the test that covers it.
    - echo and printf: data for the next command (bash -n is their check).
(c) mapped. A simple command that matches a MAPPED pattern is covered by the
    test the table names; the test's file must still hold the marker text.
Anything else fails the test with FILE:LINE and the reason.

Agents' settings. Every json block whose hook handler runs toolguard (a
whole settings file, or one matcher group) must equal, as parsed JSON, what
`toolguard install AGENT --settings FILE` writes into an empty file (with the
--mode or --agent-asks its command shows), the binary's absolute path
normalised: a copied snippet then blocks on failure as an installed hook does.
A json block with an MCP server whose command is toolguard has its args
parsed against --help.

Usage: doc_command_lines.py SOURCE_DIR TOOLGUARD_BINARY
"""
import hashlib
import hmac
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

SHELL_INFOS = {"sh", "bash", "shell"}
CONSOLE_INFOS = {"console"}
NOTATION_INFOS = {"", "text"}
NOT_COMMANDS = {"json", "yaml", "cpp", "c", "cmake", "js", "mjs", "ts", "python", "go", "toml",
                "markdown", "sql"}
# In a notation block, a line whose first word is one of these is a command line.
PROGRAMS = {"toolguard", "toolguard-serve", "toolguard-http", "claude", "gemini", "cmake",
            "ctest", "psql", "openssl", "echo", "printf", "export", "sh", "bash", "jq", "curl",
            "git", "npx", "npm", "node", "python3", "c++", "g++", "clang++", "pkg-config", "make",
            "ninja", "cd", "sudo", "docker", "env", "cat"}
SEPARATORS = {"|", "||", "&&", ";", "&"}
# Words after which an inline span's toolguard command ends.
OPERATORS = SEPARATORS | {"<", ">", ">>", "2>", "2>&1", "#", "\\"}

# What CLI11 and toolguard say about a command line they refuse.
USAGE_ERRORS = re.compile(r"unknown option|unknown command|were not expected|is required|"
                          r"Run with --help|The following argument|requires at least|"
                          r"Could not convert|not in \{|is not a valid|A subcommand is required")
# `toolguard` command lines that start a server, wait for a person or a
# network, or follow a file forever: parsed, never run.
NOT_RUN = re.compile(r"^(mcp\b|serve(?!\s+token\s+(add|list|revoke)\b)|audit tail.*(-f|--follow))|"
                     r"--server|--wait|postgres(ql)?://|\$|~|<|TOOLGUARD_SERVER")
SAMPLE_CALL = '{"tool":"Read","args":{"file_path":"README.md"}}\n'

# (c) Commands another test covers: pattern (on the simple command's words,
# joined by spaces), the test, its file, and text that file must still hold.
MAPPED = [
    (r"^claude mcp add \S+ -- toolguard mcp ",
     "e2e McpProxy.WithClaudeCodesHookTooACallIsAskedOnceByTheProxy: the entry this writes "
     "({command: toolguard, args: [mcp, --name, fs, --workspace, DIR, --, npx, -y, "
     "@modelcontextprotocol/server-filesystem, DIR]}) run behind Claude Code's hook",
     "tests/e2e/mcp_out_of_the_box_test.cpp", '"@modelcontextprotocol/server-filesystem", ws}'),
    (r"^psql ",
     "serve ServePostgres.TheServicesRoleMayOnlyInsertIntoTheAudit: an owner role and a service "
     "role, the schema owned by the owner, `serve migrate --grant`, the service's rights",
     "tests/serve/serve_audit_test.cpp", "ALTER SCHEMA public OWNER TO tg_owner"),
    (r"^c\+\+ -std=c\+\+20 \S+ \$\(pkg-config --cflags --libs --static toolguard\)$",
     "install.consumer: builds and runs a program with the installed toolguard.pc's link line",
     "tests/install/run_consumer.cmake", "--cflags --libs --static toolguard"),
]
# Variables set for a command that is not toolguard's own, and the test that covers them.
MAPPED_VARIABLES = {
    "SSL_CERT_FILE": ("serve ServeTls.AClientCertificateOrATokenOverTlsIsAnAgent: the hook trusts "
                      "the service's CA through SSL_CERT_FILE", "tests/serve/tls_test.cpp",
                      'extra.emplace("SSL_CERT_FILE"'),
    "PKG_CONFIG_PATH": ("install.consumer: pkg-config finds the installed toolguard.pc",
                        "tests/install/run_consumer.cmake", "ENV{PKG_CONFIG_PATH}"),
}
GOOGLE_BENCHMARK_FLAGS = {
    "--benchmark_filter", "--benchmark_repetitions", "--benchmark_report_aggregates_only",
    "--benchmark_display_aggregates_only", "--benchmark_min_time", "--benchmark_min_warmup_time",
    "--benchmark_format", "--benchmark_out", "--benchmark_out_format", "--benchmark_list_tests",
    "--benchmark_time_unit", "--benchmark_color", "--benchmark_counters_tabular",
    "--benchmark_enable_random_interleaving", "--benchmark_context", "--benchmark_dry_run"}


@dataclass
class CommandLine:
    file: str
    number: int
    text: str  # continuation lines joined, the `$ ` prompt taken off
    info: str
    notation: bool  # a text or info-less block: synopsis notation allowed
    block: list = field(default_factory=list)  # the block's lines
    after: list = field(default_factory=list)  # the block's lines after this one

    @property
    def where(self):
        return f"{self.file}:{self.number}"


def doc_files(root):
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def fenced_blocks(root, failures):
    """(file, first line number of the content, info, content lines) of every fenced block."""
    for path in doc_files(root):
        name = str(path.relative_to(root))
        lines = path.read_text(encoding="utf-8").split("\n")
        fence = None
        for i, line in enumerate(lines):
            m = re.match(r"^\s*(```+|~~~+)\s*(.*)$", line)
            if fence is None:
                if m:
                    fence, info, start = m.group(1), m.group(2).strip(), i + 1
                    info = info.split(" ")[0].lower() if info else ""
            elif m and m.group(1).startswith(fence) and not m.group(2).strip():
                if not (info in SHELL_INFOS | CONSOLE_INFOS | NOTATION_INFOS | NOT_COMMANDS):
                    failures.append(f"{name}:{start}: a ```{info} block: add its language to "
                                    f"SHELL_INFOS or NOT_COMMANDS in {Path(__file__).name}")
                yield name, start + 1, info, lines[start:i]
                fence = None


def looks_like_command(line):
    if line.lstrip().startswith("$ "):
        return True
    words = line.split()
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words = words[1:]
    return bool(words) and (words[0] in PROGRAMS or words[0].startswith(("scripts/", "build/")))


def command_lines(root, failures):
    for name, first, info, lines in fenced_blocks(root, failures):
        if info in NOT_COMMANDS:
            continue
        i = 0
        while i < len(lines):
            line, number = lines[i], first + i
            stripped = line.strip()
            i += 1
            if info in SHELL_INFOS:
                if not stripped or stripped.startswith("#"):
                    continue
            elif info in CONSOLE_INFOS:
                if not stripped.startswith("$ "):
                    continue
            elif not looks_like_command(line):
                continue
            text = line
            while i < len(lines):
                if re.search(r"(\\|\||&&)\s*$", text) and info not in NOTATION_INFOS:
                    text = re.sub(r"\\\s*$", "", text.rstrip()) + " " + lines[i].strip()
                elif info in NOTATION_INFOS and re.match(r"^\s+[\[\-|]", lines[i]):
                    text = text.rstrip() + " " + lines[i].strip()
                else:
                    break
                i += 1
            prompted = text.lstrip().startswith("$ ")
            text = re.sub(r"^\s*\$ ", "", text).strip()
            cl = CommandLine(name, number, text, info, info in NOTATION_INFOS, lines, lines[i:])
            if prompted and info in SHELL_INFOS:
                failures.append(f"{cl.where}: a `$ ` prompt in a ```{info} block: a block that "
                                f"shows a prompt and output is ```console")
                continue
            yield cl


def inline_command_lines(root):
    """Inline code spans that begin with `toolguard `, also those a line break splits."""
    for path in doc_files(root):
        name = str(path.relative_to(root))
        prose, fence = [], None
        for line in path.read_text(encoding="utf-8").split("\n"):
            stripped = line.strip()
            if re.match(r"^(```|~~~)", stripped):
                fence = stripped[:3] if fence is None else (None if stripped.startswith(fence)
                                                            else fence)
                prose.append("")
            else:
                prose.append("" if fence else line)
        text = "\n".join(prose)
        for m in re.finditer(r"(?<!`)`(toolguard [^`]+)`(?!`)", text):
            span = re.sub(r"\s+", " ", m.group(1)).replace("\\|", "|")  # a table's escaped pipe
            yield name, text.count("\n", 0, m.start()) + 1, span.split()[1:]


def own_words(words):
    """The words of an inline span's toolguard command, up to an operator or comment."""
    out = []
    for word in words:
        if word in OPERATORS or word.startswith("#"):
            break
        out.append(word)
    return out


def shell_words(text):
    lexer = shlex.shlex(text, posix=True, punctuation_chars="|&;<>")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    return list(lexer)


def simple_commands(line):
    """The line's simple commands: (VAR=value assignments, words), redirections left out.
    A notation line is one command, up to a ` # ` comment."""
    if line.notation:
        words = line.text.split(" # ")[0].split()
        groups = [words]
    else:
        groups, words = [], []
        for word in shell_words(line.text):
            if word in SEPARATORS:
                groups.append(words)
                words = []
            else:
                words.append(word)
        groups.append(words)
    out = []
    for words in groups:
        kept, skip = [], False
        for word in words:
            if skip:
                skip = False
            elif not line.notation and re.fullmatch(r"[0-9]*[<>&]+", word):
                skip = not word.endswith("&")  # `< FILE`, `> FILE`; `2>&1` is whole
            else:
                kept.append(word)
        assignments = []
        while kept and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", kept[0]):
            assignments.append(kept.pop(0))
        out.append((assignments, kept))
    return out


class Help:
    """The --help of each command path, read once from the real binary."""

    def __init__(self, binary, env):
        self.binary = binary
        self.env = env
        self.cache = {}

    def of(self, path, store=False):
        """`store`: the command as `--store URL` runs it (`approvals` and `audit`
        on a service's store are answered by toolguard-serve)."""
        key = (tuple(path), store)
        if key not in self.cache:
            extra = ["--store", "file"] if store else []
            r = subprocess.run([self.binary, *path, *extra, "--help"], capture_output=True,
                               text=True, env=self.env, timeout=30)
            self.cache[key] = parse_help(r.stdout) if r.returncode == 0 else None
        return self.cache[key]


def parse_help(text):
    """Options, sub-commands and whether one is required, from CLI11's help."""
    options, subcommands, section = set(), set(), None
    usage = ""
    for line in text.splitlines():
        if line.startswith("Usage:"):
            usage = line
        elif line.rstrip().endswith(":") and not line.startswith(" "):
            section = line.strip().rstrip(":").lower()
        elif section == "options" and line.startswith("  "):
            spec = re.split(r"\s{2,}", line.strip())[0]
            for name in re.findall(r"(?<![\w-])(--?[A-Za-z0-9][\w-]*)", spec):
                options.add(name)
        elif section == "subcommands" and re.match(r"^  \S", line):
            subcommands.add(line.split()[0])
    required = bool(re.search(r"(?<!\[)SUBCOMMAND", usage))
    return {"options": options, "subcommands": subcommands, "required": required}


def alternatives(word):
    """`[--follow]|query` -> --follow, query; `--format=a|b` -> --format=a|b (values)."""
    word = word.strip("[](){}")
    if word.startswith("-") and "=" in word:
        return [word]
    names = (w.strip("[](){}") for w in re.split(r"[|/]", word))
    return [w for w in names if w and w not in ("...", "…")]


def check_parse(help, words):
    """Problems with `toolguard WORDS` as the binary's help describes it."""
    problems, path = [], []
    store = "--store" in words or any(w.startswith("--store=") for w in words)
    current = help.of(path)
    descended = False  # past the sub-commands: the rest are options and arguments
    for word in words:
        if word == "--":
            break
        names = alternatives(word)
        if not names:
            continue
        if names[0].startswith("-"):
            for option in (n.split("=")[0] for n in names if n.startswith("-")):
                if re.match(r"^--?[A-Za-z0-9]", option) and option not in current["options"]:
                    problems.append(f"unknown option '{option}' for `toolguard {' '.join(path)}` "
                                    f"(not in its --help)")
            # `tail [--follow]|query [--until T]`: the synopsis goes on with a sibling command.
            sibling = [n for n in names if not n.startswith("-")]
            if sibling and path:
                parent = help.of(path[:-1], store and path[0] in ("approvals", "audit"))
                if sibling[0] not in parent["subcommands"]:
                    problems.append(f"unknown command '{' '.join(path[:-1] + sibling[:1])}'")
                    return problems
                path[-1] = sibling[0]
                current = help.of(path, store and path[0] in ("approvals", "audit"))
            continue
        if descended or not current["subcommands"] or all(re.match(r"^[A-Z]", n) for n in names):
            descended = True  # an argument or a placeholder (FILE, AGENT)
            continue
        missing = [n for n in names if n not in current["subcommands"]]
        if missing:
            if current["required"]:
                problems.append(f"unknown command '{' '.join(path + missing)}'")
                return problems
            descended = True
            continue
        path.append(names[0])
        current = help.of(path, store and path[0] in ("approvals", "audit"))
        if current is None:
            problems.append(f"`toolguard {' '.join(path)} --help` fails")
            return problems
    return problems


def concrete(words):
    return not any(re.search(r"[\[\]|…]|\.\.\.|^[A-Z][A-Z_]+$|^<|>$", w) for w in words)


def isolated_env(home):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLGUARD_")}
    env.update({"HOME": str(home / "home"), "TOOLGUARD_HOME": str(home / "home" / ".toolguard"),
                "TOOLGUARD_CONFIG_DIR": str(home / "user"),
                "TOOLGUARD_MANAGED_DIR": str(home / "managed"), "XDG_CONFIG_HOME": ""})
    return env


def make_home(base):
    base.mkdir(parents=True, exist_ok=True)
    for d in ("home", "user", "managed", "work"):
        (base / d).mkdir(exist_ok=True)
    return base


def run_isolated(binary, words, home):
    stdin = SAMPLE_CALL if words and words[0] in ("check", "explain") else ""
    try:
        r = subprocess.run([binary, *words], input=stdin, capture_output=True, text=True,
                           env=isolated_env(home), cwd=home / "work", timeout=30)
    except subprocess.TimeoutExpired:
        return "did not finish within 30 s"
    if USAGE_ERRORS.search(r.stderr) or USAGE_ERRORS.search(r.stdout[:2000]):
        return f"refused as a usage error (exit {r.returncode}): {r.stderr.strip()[:300]}"
    return None


def run_bash(text, env, cwd, stdin=""):
    try:
        return subprocess.run(["bash", "-c", text], input=stdin, capture_output=True, text=True,
                              env=env, cwd=cwd, timeout=30)
    except subprocess.TimeoutExpired:
        return None


# (a) Lines other than plain `toolguard` ones that the test runs.

def run_installed_hook_by_hand(ctx, line):
    """docs/agent-install.md's "Checking it works": the hook command read from
    the settings file install wrote, run with a call; the decision must be the
    one the comment under it shows."""
    if not shutil.which("jq"):
        return ["jq is not installed (scripts/install-deps.sh test installs it)"]
    home = make_home(ctx.tmp / f"hook-{line.number}")
    env = isolated_env(home)
    r = subprocess.run([ctx.binary, "install", "claude", "--mode", "tighten"], env=env,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        return [f"`toolguard install claude` failed: {r.stderr.strip()[:300]}"]
    shown = re.search(r'"permissionDecision":\s*"(\w+)"', "\n".join(line.after[:3]))
    if not shown:
        return ["no `# {...\"permissionDecision\": ...}` line under it shows what it prints"]
    r = run_bash(line.text, env, home / "work")
    if r is None:
        return ["did not finish within 30 s"]
    try:
        got = json.loads(r.stdout)["hookSpecificOutput"]["permissionDecision"]
    except (ValueError, KeyError, TypeError):
        return [f"printed {r.stdout.strip()[:300]!r} {r.stderr.strip()[:300]} (exit "
                f"{r.returncode}), not a hook decision"]
    if got != shown.group(1):
        return [f"shows permissionDecision {shown.group(1)}, the hook answered {got}"]
    return []


def run_webhook_signature(ctx, line):
    """docs/serve.md: the receiver's signature check is HMAC-SHA256 of
    "TIMESTAMP.BODY" with the secret (what serve's AWebhookNoticeIsSignedWithTheSecret
    compares the X-Toolguard-Signature header with)."""
    values = {"timestamp": "1795000000", "body": '{"ask":"a1","tool":"Bash"}',
              "secret": "s3cr3t"}
    env = dict(os.environ, **values)
    r = run_bash(line.text, env, ctx.tmp)
    if r is None or r.returncode != 0:
        return [f"failed: {r.stderr.strip()[:300] if r else 'did not finish within 30 s'}"]
    want = hmac.new(values["secret"].encode(), f"{values['timestamp']}.{values['body']}".encode(),
                    hashlib.sha256).hexdigest()
    if not r.stdout.startswith(want):
        return [f"printed {r.stdout.strip()[:100]!r}, not HMAC-SHA256 of TIMESTAMP.BODY ({want})"]
    return []


RUNNERS = [
    (r"\| sh -c \"\$\(jq -r '\.hooks\.PreToolUse\[-1\]\.hooks\[0\]\.command' "
     r"~/\.claude/settings\.json\)\"$", run_installed_hook_by_hand),
    (r"^printf '%s\.%s' \"\$timestamp\" \"\$body\" \| openssl dgst -sha256 -hmac \"\$secret\" -r$",
     run_webhook_signature),
]


# (b) What the build and the scripts hold.

class Tree:
    """What the source tree says: scripts, CMake targets and programs, src/'s text."""

    SKIP_DIRS = {".git", "third_party", "node_modules", "consumer"}

    def __init__(self, root):
        self.root = root
        self.targets, self.programs = set(), {}  # programs: path in the build -> info
        cmake_files = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d not in self.SKIP_DIRS and
                           not (Path(dirpath) == root and d.startswith("build"))]
            cmake_files += [Path(dirpath) / f for f in filenames
                            if f == "CMakeLists.txt" or f.endswith(".cmake")]
        for path in sorted(cmake_files):
            self.read_cmake(path)
        self.src_text = "\n".join(p.read_text(encoding="utf-8", errors="replace")
                                  for p in sorted((root / "src").rglob("*"))
                                  if p.is_file() and p.suffix in (".cpp", ".hpp", ".h", ".c"))
        self.build_trees = build_trees((root / "scripts/build.sh").read_text(encoding="utf-8"))

    def read_cmake(self, path):
        text = re.sub(r"#[^\n]*", "", path.read_text(encoding="utf-8"))
        here = path.parent.relative_to(self.root).as_posix()
        here = "" if here == "." else here
        lists = {m.group(1): m.group(2).split() for m in
                 re.finditer(r"\bset\(\s*(\w+)\s+([^)]*)\)", text)}
        loops = {}
        for m in re.finditer(r"\bforeach\(\s*(\w+)\s+([^)]*)\)", text):
            items = []
            for item in m.group(2).split():
                ref = re.fullmatch(r"\$\{(\w+)\}", item)
                items += lists.get(ref.group(1), []) if ref else [item]
            loops[m.group(1)] = items

        def names(spelled):
            ref = re.search(r"\$\{(\w+)\}", spelled)
            if not ref:
                return [spelled]
            return [spelled.replace(ref.group(0), v) for v in loops.get(ref.group(1), [])]

        for m in re.finditer(r"\badd_(executable|library|custom_target)\(\s*([^\s)]+)([^)]*)\)",
                             text):
            for name in names(m.group(2)):
                self.targets.add(name)
                if m.group(1) != "executable":
                    continue
                props = re.search(r"\bset_target_properties\(\s*" + re.escape(name) +
                                  r"\s+PROPERTIES([^)]*)\)", text)
                props = props.group(1) if props else ""
                output = re.search(r"\bOUTPUT_NAME\s+(\S+)", props)
                top = re.search(r"\bRUNTIME_OUTPUT_DIRECTORY\s+\$\{CMAKE_BINARY_DIR\}", props)
                where = "" if top else here
                program = "/".join(p for p in (where, output.group(1) if output else name) if p)
                sources = [path.parent / s for s in m.group(3).split() if "$" not in s]
                sources = [s for s in sources if s.is_file()]
                if not sources and (path.parent / name).is_dir():
                    sources = sorted((path.parent / name).glob("*.cpp"))
                links = re.search(r"\btarget_link_libraries\(\s*" + re.escape(name) +
                                  r"\s([^)]*)\)", text)
                self.programs[program] = {
                    "target": name, "sources": sources,
                    "benchmark": bool(links and "benchmark::" in links.group(1))}


def build_trees(build_sh):
    """The trees scripts/build.sh makes: build/KIND, or the dir= a kind's case sets."""
    trees = set()
    for block in re.findall(r"\bcase\b.*?\bin\b(.*?)\besac\b", build_sh, re.S):
        for m in re.finditer(r"^\s*([\w.\-]+(?:\s*\|\s*[\w.\-]+)*)\s*\)(.*?);;", block,
                             re.M | re.S):
            own = re.search(r'\bdir="\$root/build/([\w.-]+)"', m.group(2))
            trees |= {own.group(1)} if own else {w.strip() for w in m.group(1).split("|")}
    return trees


def case_labels(script):
    labels = set()
    for block in re.findall(r"\bcase\b.*?\bin\b(.*?)\besac\b", script, re.S):
        for m in re.finditer(r"^\s*\(?\s*([\w.\-]+(?:\s*\|\s*[\w.\-]+)*)\s*\)", block, re.M):
            labels |= {w.strip() for w in m.group(1).split("|")}
    return labels


def check_script(tree, assignments, words):
    path = words[0][2:] if words[0].startswith("./") else words[0]
    script = tree.root / path
    if not script.is_file():
        return [f"{path}: no such script"]
    if not os.access(script, os.X_OK):
        return [f"{path} is not executable"]
    text = script.read_text(encoding="utf-8")
    known = case_labels(text)
    for m in re.finditer(r"\b\w+=\(([^)]*)\)", text):
        known |= set(m.group(1).split())
    problems = []
    for n, arg in enumerate(words[1:], 1):
        if not re.search(r"\$\{?" + str(n) + r"(?!\d)", text):
            problems.append(f"{path} does not read argument {n} ('{arg}')")
        elif not re.match(r"^(\d+|[/~.$].*)$", arg) and arg not in known:
            problems.append(f"{path} knows no '{arg}' (not a case label or array element in it)")
    for a in assignments:
        var = a.split("=")[0]
        if not re.search(r"\b" + var + r"\b", text):
            problems.append(f"{path} does not read {var}")
    return problems


def check_cmake(tree, words):
    if len(words) < 3 or words[1] != "--build":
        return ["a cmake command other than `cmake --build DIR --target T`: map it or check it"]
    problems = check_build_dir(tree, words[2])
    i = 3
    while i < len(words):
        w = words[i]
        if w in ("--target", "-t"):
            i += 1
            while i < len(words) and not words[i].startswith("-"):
                if words[i] not in tree.targets:
                    problems.append(f"no CMake target '{words[i]}' (not added in a CMakeLists.txt)")
                i += 1
            continue
        if w in ("-j", "--parallel", "--config"):
            i += 2
            continue
        if not (w.startswith("-j") or w == "--clean-first"):
            problems.append(f"`cmake --build` option '{w}' is not one this test knows")
        i += 1
    return problems


def check_build_dir(tree, d):
    m = re.fullmatch(r"build/([\w.-]+)/?", d)
    if not m or m.group(1) not in tree.build_trees:
        return [f"'{d}' is not a tree scripts/build.sh makes (one of build/"
                f"{', build/'.join(sorted(tree.build_trees))})"]
    return []


def check_program(tree, words):
    m = re.fullmatch(r"(build/[\w.-]+)/(.+)", words[0])
    if not m:
        return [f"'{words[0]}' is not build/KIND/PROGRAM"]
    problems = check_build_dir(tree, m.group(1))
    program = tree.programs.get(m.group(2))
    if program is None:
        return problems + [f"the build makes no program {m.group(2)} (no add_executable there)"]
    sources = "\n".join(s.read_text(encoding="utf-8") for s in program["sources"])
    for word in words[1:]:
        if not word.startswith("--"):
            continue
        option, _, value = word.partition("=")
        if program["benchmark"] and option.startswith("--benchmark_"):
            if option not in GOOGLE_BENCHMARK_FLAGS:
                problems.append(f"'{option}' is not a Google Benchmark flag")
            elif option == "--benchmark_filter" and not any(
                    re.search(value, b) for b in re.findall(r"\bBENCHMARK\((\w+)\)", sources)):
                problems.append(f"--benchmark_filter={value} matches none of "
                                f"{program['target']}'s benchmarks")
        elif f'"{option}"' not in sources:
            problems.append(f"{program['target']} has no option {option} (not in its sources)")
    return problems


def check_variables(tree, line, assignments, for_command):
    problems, mapped = [], []
    for a in assignments:
        var = a.split("=")[0]
        used_later = re.search(r"\$\{?" + var + r"\b", "\n".join(line.after))
        if var.startswith("TOOLGUARD_"):
            if not re.search(r"\b" + var + r"\b", tree.src_text):
                problems.append(f"{var} is read nowhere in src/")
        elif var in MAPPED_VARIABLES:
            mapped.append(MAPPED_VARIABLES[var])
        elif not (used_later and not for_command):
            problems.append(f"{var}: not a TOOLGUARD_ variable, not used later in the block, and "
                            f"not in MAPPED_VARIABLES")
    return problems, mapped


def check_mapped(root, entry):
    what, test_file, marker = entry[-3:]
    path = root / test_file
    if not path.is_file() or marker not in path.read_text(encoding="utf-8"):
        return [f"MAPPED says {what}, but {test_file} no longer holds {marker!r}"]
    return []


class Context:
    def __init__(self, root, binary, tmp):
        self.root, self.binary, self.tmp = root, binary, tmp
        self.home = make_home(tmp / "shared")  # one home for the `toolguard` lines, in order
        self.help = Help(binary, isolated_env(self.home))
        self.tree = Tree(root)


def toolguard_line(ctx, line, assignments, words, alone):
    """Parses `toolguard WORDS` against --help; runs it where it can run on its own.
    Returns (problems, ran)."""
    words = words[:words.index("--") + 1] + ["COMMAND"] if "--" in words else words
    problems = check_parse(ctx.help, words)
    if (problems or line.notation or assignments or not concrete(words) or
            NOT_RUN.search(" ".join(words)) or NOT_RUN.search(line.text.split("toolguard")[0])):
        return problems, False
    if line.info in CONSOLE_INFOS and "|" in line.text:
        output = []
        for after in line.after:
            if after.strip().startswith("$ "):
                break
            output.append(after)
        shown = re.search(r'"verdict":\s*"(\w+)"', "\n".join(output))
        env = isolated_env(ctx.home)
        env["PATH"] = os.path.dirname(ctx.binary) + os.pathsep + env.get("PATH", "")
        r = run_bash(line.text, env, ctx.home / "work")
        try:
            got = json.loads(r.stdout).get("verdict") if r else None
        except ValueError:
            got = None
        if shown and got != shown.group(1):
            return [f"shows verdict {shown.group(1)}, the binary printed "
                    f"{(r.stdout + r.stderr).strip()[:300] if r else 'nothing in 30 s'}"], True
        return [], True
    if not alone:
        return problems, False
    problem = run_isolated(ctx.binary, words, ctx.home)
    return ([problem] if problem else []), True


def account(ctx, line):
    """Problems with one command line and how it was accounted for: run, checked or mapped."""
    problems = []
    if not line.notation or concrete(line.text.split()):
        r = subprocess.run(["bash", "-n", "-c", line.text], capture_output=True, text=True)
        if r.returncode != 0:
            problems.append(f"bash -n: {r.stderr.strip()[:200]}")
    for pattern, runner in RUNNERS:
        if re.search(pattern, line.text):
            return problems + runner(ctx, line), "run"
    commands = simple_commands(line)
    how = "checked"
    for assignments, words in commands:
        is_toolguard = bool(words) and words[0] == "toolguard"
        if words and words[0] == "export":
            assignments, words = assignments + words[1:], []
        program, joined = (words[0] if words else ""), " ".join(words)
        is_script = program.startswith(("scripts/", "./scripts/"))
        if not is_script:  # a script's own variables are checked with the script
            found, mapped = check_variables(ctx.tree, line, assignments, bool(words))
            problems += found
            for entry in mapped:
                problems += check_mapped(ctx.root, entry)
                how = "mapped"
        if not words:
            continue
        entry = next((m for m in MAPPED if re.search(m[0], joined)), None)
        if is_toolguard:
            found, ran = toolguard_line(ctx, line, assignments, words[1:], len(commands) == 1)
            problems += found
            how = "run" if ran else how
        elif entry:
            problems += check_mapped(ctx.root, entry)
            how = "mapped"
        elif program in ("echo", "printf"):
            pass  # data for the command it pipes into
        elif is_script:
            problems += check_script(ctx.tree, assignments, words)
        elif program == "cmake":
            problems += check_cmake(ctx.tree, words)
        elif program.startswith("build/"):
            problems += check_program(ctx.tree, words)
        elif program == "$":
            problems.append("a `$ ` prompt outside a console block")
        else:
            problems.append(f"`{joined[:60]}` is not run, checked or mapped by this test "
                            f"(add a check, a RUNNERS entry or a MAPPED entry)")
        # What another program runs: `claude mcp add fs -- toolguard mcp ...`.
        if not is_toolguard and "--" in words:
            rest = words[words.index("--") + 1:]
            if rest and rest[0] == "toolguard":
                problems += toolguard_line(ctx, line, [], rest[1:], False)[0]
    return problems, how


# Agents' settings snippets.

def json_blocks(root):
    for path in doc_files(root):
        name = str(path.relative_to(root))
        lines = path.read_text(encoding="utf-8").split("\n")
        for m in re.finditer(r"^```json[^\n]*\n(.*?)^```", "\n".join(lines), re.M | re.S):
            number = "\n".join(lines).count("\n", 0, m.start()) + 2
            yield name, number, m.group(1)


def handlers(value):
    """The hook handlers (dicts with a `command`) of a settings file or a matcher group."""
    if isinstance(value, dict):
        if isinstance(value.get("hooks"), list):
            return [h for h in value["hooks"] if isinstance(h, dict) and "command" in h]
        return [h for v in value.values() for h in handlers(v)]
    if isinstance(value, list):
        return [h for v in value for h in handlers(v)]
    return []


def normalized(value):
    """The settings with a command's absolute path to toolguard written TOOLGUARD."""
    if isinstance(value, dict):
        out = {k: normalized(v) for k, v in value.items()}
        if isinstance(out.get("command"), str):
            out["command"] = re.sub(r"^/\S*/toolguard(?=\s)", "TOOLGUARD", out["command"])
        return out
    if isinstance(value, list):
        return [normalized(v) for v in value]
    return value


def check_settings_snippet(ctx, name, number, snippet, text):
    """Problems with a json block holding a toolguard hook, against what install writes."""
    runs = [h for h in handlers(snippet) if re.search(r"(^|/)toolguard\s", str(h["command"]))]
    if not runs:
        return None
    command = runs[0]["command"]
    if "--format claude" in command or '"PreToolUse"' in text:
        agent, event = "claude", "PreToolUse"
        mode = re.search(r"--mode (\w+)", command)
        options = ["--mode", mode.group(1) if mode else "tighten"]
    elif "--format gemini-hook" in command or '"BeforeTool"' in text:
        agent, event = "gemini", "BeforeTool"
        options = ["--agent-asks", "yes" if "--agent-asks" in command else "no"]
    else:
        return [f"{name}:{number}: a hook that runs toolguard for no agent install knows"]
    settings = ctx.tmp / f"settings-{len(list(ctx.tmp.glob('settings-*')))}.json"
    env = isolated_env(ctx.home)
    r = subprocess.run([ctx.binary, "install", agent, "--settings", str(settings), *options],
                       env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=30)
    if r.returncode != 0:
        return [f"{name}:{number}: `toolguard install {agent}` failed: {r.stderr.strip()[:300]}"]
    written = json.loads(settings.read_text(encoding="utf-8"))
    want = written if "hooks" in snippet and "matcher" not in snippet \
        else written["hooks"][event][0]
    if normalized(snippet) != normalized(want):
        return [f"{name}:{number}: this {agent} settings snippet is not what `toolguard install "
                f"{agent} {' '.join(options)}` writes (the path to toolguard aside, which must be "
                f"absolute); it writes:\n{json.dumps(want, indent=2)}"]
    return []


def check_mcp_snippet(ctx, name, number, snippet):
    problems = []
    servers = snippet.get("mcpServers", {}) if isinstance(snippet, dict) else {}
    for server in servers.values():
        if isinstance(server, dict) and re.search(r"(^|/)toolguard$", server.get("command", "")):
            args = server.get("args", [])
            args = args[:args.index("--") + 1] + ["COMMAND"] if "--" in args else args
            problems += [f"{name}:{number}: toolguard {' '.join(args)}: {p}"
                         for p in check_parse(ctx.help, args)]
    return problems


def main():
    root, binary = Path(sys.argv[1]).resolve(), os.path.abspath(sys.argv[2])
    failures, counts = [], {"run": 0, "checked": 0, "mapped": 0}
    parsed_inline, hook_snippets, mcp_snippets = 0, 0, 0
    with tempfile.TemporaryDirectory(prefix="toolguard-doc-lines-") as tmp:
        ctx = Context(root, binary, Path(tmp))
        if ctx.help.of([]) is None:
            print(f"{binary} --help fails", file=sys.stderr)
            sys.exit(1)
        for line in command_lines(root, failures):
            problems, how = account(ctx, line)
            counts[how] += 1
            failures += [f"{line.where}: {line.text[:120]}: {p}" for p in problems]
            if os.environ.get("VERBOSE"):
                print(f"{how:8} {line.where}: {line.text[:100]}")
        for name, number, words in inline_command_lines(root):
            words = own_words(words)
            parsed_inline += 1
            failures += [f"{name}:{number}: toolguard {' '.join(words)}: {p}"
                         for p in check_parse(ctx.help, words)]
        for name, number, text in json_blocks(root):
            if "toolguard" not in text:
                continue
            try:
                snippet = json.loads(text)
            except ValueError as e:
                if re.search(r'"(PreToolUse|BeforeTool|mcpServers|matcher)"', text):
                    failures.append(f"{name}:{number}: not valid JSON: {e}")
                continue
            found = check_settings_snippet(ctx, name, number, snippet, text)
            if found is not None:
                hook_snippets += 1
                failures += found
            if isinstance(snippet, dict) and "mcpServers" in snippet:
                mcp_snippets += 1
                failures += check_mcp_snippet(ctx, name, number, snippet)
    for f in failures:
        print(f, file=sys.stderr)
    total = sum(counts.values())
    print(f"{total} command lines: {counts['run']} run, {counts['checked']} checked, "
          f"{counts['mapped']} mapped to the test that covers them; {parsed_inline} inline "
          f"`toolguard` spans parsed against --help; {hook_snippets} agent settings snippets equal "
          f"to what install writes; {mcp_snippets} MCP server entries parsed; "
          f"{len(failures)} wrong")
    sys.exit(1 if failures or total == 0 else 0)


if __name__ == "__main__":
    main()
