"""The guard: ``Guard``, its ``Decision`` and the exceptions, over the C API
(libtoolguard_c.so, loaded by ``_capi``)."""
from __future__ import annotations

import enum
import json
import json.encoder
import os
import threading
from dataclasses import dataclass, field
from datetime import timedelta
from typing import (Any, Callable, Dict, List, Mapping, Optional, Sequence, Union)

from . import _capi
from ._capi import AskFn, ErrorPtr, lib, quick, take_error

__all__ = [
    "Asker", "Decision", "Guard", "GuardError", "StrPath", "ToolAborted", "ToolBlocked",
    "ToolDenied", "ToolguardError", "Verdict", "backend", "c_library_version",
]

#: A path given as text or as an ``os.PathLike`` (``pathlib.Path``).
StrPath = Union[str, "os.PathLike[str]"]

#: Who is asked when a call needs approval: gets the request (``{"call",
#: "decision", "options", "scopes", "timeout_ms"}``) and returns the answer
#: (``{"outcome": "allow-once"|"always-allow"|"deny", "option": int, "scope":
#: str, "reason": str}``, or just the outcome as a string).
Asker = Callable[[Dict[str, Any]], Union[Mapping[str, Any], str]]


class ToolguardError(Exception):
    """The base of every exception this package raises."""


class GuardError(ToolguardError):
    """The C API failed: bad options (the message names the field), a policy
    file that does not load (file, line, column), a closed guard, a call that
    cannot be written as JSON."""


class Verdict(str, enum.Enum):
    """A decision's final verdict; equal to its text (``Verdict.ALLOW == "allow"``)."""

    ALLOW = "allow"
    ASK = "ask"  #: only from a guard without an asker: the caller asks its user
    DENY = "deny"
    ABORT = "abort"  #: deny, and stop the agent

    def __str__(self) -> str:
        return self.value


# tg_verdict's values; anything else fails closed (deny).
_VERDICTS = {0: Verdict.ALLOW, 2: Verdict.ASK, 3: Verdict.DENY, 4: Verdict.ABORT}
_json_lock = threading.Lock()  # tg_decision_json renders on first use: one thread at a time


class _DecisionSource:
    """Owns a ``tg_decision`` (freed with tg_decision_free when collected) and
    renders its whole JSON on first use."""

    __slots__ = ("_ptr", "_json")

    def __init__(self, ptr: Optional[int], json_text: Optional[str] = None) -> None:
        self._ptr = ptr
        self._json = json_text

    def text(self) -> str:
        """The decision as JSON text (tg_decision_json)."""
        if self._json is None:
            with _json_lock:
                if self._json is None:
                    rendered = lib.tg_decision_json(self._ptr) if self._ptr else None
                    if rendered is None:
                        raise MemoryError("toolguard: the decision's JSON could not be rendered")
                    self._json = rendered.decode("utf-8", "replace")
        return self._json

    def __del__(self, _free: Callable[[int], None] = quick.tg_decision_free) -> None:
        ptr, self._ptr = self._ptr, None
        if ptr:
            _free(ptr)


@dataclass(frozen=True)
class Decision:
    """What the guard decided about one call.

    ``verdict`` is final (remembered approvals and the asker are applied);
    ``reason`` is for the person, ``model_reason`` for the model (it names the
    guard and the rule; empty when allowed); ``rule`` is the id of the
    deciding rule, None when no rule decided. ``json``/``raw`` give the whole
    decision as ``toolguard check`` prints it (source, basis, approval, ...).
    """

    verdict: Verdict
    reason: str
    model_reason: str
    rule: Optional[str]
    # What owns the C API's decision (freed when collected): internal.
    _source: Any = field(default=None, repr=False, compare=False)

    @property
    def allowed(self) -> bool:
        """True when the call may run."""
        return self.verdict is Verdict.ALLOW

    @property
    def json(self) -> str:
        """The whole decision as JSON text (rendered on first use)."""
        source = self._source
        if type(source) is _DecisionSource:
            return source.text()
        if source is not None:  # the native helper's capsule
            with _json_lock:
                text: str = _native.decision_json(source)
            return text
        return json.dumps({"verdict": self.verdict.value, "reason": self.reason,
                           "model_reason": self.model_reason, "rule": self.rule})

    @property
    def raw(self) -> Dict[str, Any]:
        """The whole decision as a dict (a new one on every access)."""
        result: Dict[str, Any] = json.loads(self.json)
        return result


