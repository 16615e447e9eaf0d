"""A model as judge of the simulated user: what it is asked, and how its answer is read.

The deterministic checks see only what rules can; a judge model reads the whole conversation
with the user's briefing and tags the user's errors with a kind (the registered checks' names,
or `other`) and a severity: did the error *help* the assistant (e.g. it handed over the answer),
*hinder* it (wrong facts, an early end), or neither (*minor*)? The prompt is toolplay's own.

The judge answers by calling one tool, `record_user_errors`, whose arguments are read
strictly (`read_verdict`): exactly one call, exactly the declared keys and types, known kinds
and severities, and each message number a message the simulator wrote. Anything else is kept
as a `malformed` verdict with the reason and the raw answer, never guessed at. Building the
request and reading the answer are pure; calling the model is the caller's (`runs`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from toolplay.messages import Message, ToolCall, Trajectory
from toolplay.users._briefing import UserBriefing, model_messages
from toolplay.users._findings import UserCheck

JUDGE_PROMPT_VERSION = 1
"""Changes when the judge's prompt or tool changes (recorded with every review)."""

JUDGE_TOOL_NAME = "record_user_errors"
SEVERITIES = ("helped", "hindered", "minor")
OTHER = "other"
Severity = Literal["helped", "hindered", "minor"]

_CLIP = 400
"""Characters of a tool call's arguments or result shown to the judge."""

JUDGE_INSTRUCTIONS = """\
You audit a test conversation. An AI assistant under test talked to a user, and the user was \
simulated by a language model that was given a briefing (shown below). The assistant is \
scored on the conversation, so every mistake of the simulated user distorts its score.

Find the messages in which the simulated USER made a mistake that a careful person following \
the briefing would not make. Judge only the user's messages marked [simulator]; lines marked \
[scripted] were written by the test's author and are never mistakes. Kinds of mistake:
{kinds}
- {other}: any other way the user departs from its briefing or from how a real user behaves.

For each mistake give the message number, its kind, its severity and a one-sentence \
explanation. Severity: "helped" if the mistake made the assistant's task easier (for example \
it handed over what the assistant had to find), "hindered" if it made the task harder or \
impossible (wrong or invented facts, ending too early, confusing the assistant), "minor" if \
neither. A message may carry several mistakes. If the user made none, record an empty list.

Answer only by calling {tool} once."""


def _kinds_text(checks: Sequence[UserCheck]) -> str:
    return "\n".join(f"- {c.name}: {c.definition}" for c in checks)


def judge_tool(kinds: Sequence[str]) -> dict[str, Any]:
    """The tool the judge answers with (its arguments are the verdict)."""
    item = {
        "type": "object",
        "properties": {
            "message": {"type": "integer", "description": "The message number (#N)."},
            "kind": {"type": "string", "enum": [*kinds, OTHER]},
            "severity": {"type": "string", "enum": list(SEVERITIES)},
            "explanation": {"type": "string", "description": "One sentence."},
        },
        "required": ["message", "kind", "severity", "explanation"],
        "additionalProperties": False,
    }
    return {
        "type": "function",
        "function": {
            "name": JUDGE_TOOL_NAME,
            "description": "Record the simulated user's mistakes (an empty list if none).",
            "parameters": {
                "type": "object",
                "properties": {"errors": {"type": "array", "items": item}},
                "required": ["errors"],
                "additionalProperties": False,
            },
        },
    }


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _CLIP else text[: _CLIP - 1] + "…"


def _line(message: Message, written: set[int]) -> str | None:
    number = f"#{message.index}"
    if message.sender == "user" and message.recipient == "environment":
        return f"{number} USER [simulator] ended the conversation"
    if message.sender == "user" and message.content is not None:
        mark = "[simulator]" if message.index in written else "[scripted]"
        return f"{number} USER {mark}: {message.content}"
    if message.sender == "assistant" and message.tool_calls:
        calls = "; ".join(f"{c.name}({_clip(c.arguments)})" for c in message.tool_calls)
        return f"{number} ASSISTANT called tools: {calls}"
    if message.sender == "assistant" and message.content is not None:
        return f"{number} ASSISTANT: {message.content}"
    if message.sender == "environment" and message.recipient == "assistant":
        outcome = f"error: {message.error}" if message.error else json.dumps(message.result)
        return f"{number} TOOL RESULT ({message.tool_name}): {_clip(outcome)}"
    return None


def briefing_text(briefing: UserBriefing) -> str:
    """The user's briefing as the judge reads it."""
    parts = [f"Goal: {briefing.goal.strip()}"]
    if briefing.knowledge.strip():
        parts.append(f"Knowledge: {briefing.knowledge.strip()}")
    if briefing.facts.withheld:
        parts.append("Must not reveal: " + " | ".join(briefing.facts.withheld))
    if briefing.facts.slots:
        slots = ", ".join(f"{k}={v!r}" for k, v in briefing.facts.slots.items())
        parts.append(f"Values its script fixes: {slots}")
    if briefing.script:
        parts.append("Scripted lines: " + " | ".join(briefing.script))
    return "\n".join(parts)


