#!/usr/bin/env python3
"""Fails when two source files of one unity-built target give the same name
to something file-local: a name declared directly in an anonymous namespace,
or declared `static` at namespace scope.

A unity build compiles several .cpp files as one translation unit. Two
file-local names that collide then either fail to compile (the same
signature twice) or, worse, become overloads of each other and a call in
one file may silently pick the other file's function. Giving each such name
a real (unique) name keeps the unity build's behaviour that of the plain
build. Also refused: `#define` in a .cpp file that is not #undef'd in the
same file, and `using namespace` at namespace scope other than the
literal-suffix namespaces, since both leak into the files after it.

Usage: scripts/check-unity-names.py [ROOT]
The groups of files that are unity-built together are listed in GROUPS.
"""
import collections
import glob
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))

# Each group is the source files one unity-built target compiles together
# (see cmake/build_speed.cmake and the CMakeLists that call it). Files kept
# out of unity batches (SKIP_UNITY_BUILD_INCLUSION) are listed in SKIPPED.
GROUPS = {
    "library": ["src/core", "src/engine", "src/policy", "src/paths", "src/shell_parse", "src/shell_unwrap",
                "src/commands", "src/rules", "src/schema",
                "src/approval", "src/audit", "src/registry", "src/chat", "src/agent", "src/llm",
                "src/mcp", "src/foreign_policy", "src/policy_loader", "src/guard", "src/json", "src/limits", "src/regex", "src/http"],
    "front": ["src/front", "src/command_line"],
    "command": ["src/cli"],
    "service": ["src/serve", "src/store"],
    "unit tests": ["tests/unit"],
    "e2e tests": ["tests/e2e"],
    "service tests": ["tests/serve"],
    "benchmarks": ["bench"],
    "security_demo example": ["examples/security_demo"],
    "guarded_agent example": ["examples/guarded_agent"],
}
SKIPPED = {"src/foreign_policy/gemini_toml.cpp", "src/cli/startup_arena.cpp", "src/http/http_helper_main.cpp",
           "src/serve/serve_main.cpp", "src/serve/http_server.cpp", "src/cli/static_lookups.cpp",
           "src/paths/user_database.cpp", "src/http/host_addresses.cpp",
           "bench/readme_table.cpp", "bench/mcp_echo_server.cpp", "bench/c_api_bench.cpp"}
# `using namespace toolguard` is allowed where every file of the target works
# with toolguard's names (tests, benchmarks): it is the same in each of them.
ALLOWED_USING_OUTSIDE_LIBRARY = {"toolguard", "toolguard::testing"}
ALLOWED_USING = {"std::literals", "std::string_literals", "std::string_view_literals",
                 "std::chrono_literals", "std::literals::string_literals"}

KEYWORDS = set("""alignas alignof asm auto bool break case catch char char8_t char16_t char32_t class
const consteval constexpr constinit const_cast continue decltype default delete do double
dynamic_cast else enum explicit export extern false final float for friend goto if inline int
long mutable namespace new noexcept nullptr operator override private protected public register
reinterpret_cast requires return short signed sizeof static static_assert static_cast struct
switch template this thread_local throw true try typedef typeid typename union unsigned using
virtual void volatile wchar_t while size_t""".split())

TOKEN = re.compile(r"""
    (?P<raw>R"(?P<delim>[^(\s]{0,16})\((?:.|\n)*?\)(?P=delim)")
  | (?P<str>"(?:\\.|[^"\\\n])*")
  | (?P<chr>'(?:\\.|[^'\\\n])+')
  | (?P<line_comment>//[^\n]*)
  | (?P<block_comment>/\*(?:.|\n)*?\*/)
  | (?P<pp>^[ \t]*\#(?:\\\n|[^\n])*)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<num>\d[\w.']*)
  | (?P<op>::|->|[{}()\[\];=<>,:*&~!+\-/%^|?.])
  | (?P<ws>\s+)
""", re.X | re.M)


def tokens(text):
    """The tokens of a C++ file that matter here: identifiers, punctuation and
    preprocessor lines (strings, characters and comments become placeholders)."""
    out = []
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            out.append(("op", text[pos]))
            pos += 1
            continue
        pos = m.end()
        kind = m.lastgroup
        if kind in ("ws", "line_comment", "block_comment"):
            continue
        if kind in ("raw", "str", "chr"):
            out.append(("lit", '""'))
        elif kind == "delim":
            out.append(("lit", '""'))
        else:
            out.append((kind, m.group(0)))
    return out


def declared_name(statement):
    """The name a namespace-scope declaration introduces, or None."""
    idents = []
    depth = 0
    for i, (kind, text) in enumerate(statement):
        if text == "<":
            depth += 1
        elif text == ">":
            depth = max(0, depth - 1)
        if depth:
            continue
        if kind == "ident" and text in ("struct", "class", "enum", "union") and i + 1 < len(statement):
            rest = [t for k, t in statement[i + 1:] if k == "ident" and t not in ("class", "struct", "final")]
            return rest[0] if rest else None
        if text == "using" and i + 2 < len(statement) and statement[i + 2][1] == "=":
            return statement[i + 1][1]
        if text in ("(", "=", "{", "[", ";") or (text == ":" and kind == "op"):
            break
        if kind == "ident" and text not in KEYWORDS:
            if i > 0 and statement[i - 1][1] == "operator":
                return None
            # X::name: a member or a namespace's function defined here,
            # declared (and named) elsewhere.
            idents.append(None if i > 0 and statement[i - 1][1] == "::" else text)
    return idents[-1] if idents else None


