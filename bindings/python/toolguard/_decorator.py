"""``guarded``: a decorator that judges each call of a Python function used
as an agent tool before its body runs."""
from __future__ import annotations

import asyncio
import functools
import inspect
from typing import Any, Awaitable, Callable, Dict, Optional, Tuple, TypeVar, cast

from ._guard import Decision, Guard, GuardError, StrPath, ToolAborted, ToolDenied, Verdict

__all__ = ["guarded", "raise_unless_allowed"]

F = TypeVar("F", bound=Callable[..., Any])

# A method's object or class, left out of the tool's arguments: only as the
# first parameter, and only when its value is not JSON data (a plain function
# whose first parameter is called `cls` still has it judged).
_SKIPPED = ("self", "cls")
_JSON_DATA = (str, int, float, bool, type(None), list, tuple, dict)


def raise_unless_allowed(decision: Decision) -> None:
    """Returns when ``decision`` allows the call; raises ToolAborted for abort
    and ToolDenied for deny or ask (nobody could approve it)."""
    if decision.verdict is Verdict.ALLOW:
        return
    if decision.verdict is Verdict.ABORT:
        raise ToolAborted(decision)
    raise ToolDenied(decision)


def guarded(guard: Guard, tool: Optional[str] = None, *, cwd: Optional[StrPath] = None,
            **context: Any) -> Callable[[F], F]:
    """Guards a function used as an agent tool named ``tool`` (default: the
    function's name). Each call's arguments become the tool's args by
    parameter name (defaults filled in; ``**kwargs`` merged, a name given
    twice raising GuardError; a method's ``self``/``cls`` left out) and are judged by ``guard`` (in ``cwd``, with ``context``)
    before the body runs:

    - allow: the body runs and its result is returned;
    - deny, or ask (the guard has no asker): ``ToolDenied`` is raised;
    - abort: ``ToolAborted`` is raised.

    Both carry ``.decision``; ``str(error)`` is the reason for the model.
    An ``async def`` function stays a coroutine function: its check runs in
    a thread (``asyncio.to_thread``), so an asker waiting for a person does
    not block the event loop.
    """

    def decorate(function: F) -> F:
        name = tool or function.__name__
        signature = inspect.signature(function)

        def tool_args(args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Dict[str, Any]:
            bound = signature.bind(*args, **kwargs)  # TypeError as the call itself would
            bound.apply_defaults()
            out: Dict[str, Any] = {}
            for index, (parameter, value) in enumerate(bound.arguments.items()):
                kind = signature.parameters[parameter].kind
                if kind is inspect.Parameter.VAR_KEYWORD:
                    for key, item in value.items():
                        if key in out:  # `def f(*command, **kw)` called with command=...
                            raise GuardError(f"argument {key!r} given twice to tool {name!r}")
                        out[key] = item
                elif kind is inspect.Parameter.VAR_POSITIONAL:
                    out[parameter] = list(value)
                elif not (index == 0 and parameter in _SKIPPED and
                          not isinstance(value, _JSON_DATA)):
                    out[parameter] = value
            return out

        if inspect.iscoroutinefunction(function):
            run_async = cast(Callable[..., Awaitable[Any]], function)

            @functools.wraps(function)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                call_args = tool_args(args, kwargs)
                decision = await asyncio.to_thread(guard.check, name, call_args, cwd=cwd,
                                                   **context)
                raise_unless_allowed(decision)
                return await run_async(*args, **kwargs)

            return cast(F, async_wrapper)

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            raise_unless_allowed(guard.check(name, tool_args(args, kwargs), cwd=cwd, **context))
            return function(*args, **kwargs)

        return cast(F, wrapper)

    return decorate