def judge_messages(
    trajectory: Trajectory, briefing: UserBriefing, checks: Sequence[UserCheck]
) -> list[dict[str, Any]]:
    """The judge's chat: instructions, then the briefing and the numbered conversation."""
    written = {m.index for m in model_messages(trajectory, briefing)}
    lines = [line for m in trajectory.messages if (line := _line(m, written)) is not None]
    system = JUDGE_INSTRUCTIONS.format(kinds=_kinds_text(checks), other=OTHER, tool=JUDGE_TOOL_NAME)
    body = (
        "The user's briefing:\n"
        + briefing_text(briefing)
        + "\n\nThe conversation:\n"
        + "\n".join(lines)
        + f"\n\nIt ended: {trajectory.termination}."
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": body}]


def judge_request(
    model: str,
    trajectory: Trajectory,
    briefing: UserBriefing,
    checks: Sequence[UserCheck],
    sampling: dict[str, Any],
) -> dict[str, Any]:
    """The whole request body (OpenAI chat completions) asking the judge about one trajectory.

    `sampling` holds `temperature`, `seed` and `max_tokens` (None values are not sent).
    """
    body: dict[str, Any] = {
        "model": model,
        "messages": judge_messages(trajectory, briefing, checks),
        "tools": [judge_tool([c.name for c in checks])],
        "tool_choice": {"type": "function", "function": {"name": JUDGE_TOOL_NAME}},
    }
    body.update({k: v for k, v in sampling.items() if v is not None})
    return body


class JudgedError(BaseModel):
    """One user error the judge tagged."""

    message_index: int
    kind: str
    severity: Severity
    explanation: str


class JudgeVerdict(BaseModel):
    """The judge's answer about one trajectory, read strictly (see the module docstring)."""

    scenario_id: str
    trial: int
    status: Literal["ok", "malformed"]
    errors: list[JudgedError] = Field(default_factory=list)
    problem: str | None = Field(default=None, description="Why a malformed answer was refused.")
    raw: str = Field(default="", description="The judge's answer as received.")


class _Malformed(ValueError):
    pass


def _raw(content: str | None, calls: Sequence[ToolCall]) -> str:
    parts = [content] if content else []
    parts += [f"{c.name}({c.arguments})" for c in calls]
    return "\n".join(parts)


def _item(value: Any, position: int, kinds: set[str], allowed: set[int]) -> JudgedError:
    where = f"errors[{position}]"
    if not isinstance(value, dict):
        raise _Malformed(f"{where} is not an object")
    keys = {"message", "kind", "severity", "explanation"}
    if set(value) != keys:
        raise _Malformed(f"{where} has keys {sorted(value)}; expected {sorted(keys)}")
    message, kind, severity = value["message"], value["kind"], value["severity"]
    if isinstance(message, bool) or not isinstance(message, int):
        raise _Malformed(f"{where}.message is not an integer: {message!r}")
    if message not in allowed:
        raise _Malformed(f"{where}.message #{message} is not a message the simulated user wrote")
    if kind not in kinds:
        raise _Malformed(f"{where}.kind {kind!r} is not one of {sorted(kinds)}")
    if severity not in SEVERITIES:
        raise _Malformed(f"{where}.severity {severity!r} is not one of {list(SEVERITIES)}")
    if not isinstance(value["explanation"], str):
        raise _Malformed(f"{where}.explanation is not a string")
    return JudgedError(
        message_index=message, kind=kind, severity=severity, explanation=value["explanation"]
    )


def read_verdict(
    trajectory: Trajectory,
    briefing: UserBriefing,
    checks: Sequence[UserCheck],
    content: str | None,
    calls: Sequence[ToolCall],
) -> JudgeVerdict:
    """The judge's answer (its text and tool calls) as a verdict, strictly (module docstring)."""
    raw = _raw(content, calls)
    sid, trial = trajectory.scenario_id, trajectory.trial
    allowed = {m.index for m in model_messages(trajectory, briefing)}
    allowed |= {
        m.index for m in trajectory.messages if m.sender == "user" and m.recipient == "environment"
    }
    kinds = {c.name for c in checks} | {OTHER}
    try:
        if len(calls) != 1 or calls[0].name != JUDGE_TOOL_NAME:
            names = [c.name for c in calls]
            raise _Malformed(f"expected one call to {JUDGE_TOOL_NAME}, got {names or 'text'}")
        try:
            arguments = json.loads(calls[0].arguments)
        except ValueError as exc:
            raise _Malformed(f"the arguments are not JSON ({exc})") from exc
        if not isinstance(arguments, dict) or set(arguments) != {"errors"}:
            raise _Malformed('the arguments are not an object with exactly the key "errors"')
        if not isinstance(arguments["errors"], list):
            raise _Malformed('"errors" is not a list')
        errors = [_item(v, i, kinds, allowed) for i, v in enumerate(arguments["errors"])]
    except _Malformed as exc:
        return JudgeVerdict(
            scenario_id=sid, trial=trial, status="malformed", problem=str(exc), raw=raw
        )
    return JudgeVerdict(scenario_id=sid, trial=trial, status="ok", errors=errors, raw=raw)
