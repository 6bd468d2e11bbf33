"""The asker: a Python callable answering the C API's asks."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import toolguard
from conftest import builtin_options

ASKED_COMMAND = "git push --force"  # the built-in policy asks (rule git-rewrite)


def test_always_allow_is_remembered(home: Path) -> None:
    requests: List[Dict[str, Any]] = []

    def asker(request: Dict[str, Any]) -> Dict[str, Any]:
        requests.append(request)
        assert "session" in request["scopes"]
        return {"outcome": "always-allow", "option": 0, "scope": "session"}

    with toolguard.Guard(**builtin_options(home), asker=asker) as guard:
        first = guard.check("Bash", {"command": ASKED_COMMAND}, cwd="/workspace")
        assert first.verdict is toolguard.Verdict.ALLOW
        assert len(requests) == 1
        request = requests[0]
        assert request["call"]["tool"] == "Bash"
        assert request["call"]["args"] == {"command": ASKED_COMMAND}
        assert request["decision"]["verdict"] == "ask"
        assert request["decision"]["rule"] == "git-rewrite"
        assert request["options"] and {"binding", "value", "description"} <= set(request["options"][0])
        assert first.raw["approval"]["by"] == "async-callback"

        second = guard.check("Bash", {"command": ASKED_COMMAND}, cwd="/workspace")
        assert second.verdict is toolguard.Verdict.ALLOW
        assert len(requests) == 1, "the remembered approval answers without asking"


def test_allow_once_asks_again(home: Path) -> None:
    asked: List[str] = []

    def asker(request: Dict[str, Any]) -> str:
        asked.append(request["call"]["args"]["command"])
        return "allow-once"  # the outcome alone

    with toolguard.Guard(**builtin_options(home), asker=asker) as guard:
        for _ in range(2):
            assert guard.check("Bash", {"command": ASKED_COMMAND}, cwd="/workspace").allowed
    assert asked == [ASKED_COMMAND, ASKED_COMMAND]


def test_asker_deny_reason_reaches_the_model(home: Path) -> None:
    def asker(request: Dict[str, Any]) -> Dict[str, Any]:
        return {"outcome": "deny", "reason": "not on a Friday"}

    with toolguard.Guard(**builtin_options(home), asker=asker) as guard:
        decision = guard.check("Bash", {"command": ASKED_COMMAND}, cwd="/workspace")
    assert decision.verdict is toolguard.Verdict.DENY
    assert "not on a Friday" in decision.model_reason


def test_asker_that_raises_denies(home: Path) -> None:
    def asker(request: Dict[str, Any]) -> Dict[str, Any]:
        raise RuntimeError("the reviewer is away")

    with toolguard.Guard(**builtin_options(home), asker=asker) as guard:
        decision = guard.check("Bash", {"command": ASKED_COMMAND}, cwd="/workspace")
        assert decision.verdict is toolguard.Verdict.DENY
        assert "the reviewer is away" in decision.reason
        # The guard still works (and still asks).
        assert guard.check("Bash", {"command": "git status"}, cwd="/workspace").allowed


def test_bad_answers_deny(home: Path) -> None:
    answers: List[Any] = [
        {"outcome": "sure"},  # not an outcome
        {"outcome": "always-allow", "option": 99, "scope": "session"},  # no such option
        {"outcome": "always-allow", "option": 0},  # no scope
        {"outcome": "allow-once", "colour": "green"},  # unknown member
        42,  # not a dict
        {"outcome": object()},  # not JSON
    ]
    pending = list(answers)

    def asker(request: Dict[str, Any]) -> Any:
        return pending.pop(0)

    with toolguard.Guard(**builtin_options(home), asker=asker) as guard:
        for answer in answers:
            decision = guard.check("Bash", {"command": ASKED_COMMAND}, cwd="/workspace")
            assert decision.verdict is toolguard.Verdict.DENY, answer
            assert decision.reason, answer
    assert not pending


def test_calls_that_need_no_approval_do_not_ask(home: Path) -> None:
    def asker(request: Dict[str, Any]) -> str:
        raise AssertionError("asked")

    with toolguard.Guard(**builtin_options(home), asker=asker) as guard:
        assert guard.check("Bash", {"command": "git status"}, cwd="/workspace").allowed
        assert guard.check("Bash", {"command": "rm -rf /"}, cwd="/workspace").verdict == "deny"