class ToolBlocked(ToolguardError):
    """A guarded tool was not allowed to run. ``str()`` is the decision's
    model_reason (what the model should read); ``.decision`` is the Decision."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(decision.model_reason or decision.reason)
        self.decision = decision


class ToolDenied(ToolBlocked):
    """The call was denied (or needed approval and nobody could give it):
    tell the model (``str(error)``) and let the agent go on."""


class ToolAborted(ToolBlocked):
    """The call was aborted: a rule says the agent must stop altogether."""


def c_library_version() -> str:
    """The version of the loaded libtoolguard_c.so (tg_version)."""
    version: bytes = lib.tg_version()
    return version.decode()


def _unserializable(value: Any) -> Any:
    """The encoders' ``default``: what JSON cannot hold is an error."""
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# Compact ASCII JSON, as json.dumps(ensure_ascii=True, separators=(",", ":"))
# writes it: a lone surrogate stays an escape the C API rejects (a deny).
_encode_json = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"),
                                default=_unserializable).encode
_encode_string: Callable[[str], str] = json.encoder.encode_basestring_ascii
if json.encoder.c_make_encoder is not None:
    # CPython's C encoder made once, not once per call as json.dumps does;
    # no circular-reference markers (they could not be shared by threads):
    # a cycle ends in RecursionError.
    _c_encoder = json.encoder.c_make_encoder(None, _unserializable, _encode_string, None, ":",
                                             ",", False, False, True)

    def _encode_value(value: Any) -> str:
        return "".join(_c_encoder(value, 0))
else:  # pragma: no cover - not CPython
    _encode_value = _encode_json


def _option_paths(value: Any) -> Any:
    """A list of paths as a list of strings (other values as given: the C API
    names a mistyped option)."""
    if isinstance(value, (list, tuple)):
        return [os.fspath(v) if isinstance(v, os.PathLike) else v for v in value]
    return value


def _options_json(given: Mapping[str, Any]) -> str:
    """The options JSON of tg_guard_new: None values left out."""
    options: Dict[str, Any] = {}
    for name, value in given.items():
        if value is None:
            continue
        if name in ("policy_files", "profiles"):
            value = _option_paths(value)
        elif name in ("home", "cwd", "project_dir", "audit_log") and isinstance(value, os.PathLike):
            value = os.fspath(value)
        elif name == "approval_timeout":
            name = "approval_timeout_ms"
            seconds = value.total_seconds() if isinstance(value, timedelta) else value
            if isinstance(seconds, (int, float)) and not isinstance(seconds, bool):
                value = int(round(seconds * 1000))
        options[name] = value
    try:
        return json.dumps(options)
    except (TypeError, ValueError) as error:
        raise GuardError(f"options: {error}") from None


_DENY_ANSWER = b'{"outcome":"deny","reason":"the asker did not answer"}'


def _answer_text(answer: Union[Mapping[str, Any], str]) -> bytes:
    """The asker's answer as tg_ask_answer's JSON."""
    if isinstance(answer, str):
        answer = {"outcome": answer}
    if not isinstance(answer, Mapping):
        raise TypeError(f"the asker returned {type(answer).__name__}, not a dict")
    return json.dumps(dict(answer)).encode()


