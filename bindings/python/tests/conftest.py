"""Shared fixtures: the package from this source tree, a guard on the built-in
policy alone (as the corpus was made), the corpus."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest

BINDING_DIR = Path(__file__).resolve().parent.parent
if str(BINDING_DIR) not in sys.path:
    sys.path.insert(0, str(BINDING_DIR))

import toolguard  # noqa: E402  (after the path is set)


def builtin_options(home: Path) -> Dict[str, Any]:
    """Guard options for the built-in policy alone, as the corpus was made."""
    return {"user": False, "project": False, "managed": False, "audit": False, "home": home}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """toolguard's home for one test (approvals, audit log)."""
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def guard(home: Path) -> Iterator[toolguard.Guard]:
    """A guard on the built-in policy, no asker."""
    with toolguard.Guard(**builtin_options(home)) as g:
        yield g


@pytest.fixture(scope="session")
def corpus() -> List[Dict[str, Any]]:
    """The corpus cases (bindings/corpus/make_corpus.py), from $TOOLGUARD_CORPUS."""
    path = os.environ.get("TOOLGUARD_CORPUS")
    if not path:
        pytest.skip("TOOLGUARD_CORPUS is not set (ctest sets it)")
    with open(path, encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    assert cases, f"{path} holds no cases"
    return cases
