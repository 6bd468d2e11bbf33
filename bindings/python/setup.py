"""The optional native helper, toolguard._native (pybind11, native/native.cpp):
Guard.check's hot path in one call. Built when pybind11's headers and a C++
compiler are there; without them the package installs as pure Python and
uses ctypes alone (same API, a few µs more per check).

Everything else is in pyproject.toml. Environment:
  TOOLGUARD_INCLUDE_DIR      the directory holding toolguard/toolguard.h
                             (default: the repository's include/)
  TOOLGUARD_NATIVE_REQUIRED  1: a failed build is an error (the tests' build)
"""
import os

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))


def pybind11_includes() -> list:
    """pybind11's headers: its Python package's, else the system's (Debian's
    pybind11-dev puts them on the compiler's default path)."""
    try:
        import pybind11  # type: ignore[import]
    except ImportError:
        return []
    return [pybind11.get_include()]


native = Extension(
    "toolguard._native",
    sources=[os.path.relpath(os.path.join(HERE, "native", "native.cpp"))],
    include_dirs=[os.environ.get("TOOLGUARD_INCLUDE_DIR",
                                 os.path.join(HERE, "..", "..", "include"))] + pybind11_includes(),
    depends=[os.path.join(HERE, "..", "..", "include", "toolguard", "toolguard.h")],
    extra_compile_args=["-std=c++17", "-O2", "-fvisibility=hidden"],
    language="c++",
    optional=os.environ.get("TOOLGUARD_NATIVE_REQUIRED") != "1",
)

setup(ext_modules=[native])
