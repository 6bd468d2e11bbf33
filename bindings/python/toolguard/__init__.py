"""toolguard for Python: decides whether an LLM agent's tool call is allowed,
asked, denied or aborted, through toolguard's C API (libtoolguard_c.so).

    import toolguard
    with toolguard.Guard(user=False, project=False) as guard:
        decision = guard.check("Bash", {"command": "git status"}, cwd="/workspace")
        print(decision.verdict, decision.reason)

See README.md for the API, the asker and the ``guarded`` decorator.
"""
from ._capi import library_path
from ._decorator import guarded, raise_unless_allowed
from ._guard import (Asker, Decision, Guard, GuardError, StrPath, ToolAborted, ToolBlocked,
                     ToolDenied, ToolguardError, Verdict, backend, c_library_version)

__version__ = "0.1.0"

__all__ = [
    "Asker", "Decision", "Guard", "GuardError", "StrPath", "ToolAborted", "ToolBlocked",
    "ToolDenied", "ToolguardError", "Verdict", "backend", "c_library_version", "guarded",
    "library_path", "raise_unless_allowed",
]
