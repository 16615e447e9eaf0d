"""Replay of saved predictions in ToolTalk's output layout (`--assistant replay:DIR`).

(`replay:FILE.jsonl` reads a published AutoDE results file instead, as a `Recording`:
`_autode_replay`.)

DIR holds the evaluated conversation files, either in one subfolder per split (`DIR/easy/`,
`DIR/tooltalk/`) or all together; a conversation is found by the split and file name it was
imported from. Each assistant turn of such a file carries `"predictions"`: entries
`{"role": "api", "request": {"api_name": ..., "parameters": {...}}}` followed by one
`{"role": "assistant", "text": ...}`. Recorded responses are ignored: the environment executes
every request again, so replayed predictions are scored exactly like live ones.

`session_token` arguments are dropped (the environment supplies the session, as ToolTalk's
executor did); `"parameters": null` (ToolTalk's "failed to parse") is replayed as an argument
text that is not a JSON object, which the environment refuses. An assistant turn without
`predictions` replays as no call and an empty reply. A missing or malformed file is an
infrastructure error naming the file and the field: that conversation is not scored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolplay.clients import RoleOptionError
from toolplay.faults import InfrastructureError
from toolplay.messages import ToolCall
from toolplay.methods.tooltalk._importer import tooltalk_turns
from toolplay.roles._base import AssistantContext, AssistantTurn, RoleRequest
from toolplay.scenarios import Scenario

SESSION_ARGUMENT = "session_token"


@dataclass(frozen=True)
class SavedTurn:
    """The predictions of one assistant turn: calls in order, then the reply."""

    calls: tuple[tuple[str, str], ...]
    """(tool name, argument JSON text) per predicted call."""
    text: str


class ReplayAssistant:
    """Plays back ToolTalk-format predictions found under `folder`.

    Args:
        folder: The folder of saved prediction files (see the module docstring).
    """

    def __init__(self, folder: Path) -> None:
        if not folder.is_dir():
            raise RoleOptionError(f"replay: {folder} is not a folder of saved predictions")
        self.folder = folder
        self.name = f"replay:{folder}"
        self._loaded: dict[str, list[SavedTurn | None]] = {}

    sees_reference = True
    """It finds a conversation's file by the scenario it was imported from."""

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """The next saved call of the current turn, or the turn's saved reply."""
        turn_index, step = -1, 0
        for message in context.messages:
            if message.sender == "user" and message.content is not None:
                turn_index, step = turn_index + 1, 0
            elif message.sender == "assistant":
                step += 1
        if context.reference is None:
            raise InfrastructureError("replay needs the scenario (sees_reference)")
        saved = self._turns(context.reference.scenario)
        turn = saved[turn_index] if 0 <= turn_index < len(saved) else None
        if turn is None:
            return AssistantTurn(content="")
        if step < len(turn.calls):
            name, arguments = turn.calls[step]
            call = ToolCall(id=f"replay_{turn_index}_{step}", name=name, arguments=arguments)
            return AssistantTurn(tool_calls=(call,))
        return AssistantTurn(content=turn.text)

    def _turns(self, scenario: Scenario) -> list[SavedTurn | None]:
        if scenario.id not in self._loaded:
            self._loaded[scenario.id] = self._load(scenario)
        return self._loaded[scenario.id]

    def _load(self, scenario: Scenario) -> list[SavedTurn | None]:
        path = self._locate(scenario)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InfrastructureError(f"replay: cannot read {path}: {exc}") from exc
        conversation = data.get("conversation") if isinstance(data, dict) else None
        if not isinstance(conversation, list):
            raise InfrastructureError(f"replay: {path}: field 'conversation' must be a list")
        recorded = scenario.metadata.get("conversation_id")
        if recorded is not None and data.get("conversation_id", recorded) != recorded:
            raise InfrastructureError(
                f"replay: {path}: field 'conversation_id' is {data.get('conversation_id')!r}, "
                f"but scenario {scenario.id} is conversation {recorded!r}"
            )
        pairs = tooltalk_turns(conversation)
        if len(pairs) != len(scenario.reference):
            raise InfrastructureError(
                f"replay: {path}: {len(pairs)} turns, but scenario {scenario.id} has "
                f"{len(scenario.reference)}"
            )
        return [
            None if assistant is None else _saved_turn(assistant, path, i)
            for i, (_, assistant) in enumerate(pairs)
        ]

    def _locate(self, scenario: Scenario) -> Path:
        source = scenario.metadata.get("file")
        if not isinstance(source, str):
            raise InfrastructureError(
                f"replay: scenario {scenario.id} was not imported from a ToolTalk file"
            )
        candidates = [self.folder / source, self.folder / Path(source).name]
        for candidate in candidates:
            if candidate.is_file():
                return candidate
        tried = " or ".join(str(c) for c in candidates)
        raise InfrastructureError(f"replay: no saved predictions for {scenario.id} ({tried})")


def _saved_turn(assistant: dict[str, Any], path: Path, index: int) -> SavedTurn:
    entries = assistant.get("predictions", [])
    where = f"{path}: turn {index} field 'predictions'"
    if not isinstance(entries, list):
        raise InfrastructureError(f"replay: {where} must be a list")
    calls: list[tuple[str, str]] = []
    text = ""
    for position, entry in enumerate(entries):
        role = entry.get("role") if isinstance(entry, dict) else None
        if role == "api":
            request = entry.get("request")
            if not isinstance(request, dict) or not isinstance(request.get("api_name"), str):
                raise InfrastructureError(f"replay: {where}[{position}] needs request.api_name")
            calls.append((request["api_name"], _arguments(request.get("parameters"))))
        elif role == "assistant":
            text = str(entry.get("text") or "")
        else:
            raise InfrastructureError(
                f"replay: {where}[{position}] has role {role!r}; expected 'api' or 'assistant'"
            )
    return SavedTurn(tuple(calls), text)


def _arguments(parameters: Any) -> str:
    if isinstance(parameters, dict):
        kept = {k: v for k, v in parameters.items() if k != SESSION_ARGUMENT}
        return json.dumps(kept, ensure_ascii=False)
    return json.dumps(parameters)


def build_replay_assistant(request: RoleRequest) -> ReplayAssistant:
    """`replay:DIR`: ToolTalk predictions in its output layout."""
    if not request.argument:
        raise RoleOptionError("replay needs a folder or a results file: --assistant replay:DIR")
    return ReplayAssistant(Path(request.argument).expanduser())
