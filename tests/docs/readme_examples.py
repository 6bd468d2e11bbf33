#!/usr/bin/python3
"""Fails unless README.md shows each binding's example file verbatim, as one
fenced block, so the examples the README shows are the ones the tests run
(examples/c_api/example.c, bindings/*/example.*).

Usage: readme_examples.py SOURCE_DIR
"""
import re
import sys
from pathlib import Path

EXAMPLES = [
    "examples/c_api/example.c",
    "bindings/node/example.mjs",
    "bindings/python/example.py",
    "bindings/go/example/main.go",
]


def fenced_blocks(markdown):
    return [m.group(1) for m in re.finditer(r"^```[a-z]*\n(.*?)^```", markdown, re.M | re.S)]


def main():
    root = Path(sys.argv[1])
    blocks = fenced_blocks((root / "README.md").read_text(encoding="utf-8"))
    missing = [name for name in EXAMPLES
               if (root / name).read_text(encoding="utf-8") not in blocks]
    for name in missing:
        print(f"README.md: no fenced block equals {name}; copy the file into it", file=sys.stderr)
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
