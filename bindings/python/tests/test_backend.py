"""The backend asked for is the one used, and the native helper writes the
same call JSON as Python's json module (a wrong escape could change a call)."""
from __future__ import annotations

import json
import os
from typing import Any

import pytest

import toolguard
from toolguard import _guard

TRICKY_STRINGS = [
    "", "plain", 'a "quoted" word', "back\\slash\\", "\\\"", "line\nbreak\r\ttab",
    "\x00\x01\x1f\x7f", "\b\f", "naïve café", "日本語", "emoji 🚀", "\u2028\u2029",
    '"}, "tool": "Read', "\\u0022",
]

TRICKY_VALUES: list = [
    {"s": s} for s in TRICKY_STRINGS
] + [
    {"n": 0, "neg": -5, "big": 2**63 - 1, "bigger": 2**70, "t": True, "f": False, "none": None},
    {"float": 1.5, "nan": 1e308},
    {"list": [1, "a", [], {}], "tuple": (1, 2), "nested": {"a": {"b": {"c": ["d"]}}}},
    {1: "int key"},
    {"surrogate": "\ud800"},
]


def test_backend_is_the_one_asked_for() -> None:
    asked = os.environ.get("TOOLGUARD_PYTHON_NATIVE")
    if asked == "0":
        assert toolguard.backend == "ctypes"
    elif asked:
        assert toolguard.backend == "pybind11"
    assert toolguard.backend in ("ctypes", "pybind11")


@pytest.mark.skipif(_guard._native is None, reason="no native helper")
@pytest.mark.parametrize("value", TRICKY_VALUES)
def test_native_json_is_pythons(value: Any) -> None:
    text = _guard._native.encode(value)
    if text is None:  # left to Python's json module
        return
    assert json.loads(text) == json.loads(json.dumps(value))


@pytest.mark.skipif(_guard._native is None, reason="no native helper")
def test_native_leaves_what_it_does_not_know_to_python() -> None:
    for value in ({"f": 1.5}, {1: "a"}, {"big": 2**70}, {"s": "\ud800"}, {"o": object()}):
        assert _guard._native.encode(value) is None
    deep: Any = []
    for _ in range(100):
        deep = [deep]
    assert _guard._native.encode(deep) is None


@pytest.mark.parametrize("value", TRICKY_VALUES[:-1])
def test_check_and_check_call_agree(guard: toolguard.Guard, value: Any) -> None:
    by_check = guard.check("some_tool", value, cwd="/workspace")
    by_text = guard.check_call(json.dumps({"tool": "some_tool", "args": value,
                                           "context": {"cwd": "/workspace"}}))
    assert by_check.raw["approval_key"] == by_text.raw["approval_key"]
    assert by_check == by_text
