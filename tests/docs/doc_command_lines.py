#!/usr/bin/python3
"""Fails unless every `toolguard ...` command line in README.md and docs/ is one
the real binary accepts: each is parsed against the binary's own --help (its
sub-commands exist where they are named, its options exist for the command
they are given to), and each one that can run on its own is run, in an
isolated home, and must not be refused as a usage error. A console block's
`$ ... | toolguard check` whose shown output has a verdict is run through bash
and must print that verdict.

Where command lines are found: the lines of fenced blocks (sh, bash, console,
text, or none) that run `toolguard` (at the start, after `$ `, after VAR=value
assignments or after a pipe), continued lines joined; and inline code spans
that begin with `toolguard `. Synopsis notation is read as such: [optional],
a|b and a/b alternatives, ... and … are skipped.

Usage: doc_command_lines.py SOURCE_DIR TOOLGUARD_BINARY
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

SHELL_INFOS = {"", "sh", "bash", "shell", "console", "text"}
# Words after which the toolguard part of a line ends.
OPERATORS = {"|", "||", "&&", ";", "&", "<", ">", ">>", "2>", "2>&1", "#", "\\"}
# What CLI11 and toolguard say about a command line they refuse.
USAGE_ERRORS = re.compile(r"unknown option|unknown command|were not expected|is required|"
                          r"Run with --help|The following argument|requires at least|"
                          r"Could not convert|not in \{|is not a valid|A subcommand is required")
# Command lines that start a server, wait for a person or a network, or follow
# a file forever: parsed, never run.
NOT_RUN = re.compile(r"^(mcp\b|serve(?!\s+token\s+(add|list|revoke)\b)|audit tail.*(-f|--follow))|"
                     r"--server|--wait|postgres(ql)?://|\$|~|<|TOOLGUARD_SERVER")
SAMPLE_CALL = '{"tool":"Read","args":{"file_path":"README.md"}}\n'


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


def command_lines(root):
    """(file, line number, words after `toolguard`, the block's info, the whole line)."""
    files = [root / "README.md", *sorted((root / "docs").glob("*.md")),
             *sorted((root / "docs").glob("*/*.md"))]
    for path in files:
        name = str(path.relative_to(root))
        lines = path.read_text(encoding="utf-8").split("\n")
        fence, info, i = None, "", 0
        while i < len(lines):
            stripped = lines[i].strip()
            number = i + 1
            if re.match(r"^(```|~~~)", stripped):
                if fence is None:
                    fence, info = stripped[:3], stripped[3:].strip().split(" ")[0].lower()
                elif stripped.startswith(fence):
                    fence = None
                i += 1
                continue
            if fence is None:
                i += 1
                continue
            text = lines[i]
            while text.rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text.rstrip()[:-1] + " " + lines[i].strip()
            i += 1
            if info not in SHELL_INFOS:
                continue
            if info == "console":
                if not text.lstrip().startswith("$ "):
                    continue
                text = text.lstrip()[2:]
            text = re.sub(r"^\s*\$ ", "", text)
            # A text block is a synopsis (a|b alternatives), not shell.
            words = text.split() if info == "text" else shell_words(text)
            for at, word in enumerate(words):
                before = words[:at]
                starts = not before or before[-1] in {"|", "&&", ";", "||"} or all(
                    re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w) for w in before)
                if word == "toolguard" and starts:
                    yield name, number, words[at + 1:], info, text.strip()
                    break


def inline_command_lines(root):
    """Inline code spans that begin with `toolguard `, also those a line break splits."""
    for path in [root / "README.md", *sorted((root / "docs").glob("*.md")),
                 *sorted((root / "docs").glob("*/*.md"))]:
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
            yield name, text.count("\n", 0, m.start()) + 1, span.split()[1:], "inline", span


def shell_words(text):
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars="|&;<>")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        return list(lexer)
    except ValueError:  # synopsis text with an odd quote
        return text.split()


def own_words(words):
    """The words of the toolguard command itself, up to an operator or comment."""
    out = []
    for word in words:
        if word in OPERATORS or word.startswith("#"):
            break
        out.append(word)
    return out