def file_local_names(path, allowed_using):
    """(names, problems): the file-local names of one .cpp file, and leaks
    (#define without #undef, using namespace at namespace scope)."""
    text = open(path, encoding="utf-8").read()
    toks = tokens(text)
    names = set()
    problems = []
    defined = []
    undefined = set()
    # A stack of block kinds: "anon", "ns" (a named namespace) or "other".
    stack = []
    statement = []
    i = 0
    while i < len(toks):
        kind, text_ = toks[i]
        if kind == "pp":
            m = re.match(r"\s*#\s*define\s+(\w+)", text_)
            if m:
                defined.append(m.group(1))
            m = re.match(r"\s*#\s*undef\s+(\w+)", text_)
            if m:
                undefined.add(m.group(1))
            i += 1
            continue
        at_namespace_scope = all(k != "other" for k in stack)
        if text_ == "namespace" and at_namespace_scope and (not statement or statement == ["<block>"]):
            j = i + 1
            while j < len(toks) and toks[j][1] not in ("{", ";", "="):
                j += 1
            if j < len(toks) and toks[j][1] == "{":
                stack.append("anon" if j == i + 1 else "ns")
                i = j + 1
                continue
        if text_ == "{":
            if at_namespace_scope and statement:
                record(statement, stack, names, problems, path, allowed_using)
                statement = ["<block>"]
            stack.append("other")
        elif text_ == "}":
            if stack:
                closed = stack.pop()
                if closed != "other":
                    statement = []
            if all(k != "other" for k in stack) and statement == ["<block>"]:
                # The end of a definition's body; a following ';' ends it too.
                statement = []
        elif text_ == ";":
            if at_namespace_scope and statement and statement != ["<block>"]:
                record(statement, stack, names, problems, path, allowed_using)
            if at_namespace_scope:
                statement = []
        elif at_namespace_scope:
            if statement == ["<block>"]:
                statement = []
            statement.append((kind, text_))
        i += 1
    for name in defined:
        if name not in undefined and not name.startswith("TOML_"):
            problems.append(f"{path}: #define {name} is not #undef'd in the file: it leaks into the next file of a unity batch")
    return names, problems


def record(statement, stack, names, problems, path, allowed_using):
    words = [t for _, t in statement if isinstance(t, str)]
    if words[:2] == ["using", "namespace"]:
        target = "".join(words[2:])
        if target not in allowed_using:
            problems.append(f"{path}: 'using namespace {target}' at namespace scope leaks into the next file of a unity batch")
        return
    file_local = (stack and stack[-1] == "anon") or (words and words[0] == "static")
    if words[:1] in (["static_assert"], ["friend"]):
        return
    toks = [s for s in statement if isinstance(s, tuple)]
    # A macro's expansion (TEST(...), INSTANTIATE_TEST_SUITE_P(...)): gtest
    # makes its names unique itself.
    if toks and toks[0][0] == "ident" and toks[0][1].isupper() and len(toks) > 1 and toks[1][1] == "(":
        return
    # An alias (`using json = nlohmann::json;`, `namespace fs = std::filesystem;`)
    # may be declared again for the same type; another type is a compile error.
    if words[:1] == ["using"] or words[:1] == ["namespace"]:
        return
    name = declared_name(toks)
    if name:
        names.add((name, bool(file_local)))


def main():
    status = 0
    # Names the project's headers declare at namespace scope: a file-local
    # name equal to one of them would hide it from the files after it in a
    # batch (from inside their anonymous namespaces, lookup finds the
    # nearer, file-local one first).
    header_names = collections.defaultdict(list)
    for pattern in ("src/**/*.hpp", "include/toolguard/*.hpp", "tests/**/*.hpp", "bench/*.hpp",
                    "examples/**/*.hpp"):
        for path in sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True)):
            names, _ = file_local_names(path, ALLOWED_USING | ALLOWED_USING_OUTSIDE_LIBRARY)
            for name, _local in names:
                header_names[name].append(os.path.relpath(path, ROOT))
    for group, folders in GROUPS.items():
        local = collections.defaultdict(list)
        declared = collections.defaultdict(list)
        for folder in folders:
            for path in sorted(glob.glob(os.path.join(ROOT, folder, "*.cpp"))):
                rel = os.path.relpath(path, ROOT)
                if rel in SKIPPED:
                    continue
                allowed = ALLOWED_USING
                if not folder.startswith("src/"):
                    allowed = ALLOWED_USING | ALLOWED_USING_OUTSIDE_LIBRARY
                names, problems = file_local_names(path, allowed)
                for p in problems:
                    print(p.replace(ROOT + "/", ""))
                    status = 1
                for name, is_local in names:
                    declared[name].append(rel)
                    if is_local:
                        local[name].append(rel)
        for name, files in sorted(local.items()):
            others = sorted(set(declared[name]) - {files[0]}) if len(files) == 1 else sorted(set(declared[name]))
            if len(set(declared[name])) > 1:
                print(f"{group}: the file-local name '{name}' is also declared in another file of the "
                      f"target: {', '.join(sorted(set(declared[name])))}")
                status = 1
            elif name in header_names:
                print(f"{group}: the file-local name '{name}' ({files[0]}) is also declared in "
                      f"{', '.join(sorted(set(header_names[name])))}")
                status = 1
    if status == 0:
        print("check-unity-names: no file-local name of a unity-built target is declared anywhere else in it")
    return status


if __name__ == "__main__":
    sys.exit(main())
