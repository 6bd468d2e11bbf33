#!/usr/bin/python3
"""Times one decision through the binding: ns per ``guard.check`` of
``Bash {"command": "git status"}`` in /workspace on the built-in policy (the
best of several timeit runs), and, to show where the time goes, the same
call through ``check_call`` and through the bare C function via ctypes.
The binding's own cost is guard.check's time minus the C++ decision's
(measured in C/C++); with TOOLGUARD_PYTHON_NATIVE=0 it times ctypes alone.

Usage: PYTHONPATH=bindings/python TOOLGUARD_C_LIBRARY=build/release/libtoolguard_c.so \
         /usr/bin/python3 bindings/python/bench.py [CALLS_PER_RUN]
"""
from __future__ import annotations

import ctypes
import json
import sys
import tempfile
import timeit
from typing import Callable

import toolguard
from toolguard import _capi


def best_ns(function: Callable[[], object], number: int, repeat: int = 7) -> float:
    """The best run's ns per call."""
    function()  # warm up (loads the policy's caches)
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number * 1e9


def main() -> None:
    number = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    with tempfile.TemporaryDirectory() as home, toolguard.Guard(
            user=False, project=False, managed=False, audit=False, home=home) as guard:
        args = {"command": "git status"}
        call = {"tool": "Bash", "args": args, "context": {"cwd": "/workspace"}}
        text = json.dumps(call, separators=(",", ":")).encode()
        assert guard.check("Bash", args, cwd="/workspace").verdict == "allow"

        lib, handle = _capi.lib, guard._handle  # the floor: the C call alone
        error = _capi.ErrorPtr()

        def bare_c() -> None:
            lib.tg_decision_free(lib.tg_guard_decide(handle, text, len(text), ctypes.byref(error)))

        results = {
            "guard.check(tool, args, cwd=...)": best_ns(
                lambda: guard.check("Bash", args, cwd="/workspace"), number),
            "guard.check_call(dict)": best_ns(lambda: guard.check_call(call), number),
            "guard.check_call(JSON bytes)": best_ns(lambda: guard.check_call(text), number),
            "bare tg_guard_decide + tg_decision_free (ctypes)": best_ns(bare_c, number),
        }
    print(f"backend: {toolguard.backend} ({toolguard.library_path})")
    width = max(map(len, results))
    for name, ns in results.items():
        print(f"{name:<{width}}  {ns:8.0f} ns/call")


if __name__ == "__main__":
    main()