def alternatives(word):
    """`[--follow]|query` -> --follow, query; `--format=a|b` -> --format=a|b (values)."""
    word = word.strip("[](){}")
    if word.startswith("-") and "=" in word:
        return [word]
    names = (w.strip("[](){}") for w in re.split(r"[|/]", word))
    return [w for w in names if w and w not in ("...", "…")]


def check_parse(help, words):
    """Problems with the command line as the binary's help describes it."""
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


def run_isolated(binary, words, home):
    env = isolated_env(home)
    stdin = SAMPLE_CALL if words and words[0] in ("check", "explain") else ""
    try:
        r = subprocess.run([binary, *words], input=stdin, capture_output=True, text=True,
                           env=env, cwd=home / "work", timeout=30)
    except subprocess.TimeoutExpired:
        return "did not finish within 30 s"
    if USAGE_ERRORS.search(r.stderr) or USAGE_ERRORS.search(r.stdout[:2000]):
        return f"refused as a usage error (exit {r.returncode}): {r.stderr.strip()[:300]}"
    return None


def isolated_env(home):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLGUARD_")}
    env.update({"HOME": str(home / "home"), "TOOLGUARD_HOME": str(home / "home" / ".toolguard"),
                "TOOLGUARD_CONFIG_DIR": str(home / "user"),
                "TOOLGUARD_MANAGED_DIR": str(home / "managed"), "XDG_CONFIG_HOME": ""})
    return env


def shown_verdict(root, name, number):
    """The verdict a console block shows after the command on `number`, if any."""
    lines = (root / name).read_text(encoding="utf-8").split("\n")[number - 1:]
    shown = []
    for line in lines[1:]:
        if line.strip().startswith(("$ ", "```")):
            break
        shown.append(line)
    m = re.search(r'"verdict":\s*"(\w+)"', "\n".join(shown))
    return m.group(1) if m else None


def main():
    root, binary = Path(sys.argv[1]), os.path.abspath(sys.argv[2])
    failures, parsed, ran = [], 0, 0
    with tempfile.TemporaryDirectory(prefix="toolguard-doc-lines-") as tmp:
        home = Path(tmp)
        for d in ("home", "user", "managed", "work"):
            (home / d).mkdir()
        help = Help(binary, isolated_env(home))
        if help.of([]) is None:
            print(f"{binary} --help fails", file=sys.stderr)
            sys.exit(1)
        for name, number, words, info, text in [*command_lines(root), *inline_command_lines(root)]:
            words = own_words(words)
            where = f"{name}:{number}: toolguard {' '.join(words)}"
            problems = check_parse(help, words)
            parsed += 1
            failures += [f"{where}: {p}" for p in problems]
            if problems or info in ("inline", "text") or not concrete(words) or NOT_RUN.search(
                    " ".join(words)) or NOT_RUN.search(text.split("toolguard", 1)[0]):
                continue
            ran += 1
            if os.environ.get("VERBOSE"):
                print(f"run {where}")
            if info == "console" and "|" in text:
                verdict = shown_verdict(root, name, number)
                env = isolated_env(home)
                env["PATH"] = os.path.dirname(binary) + os.pathsep + env.get("PATH", "")
                r = subprocess.run(["bash", "-c", text], capture_output=True, text=True, env=env,
                                   cwd=home / "work", timeout=30)
                try:
                    got = json.loads(r.stdout).get("verdict")
                except ValueError:
                    got = None
                if verdict and got != verdict:
                    failures.append(f"{where}: shows verdict {verdict}, the binary printed "
                                    f"{r.stdout.strip()[:300]} {r.stderr.strip()[:300]}")
                continue
            problem = run_isolated(binary, words, home)
            if problem:
                failures.append(f"{where}: {problem}")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"{parsed} command lines parsed against --help, {ran} run; {len(failures)} wrong")
    sys.exit(1 if failures or parsed == 0 else 0)


if __name__ == "__main__":
    main()
