"""Loads libtoolguard_c.so (the C API, include/toolguard/toolguard.h) with
ctypes and declares the prototypes of the functions the binding uses.

The library is found, in this order, from:
  1. the environment variable ``TOOLGUARD_C_LIBRARY`` (the library's path);
  2. ``TOOLGUARD_LIB_DIR`` (the directory holding ``libtoolguard_c.so``);
  3. where ``scripts/install.sh PREFIX`` puts it beside this package: the
     package is installed as ``PREFIX/lib/toolguard/python/toolguard`` and the
     library as ``PREFIX/lib/libtoolguard_c.so``;
  4. the source tree's release build, when this package is the source tree's
     ``bindings/python/toolguard``: ``build/release/libtoolguard_c.so``;
  5. the system's ``libtoolguard_c.so.0`` (the dynamic loader's search path);
  6. ``ctypes.util.find_library("toolguard_c")``.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
from typing import List, Optional

__all__ = ["lib", "quick", "library_path", "AskFn", "ErrorPtr", "take_error"]


class _Opaque(ctypes.Structure):
    """An opaque C struct (tg_guard, tg_decision, tg_error, tg_ask)."""


#: ``tg_error*``; ``ctypes.byref(ErrorPtr())`` is a ``tg_error**``.
ErrorPtr = ctypes.POINTER(_Opaque)

#: ``void (*tg_ask_fn)(void* user_data, tg_ask* ask, const char* request_json)``.
#: Calls from C through it take the GIL (ctypes does), whatever the thread.
AskFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)


def _candidates() -> List[str]:
    """Where the library may be, best first."""
    found: List[str] = []
    explicit = os.environ.get("TOOLGUARD_C_LIBRARY")
    if explicit:
        return [explicit]  # told exactly which one: never fall back to another
    lib_dir = os.environ.get("TOOLGUARD_LIB_DIR")
    if lib_dir:
        found += [os.path.join(lib_dir, "libtoolguard_c.so"),
                  os.path.join(lib_dir, "libtoolguard_c.so.0")]
    package = os.path.dirname(os.path.realpath(__file__))
    installed = os.path.join(package, os.pardir, os.pardir, os.pardir, "libtoolguard_c.so")
    python_dir = os.path.dirname(package)
    if (os.path.basename(python_dir) == "python"
            and os.path.basename(os.path.dirname(python_dir)) == "toolguard"
            and os.path.exists(installed)):
        found.append(os.path.normpath(installed))
    source_build = os.path.join(package, os.pardir, os.pardir, os.pardir, "build", "release",
                                "libtoolguard_c.so")
    if os.path.basename(os.path.dirname(python_dir)) == "bindings" and os.path.exists(source_build):
        found.append(os.path.normpath(source_build))
    found.append("libtoolguard_c.so.0")
    system = ctypes.util.find_library("toolguard_c")
    if system:
        found.append(system)
    return found


def _load() -> "tuple[ctypes.CDLL, str]":
    """Loads the first candidate that loads; ImportError naming all tried."""
    failures: List[str] = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as error:
            failures.append(f"{path}: {error}")
    raise ImportError(
        "toolguard: cannot load libtoolguard_c.so (set TOOLGUARD_C_LIBRARY to its path or "
        "TOOLGUARD_LIB_DIR to its directory); tried: " + "; ".join(failures))


def _declare(library: ctypes.CDLL) -> None:
    """Sets argtypes/restype of every function used (wrong ones would crash)
    on ``library`` (a CDLL or a PyDLL of the same file)."""
    c_char_p, c_void_p, c_size_t = ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t
    err_pp = ctypes.POINTER(ErrorPtr)
    prototypes = {
        "tg_version": (c_char_p, []),
        "tg_error_message": (c_char_p, [ErrorPtr]),
        "tg_error_free": (None, [ErrorPtr]),
        "tg_string_free": (None, [c_void_p]),
        "tg_guard_new": (c_void_p, [c_char_p, err_pp]),
        "tg_guard_free": (None, [c_void_p]),
        "tg_guard_check": (c_void_p, [c_void_p, c_char_p, err_pp]),
        "tg_guard_decide": (c_void_p, [c_void_p, c_char_p, c_size_t, err_pp]),
        "tg_decision_verdict": (ctypes.c_int, [c_void_p]),
        "tg_decision_reason": (c_char_p, [c_void_p]),
        "tg_decision_model_reason": (c_char_p, [c_void_p]),
        "tg_decision_rule": (c_char_p, [c_void_p]),
        "tg_decision_json": (c_char_p, [c_void_p]),
        "tg_decision_free": (None, [c_void_p]),
        "tg_guard_set_asker": (None, [c_void_p, AskFn, c_void_p]),
        "tg_ask_answer": (ctypes.c_int, [c_void_p, c_char_p, err_pp]),
        "tg_guard_run_sandboxed": (ctypes.c_int, [c_void_p, c_char_p, err_pp]),
    }
    for name, (restype, argtypes) in prototypes.items():
        function = getattr(library, name)
        function.restype = restype
        function.argtypes = argtypes


#: The library; its calls release the GIL (checks run in parallel, and the
#: asker callback takes the GIL back).
lib, library_path = _load()
_declare(lib)
#: The same library, its calls holding the GIL: for the accessors and frees
#: that only read or free memory (a release and re-take would cost more
#: than they do). Never for a call that can block or call back.
quick = ctypes.PyDLL(library_path)
_declare(quick)


def take_error(error: "ctypes._Pointer[_Opaque]", fallback: str) -> str:
    """The message of a ``tg_error`` (``fallback`` when NULL); frees it."""
    if not error:
        return fallback
    try:
        message: Optional[bytes] = quick.tg_error_message(error)
        return message.decode("utf-8", "replace") if message else fallback
    finally:
        quick.tg_error_free(error)
