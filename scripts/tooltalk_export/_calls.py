"""Seeded calls for comparing toolplay's ToolTalk executor with the reference's, call by call.

Shared by `tool_outcomes.py` (runs them through the reference's `ToolExecutor`) and toolplay's
tests (through `toolplay.methods.tooltalk.ReferenceExecutor`). Each case is a conversation file
and a few calls made from its logged-in state: ground-truth calls of the conversation, some with
one argument replaced, dropped or a `session_token` added, and calls to any API (or an unknown
one) with values of every JSON type, odd formats, unhashable ids, extra arguments. Nothing of the
dataset is stored: the calls are derived from the conversation files when needed.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

STRINGS = (
    "",
    " ",
    "x",
    "Seattle",
    "  seattle ",
    "New York",
    "london",
    "z\u00fcrich",
    "07:30:00",
    "7:30",
    "24:00:00",
    "2023-09-11 09:00:00",
    "2023-09-20 10:00:00",
    "2023-09-20 11:00:00",
    "2023-09-01 00:00:00",
    "2023-10-01",
    "2020-01-01 00:00:00",
    "September",
    "sept",
    "any",
    "all",
    "some",
    "meeting",
    "event",
    "Meeting",
    "a@b.com",
    "bad-email",
    "123-456-7890",
    "1234567890",
    "pw",
    "justforkicks123",
    "complete",
    "5bff-dd80",
    "e149636f-d9ca",
    "5480d946-2381",
    "0000-0001",
    "5b-dd80",
    "r1",
    "mstein",
    "justinkool",
    "larajean",
    "olivedo",
    "nobody",
    "MSTEIN",
    "lunch meeting",
    "6 o'clock",
    "\u00e9v\u00e9nement",
)


class Calls:
    """Draws cases from a seeded generator."""

    def __init__(self, data: Path, facts: dict[str, Any], seed: int) -> None:
        self.data = data
        self.facts = facts
        self.rng = random.Random(seed)
        self.files = sorted(
            f"{p.parent.name}/{p.name}"
            for p in data.glob("*/*.json")
            if p.parent.name != "databases"
        )

    def string(self) -> str:
        return self.rng.choice(STRINGS)

    def value(self) -> Any:
        rng, k = self.rng, self.rng.random()
        if k < 0.55:
            return self.string()
        if k < 0.62:
            return rng.choice([0, 1, 7, -3, 12, 2023])
        if k < 0.67:
            return rng.choice([0.0, 1.5, 18.5, 1e3])
        if k < 0.72:
            return None
        if k < 0.76:
            return rng.choice([True, False])
        if k < 0.88:
            lists = [
                [],
                [self.string()],
                [self.string(), self.string()],
                [1, "a@b.com"],
                ["mstein"],
            ]
            return rng.choice(lists)
        return rng.choice([{}, {"a": 1}, {"mstein": 1}, {"a@b.com": "x"}])

    def case(self) -> dict[str, Any]:
        rng = self.rng
        file = rng.choice(self.files)
        conversation = json.loads((self.data / file).read_text(encoding="utf-8"))
        recorded = [a["request"] for t in conversation["conversation"] for a in t.get("apis") or []]
        calls = []
        for _ in range(rng.choice([1, 2, 3, 4])):
            if recorded and rng.random() < 0.6:
                chosen = rng.choice(recorded)
                name = chosen["api_name"]
                params = {k: v for k, v in chosen["parameters"].items() if k != "session_token"}
                if params and rng.random() < 0.5:
                    params[rng.choice(list(params))] = self.value()
                if params and rng.random() < 0.15:
                    params.pop(rng.choice(list(params)))
                if rng.random() < 0.1:
                    params = {"session_token": "x", **params}
            else:
                name = rng.choice([*self.facts, "LookupEverything"])
                signature = self.facts.get(name, {"call_signature": [{"name": "q"}]})[
                    "call_signature"
                ]
                params = {
                    p["name"]: self.value() for p in signature if p["name"] != "session_token"
                }
                params = {k: v for k, v in params.items() if rng.random() < 0.85}
                if rng.random() < 0.1:
                    params["bogus"] = self.value()
                if rng.random() < 0.1:
                    params["session_token"] = rng.choice(["copied", None, 5])
                if rng.random() < 0.3:
                    keys = list(params)
                    rng.shuffle(keys)
                    params = {k: params[k] for k in keys}
            calls.append([name, params])
        return {"file": file, "calls": calls}


def cases(data: Path, facts: dict[str, Any], seed: int, count: int) -> list[dict[str, Any]]:
    """`count` cases drawn with `seed`."""
    draw = Calls(data, facts, seed)
    return [draw.case() for _ in range(count)]


def digest(outcomes: list[list[Any]]) -> str:
    """The sha256 of a case's outcomes: per call [response, exception, arguments shown]."""
    import hashlib

    return hashlib.sha256(json.dumps(outcomes).encode("utf-8")).hexdigest()
