"""Several threads checking calls on one guard at once."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, Tuple

import toolguard
from conftest import builtin_options

CALLS: List[Tuple[str, str]] = [
    ("git status", "allow"),
    ("rm -rf /", "deny"),  # judged, never run
    ("git push --force", "ask"),
    ("ls -la", "allow"),
]


def _check_many(guard: toolguard.Guard, worker: int) -> List[str]:
    problems = []
    for i in range(200):
        command, expected = CALLS[(i + worker) % len(CALLS)]
        decision = guard.check("Bash", {"command": command}, cwd="/workspace")
        if decision.verdict != expected:
            problems.append(f"{command}: {decision.verdict}, expected {expected}")
        if i % 50 == 0:
            decision.raw  # render the JSON now and then, concurrently
    return problems


def test_threads_share_one_guard(guard: toolguard.Guard) -> None:
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda w: _check_many(guard, w), range(8)))
    assert [p for r in results for p in r] == []


def test_threads_with_an_asker(home: Path) -> None:
    lock = threading.Lock()
    asked: Dict[str, int] = {}

    def asker(request: Dict[str, Any]) -> str:
        with lock:
            name = threading.current_thread().name
            asked[name] = asked.get(name, 0) + 1
        return "allow-once"

    with toolguard.Guard(**builtin_options(home), asker=asker) as guard:
        def work(_: int) -> List[str]:
            return [str(guard.check("Bash", {"command": "git push --force"},
                                    cwd="/workspace").verdict) for _ in range(50)]

        with ThreadPoolExecutor(max_workers=6) as pool:
            verdicts = [v for r in pool.map(work, range(6)) for v in r]
    assert verdicts == ["allow"] * 300
    assert sum(asked.values()) == 300
    assert len(asked) > 1  # asked on the checking threads


def test_close_while_checks_run(home: Path) -> None:
    guard = toolguard.Guard(**builtin_options(home))
    stop = threading.Event()
    errors: List[BaseException] = []

    def work() -> None:
        while not stop.is_set():
            try:
                guard.check("Bash", {"command": "git status"}, cwd="/workspace")
            except toolguard.GuardError:
                return  # closed: the expected end
            except BaseException as error:  # noqa: B902
                errors.append(error)
                return

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    guard.close()
    stop.set()
    for t in threads:
        t.join()
    assert errors == []