def _ask_callback(asker: Asker) -> Any:
    """The C asker (a ctypes callback, called with the GIL held) that asks
    ``asker`` and answers through tg_ask_answer exactly once; an exception
    (or an unreadable answer) denies the call, saying why."""

    def on_ask(_user_data: Optional[int], ask: Optional[int], request_json: Optional[bytes]) -> None:
        text = _DENY_ANSWER
        try:
            request = json.loads(request_json.decode("utf-8", "replace") if request_json else "{}")
            text = _answer_text(asker(request))
        except BaseException as error:  # noqa: B902 - anything: deny, never unanswered
            reason = f"the asker failed: {type(error).__name__}: {error}"
            text = json.dumps({"outcome": "deny", "reason": reason}).encode()
        error_ptr = ErrorPtr()
        if lib.tg_ask_answer(ask, text, error_ptr) != 0:
            # The C API denied the call already, its reason naming the field.
            take_error(error_ptr, "")

    return AskFn(on_ask)


class Guard:
    """A guard: a policy, the approvals remembered for it, its audit log and
    who is asked. Thread-safe: any number of threads may ``check`` at once.

    Options (each maps to the C API's option of the same name; a bad one
    raises GuardError naming it): ``policy_files`` (explicit policy files),
    ``profiles`` (ready-made profiles on top of the default), ``builtin``,
    ``user``, ``project``, ``managed`` (which policy layers load),
    ``project_dir``, ``home`` (approvals and audit log; default
    $TOOLGUARD_HOME, else ~/.toolguard), ``audit``, ``audit_log``,
    ``approval_timeout`` (seconds or a timedelta an ask waits; 0: no limit),
    ``cwd`` (of calls that name none), ``ask_server`` (``{"url", "token"}``),
    ``asker`` (see ``Asker``; None: an ask is returned as the verdict).
    """

    def __init__(
        self,
        *,
        policy_files: Optional[Sequence[StrPath]] = None,
        profiles: Optional[Sequence[str]] = None,
        builtin: bool = True,
        user: bool = True,
        project: bool = True,
        managed: bool = True,
        home: Optional[StrPath] = None,
        audit: bool = True,
        approval_timeout: Union[float, timedelta, None] = None,
        cwd: Optional[StrPath] = None,
        asker: Optional[Asker] = None,
        project_dir: Optional[StrPath] = None,
        audit_log: Optional[StrPath] = None,
        ask_server: Optional[Mapping[str, str]] = None,
    ) -> None:
        self._handle: Optional[int] = None
        self._lock = threading.Lock()  # frees the guard once
        # One item per check in C now (list.append/pop are atomic): close()
        # leaves the freeing to the last of them.
        self._running: List[None] = []
        self._closing = False
        self._asker_fn: Any = None  # the ctypes callback, kept alive while the guard lives
        if asker is not None and not callable(asker):
            raise GuardError("asker: must be callable")
        options = _options_json(dict(
            policy_files=policy_files, profiles=profiles, builtin=builtin, user=user,
            project=project, managed=managed, home=home, audit=audit,
            approval_timeout=approval_timeout, cwd=cwd, project_dir=project_dir,
            audit_log=audit_log, ask_server=dict(ask_server) if ask_server else None))
        error = ErrorPtr()
        handle = lib.tg_guard_new(options.encode(), error)
        if not handle:
            raise GuardError(take_error(error, "tg_guard_new failed"))
        self._handle = handle
        if asker is not None:
            self._asker_fn = _ask_callback(asker)
            lib.tg_guard_set_asker(handle, self._asker_fn, None)

    def check(self, tool: str, args: Optional[Mapping[str, Any]] = None, *,
              cwd: Optional[StrPath] = None, **context: Any) -> Decision:
        """Judges the call of ``tool`` with ``args`` made in ``cwd`` (default:
        the guard's cwd) and settles it (remembered approvals, the asker, the
        audit log). ``context``: agent, session, model, role, mode
        ("interactive"/"headless"), roots (extra workspace roots)."""
        if cwd is not None:
            context["cwd"] = cwd if type(cwd) is str else os.fspath(cwd)
        if args is None:
            args = {}
        if _native is not None and type(args) is dict:
            handle = self._enter()
            try:  # the native helper writes the JSON too, unless a value needs json's rules
                decision: Optional[Decision] = _native.check(handle, tool, args, context)
            finally:
                self._check_done()
            if decision is not None:
                return decision
        if type(tool) is str and type(args) is dict:
            # The same JSON as _encode({...}), in fewer steps: this is the hot path.
            try:
                text = '{"tool":%s,"args":%s,"context":%s}' % (
                    _encode_string(tool), _encode_value(args), _encode_value(context))
            except (TypeError, ValueError, RecursionError) as error:
                raise GuardError(f"the call cannot be written as JSON: {error}") from None
            return self._decide(text.encode("ascii"))
        if isinstance(args, Mapping):
            args = dict(args)
        return self._decide(_encode({"tool": tool, "args": args, "context": context}))

    def check_call(self, call: Union[Mapping[str, Any], str, bytes]) -> Decision:
        """Judges a whole call, ``{"tool", "args", "context"}`` (a dict, or its
        JSON text). A call that cannot be read is denied, the reason naming
        the field."""
        if isinstance(call, str):
            data = call.encode("utf-8", "surrogatepass")
        elif isinstance(call, (bytes, bytearray)):
            data = bytes(call)
        else:
            call = call if type(call) is dict else dict(call)
            if _native is not None:
                handle = self._enter()
                try:  # the native helper writes the JSON, unless a value needs json's rules
                    decision: Optional[Decision] = _native.check_call(handle, call)
                finally:
                    self._check_done()
                if decision is not None:
                    return decision
            data = _encode(call)
        return self._decide(data)

    def run_sandboxed(self, command: Sequence[str], *,
                      workspaces: Optional[Sequence[str]] = None,
                      cwd: Optional[str] = None,
                      rule: Optional[str] = None) -> int:
        """Runs ``command`` (a program and its arguments) for a tool where the
        kernel holds it, as ``toolguard sandbox`` does: writes only in
        ``workspaces`` (default: ``cwd``), secrets unreadable, the network as
        the policy's ``sandbox:`` section says, with what ``rule`` (the id
        of the rule that allowed the call) adds by its own ``sandbox:``. Waits for it and returns its
        exit status (128 + the signal's number when a signal ended it).
        Raises GuardError, running nothing, when the sandbox cannot be set
        up or this kernel cannot hold what the policy asks for."""
        request: Dict[str, Any] = {"command": list(command)}
        if workspaces is not None:
            request["workspaces"] = list(workspaces)
        if cwd is not None:
            request["cwd"] = cwd
        if rule is not None:
            request["rule"] = rule
        data = json.dumps(request).encode("utf-8")
        handle = self._enter()
        error = ErrorPtr()
        try:
            status = _run_sandboxed(handle, data, error)
        finally:
            self._check_done()
        if status < 0:
            raise GuardError(take_error(error, "tg_guard_run_sandboxed failed"))
        return int(status)

    def _enter(self) -> int:
        """The guard's handle, for one check in C (``_check_done`` after it)."""
        self._running.append(None)  # before reading the handle: close() then waits for us
        handle = self._handle
        if handle is None or self._closing:
            self._check_done()
            raise GuardError("the guard is closed")
        return handle

    def _decide(self, data: bytes) -> Decision:
        """tg_guard_decide on the call's JSON, its decision read through the
        accessors (by the native helper when there is one, else ctypes)."""
        handle = self._enter()
        if _native is not None:
            try:
                decision: Decision = _native.decide(handle, data)
            finally:
                self._check_done()
            return decision
        error = ErrorPtr()
        try:
            ptr = _decide(handle, data, len(data), error)
        finally:
            self._check_done()
        if not ptr:
            raise GuardError(take_error(error, "tg_guard_decide failed"))
        rule = _rule(ptr)
        decision = _new_decision(Decision)
        _set_attribute(decision, "__dict__", {
            "verdict": _VERDICTS.get(_verdict(ptr), Verdict.DENY),
            "reason": _reason(ptr).decode("utf-8", "replace"),
            "model_reason": _model_reason(ptr).decode("utf-8", "replace"),
            "rule": rule.decode("utf-8", "replace") if rule else None,
            "_source": _DecisionSource(ptr),  # frees the decision when collected
        })
        return decision

    def _check_done(self) -> None:
        """A check left C: the last one after close() frees the guard."""
        self._running.pop()
        if self._closing and not self._running:
            with self._lock:
                self._free()

    def tool(self, name: Optional[str] = None, *, cwd: Optional[StrPath] = None,
             **context: Any) -> Callable[[Any], Any]:
        """A decorator guarding a Python function used as an agent tool: see
        ``toolguard.guarded``."""
        from ._decorator import guarded

        return guarded(self, name, cwd=cwd, **context)

    def close(self) -> None:
        """Frees the guard (after the checks running now end). Idempotent;
        a check after close raises GuardError."""
        self._closing = True  # before looking at _running: see _decide
        if not self._running:
            with self._lock:
                self._free()

    def _free(self) -> None:
        """tg_guard_free, once (called with the lock held, or from __del__)."""
        handle, self._handle = self._handle, None
        if handle:
            lib.tg_guard_free(handle)
        self._asker_fn = None

    @property
    def closed(self) -> bool:
        """True once close() was called."""
        return self._closing or self._handle is None

    def __enter__(self) -> "Guard":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        # No check can be running: each holds a reference to the guard.
        if getattr(self, "_handle", None):
            self._free()

    def __repr__(self) -> str:
        return f"<toolguard.Guard {'closed' if self.closed else 'open'}>"


