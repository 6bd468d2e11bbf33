"""Every corpus call judged through the binding gives the C++ engine's
verdict, rule and reason (both through check() and check_call())."""
from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import Any, Dict, Iterator, List

import toolguard
from conftest import builtin_options

# Paths are resolved in the judging process, so a few reasons name its own
# /proc entries (`cat /proc/self/environ` -> /proc/PID/environ, /dev/stdin
# -> /proc/PID/fd/pipe:[INODE]): those numbers differ between the engine's
# process and this one, and are compared as placeholders.
_PROCESS_NUMBERS = [(re.compile(r"/proc/\d+/"), "/proc/PID/"),
                    (re.compile(r"pipe:\[\d+\]"), "pipe:[INODE]")]


def _normalized(reason: Any) -> Any:
    if not isinstance(reason, str):
        return reason
    for pattern, placeholder in _PROCESS_NUMBERS:
        reason = pattern.sub(placeholder, reason)
    return reason


@contextlib.contextmanager
def _stdin_is_a_pipe() -> Iterator[None]:
    """fd 0 a pipe while judging, as it was for `toolguard check --batch`
    (the corpus names /dev/stdin, which the engine resolves)."""
    read_end, write_end = os.pipe()
    saved = os.dup(0)
    os.dup2(read_end, 0)
    try:
        yield
    finally:
        os.dup2(saved, 0)
        for fd in (saved, read_end, write_end):
            os.close(fd)


def _compare(name: str, how: str, decision: toolguard.Decision, expected: Dict[str, Any],
             mismatches: List[str]) -> None:
    got = {"verdict": decision.verdict.value, "rule": decision.rule,
           "reason": _normalized(decision.reason)}
    want = {"verdict": expected["verdict"], "rule": expected["rule"],
            "reason": _normalized(expected["reason"])}
    if got != want:
        mismatches.append(f"{name} ({how}): got {got}, expected {want}")


def test_corpus_matches_the_engine(corpus: List[Dict[str, Any]], home: Path) -> None:
    mismatches: List[str] = []
    with toolguard.Guard(**builtin_options(home)) as guard, _stdin_is_a_pipe():
        for case in corpus:
            call, expected = case["call"], case["expected"]
            _compare(case["name"], "check_call", guard.check_call(call), expected, mismatches)
            decision = guard.check(call["tool"], call["args"], **call["context"])
            _compare(case["name"], "check", decision, expected, mismatches)
    assert not mismatches, (f"{len(mismatches)} mismatches ({len(corpus)} cases):\n"
                            + "\n".join(mismatches))