def _encode(call: Dict[str, Any]) -> bytes:
    """The call as compact ASCII JSON; GuardError when it cannot be written."""
    try:
        return _encode_json(call).encode("ascii")
    except (TypeError, ValueError, RecursionError) as error:
        raise GuardError(f"the call cannot be written as JSON: {error}") from None


_decide = lib.tg_guard_decide  # releases the GIL: it may take long and call the asker
_run_sandboxed = lib.tg_guard_run_sandboxed  # releases the GIL while the command runs
_verdict = quick.tg_decision_verdict
_reason = quick.tg_decision_reason
_model_reason = quick.tg_decision_model_reason
_rule = quick.tg_decision_rule
# A Decision made without its generated __init__ (the fields set at once): the
# hot path's saving; Decision(...) works as usual for everyone else.
_new_decision = object.__new__
_set_attribute = object.__setattr__


def _load_native() -> Any:
    """The native helper (toolguard._native, pybind11), set up on the
    library ctypes loaded, or None: then ctypes alone. Environment
    ``TOOLGUARD_PYTHON_NATIVE``: ``0`` for ctypes alone, or the helper's file
    (or a directory holding ``toolguard/_native.*.so``), which must load."""
    choice = os.environ.get("TOOLGUARD_PYTHON_NATIVE", "")
    if choice.lower() in ("0", "off", "no", "false"):
        return None
    if choice:
        import importlib.machinery
        import importlib.util

        path = choice
        if os.path.isdir(choice):
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                candidate = os.path.join(choice, "toolguard", "_native" + suffix)
                if os.path.exists(candidate):
                    path = candidate
                    break
        spec = importlib.util.spec_from_file_location("toolguard._native", path)
        if spec is None or spec.loader is None or not os.path.isfile(path):
            raise ImportError(f"toolguard: TOOLGUARD_PYTHON_NATIVE={choice}: no native helper there")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        try:
            from . import _native as module  # type: ignore[attr-defined]
        except ImportError:
            return None
    import ctypes

    names = ["tg_guard_decide", "tg_decision_verdict", "tg_decision_reason",
             "tg_decision_model_reason", "tg_decision_rule", "tg_decision_json",
             "tg_decision_free", "tg_error_message", "tg_error_free"]
    addresses = {name: ctypes.cast(getattr(lib, name), ctypes.c_void_p).value for name in names}
    verdicts = tuple(_VERDICTS.get(value, Verdict.DENY) for value in range(5))
    module.setup(addresses, Decision, verdicts, Verdict.DENY, GuardError)
    return module


_native: Any = _load_native()
#: How decisions are read: "pybind11" (the native helper) or "ctypes".
backend = "ctypes" if _native is None else "pybind11"
del _capi
