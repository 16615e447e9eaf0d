"""Replay of a published AutoDE results file (`--assistant replay:FILE.jsonl`).

A results file holds one JSON object a line, one line per (dialogue, trial): `uuid`, `content`
(the dialogue up to its last text turn), `slots` (the prediction, already cleaned when it was
recorded), and in newer files `state` (`success`/`failure`) and `reason`. Older files have only
`uuid, background, content, api, slots`. Trials are not numbered: trial t of a dialogue is its
t-th line in the file, and the file holds as many trials as the dialogue with the fewest lines
(extra lines are ignored). A dialogue of the suite with no line makes the file unusable, as it
does for the reference, and the run is refused naming that dialogue.

No model is called: the role is a `Recording` (`toolplay.roles._recording`). The runner asks it
for the trials the file holds (`trials`) before the run starts, and for each (dialogue, trial)
the trajectory its line records (`recorded`), which is scored like a played one. The recorded
`content` turns are posted as they were (an empty `content` as the dialogue's fixed first
query), then what ended the dialogue:

- stored slots, or `state: success` (or no `state` at all): the assistant's call of the API
  with the stored slots as its arguments (cleaning them again changes nothing);
- `Arguments parse failed: TEXT`: a call whose argument text is TEXT (a parse failure again);
- `Round limit reached`: the turn limit;
- an empty reason: the assistant stopped without calling;
- the annotator failing the dialogue: the user ended it; any other reason (a context-length
  or generation error): the assistant's error. Either way the reason is the trajectory's error.

Lines that cannot mean what they say are refused naming file and line: not JSON, a missing
`uuid`/`content`/`slots`, a content turn that is not `{role: User|Assistant, message}`, stored
slot values the reference's recording would have dropped, or a parse failure whose text does
parse as a JSON object.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolplay.clients import RoleOptionError
from toolplay.faults import InfrastructureError
from toolplay.messages import Message, Role, TerminationReason, ToolCall, Trajectory
from toolplay.methods.autode._reference import reference_texts
from toolplay.methods.autode._slot_label import slot_label
from toolplay.roles._base import RoleRequest
from toolplay.roles._recording import RECORDED_MODE, Recording, RecordingError
from toolplay.scenarios import ScenarioSetup
from toolplay.tools import ToolCrash

PARSE_FAILED = reference_texts().parse_failure_prefix
ROUND_LIMIT = reference_texts().round_limit_reason
ANNOTATOR = reference_texts().annotator_failure_reason
KEPT = (str, bool)


@dataclass(frozen=True)
class ResultLine:
    """One line of a results file: a recorded dialogue and how it ended."""

    number: int
    uuid: str
    turns: tuple[tuple[str, str], ...]
    """(role, message) per recorded content turn, roles `User` / `Assistant`."""
    api: str | None
    slots: dict[str, Any]
    state: str | None
    reason: str

    @property
    def calls(self) -> bool:
        """Whether the dialogue ended with an API call (its slots are the prediction)."""
        if self.reason.startswith(PARSE_FAILED):
            return True
        return bool(self.slots) or self.state in (None, "success")


def _kept(value: Any) -> bool:
    if isinstance(value, bool):
        return True
    return isinstance(value, str) and value.strip() != "" and value.lower() != "null"


def parse_line(text: str, number: int, path: Path) -> ResultLine:
    """One results line, checked (see the module docstring).

    Raises:
        RoleOptionError: The line is unusable, naming file, line and reason.
    """

    def refuse(reason: str) -> RoleOptionError:
        return RoleOptionError(f"replay: {path}: line {number}: {reason}")

    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise refuse(f"invalid JSON ({exc.msg})") from exc
    if not isinstance(record, dict):
        raise refuse("expected a JSON object")
    uuid, content, slots = record.get("uuid"), record.get("content"), record.get("slots")
    if not isinstance(uuid, str) or not uuid:
        raise refuse("field 'uuid' must be a non-empty string")
    if not isinstance(content, list):
        raise refuse("field 'content' must be a list of turns")
    if not isinstance(slots, dict):
        raise refuse("field 'slots' must be an object")
    turns = []
    for i, turn in enumerate(content):
        ok = isinstance(turn, dict) and turn.get("role") in ("User", "Assistant")
        if not ok or not isinstance(turn.get("message"), str):
            raise refuse(f"content[{i}] must be {{role: User|Assistant, message: text}}")
        turns.append((str(turn["role"]), str(turn["message"])))
    dropped = sorted(k for k, v in slots.items() if not _kept(v) or k == "functionName")
    if dropped:
        raise refuse(f"slots {dropped} hold values the reference never records")
    state, reason = record.get("state"), record.get("reason") or ""
    if not isinstance(reason, str) or not (state is None or isinstance(state, str)):
        raise refuse("fields 'state' and 'reason' must be strings")
    if reason.startswith(PARSE_FAILED):
        try:
            parsed = json.loads(reason[len(PARSE_FAILED) :])
        except (ValueError, RecursionError):
            parsed = None
        if isinstance(parsed, dict):
            raise refuse("recorded as a parse failure, but its text parses as a JSON object")
    api = record.get("api") if isinstance(record.get("api"), str) else None
    return ResultLine(number, uuid, tuple(turns), api, dict(slots), state, reason)


def load_results(path: Path) -> list[ResultLine]:
    """Every line of a results file, in file order (blank lines skipped).

    Raises:
        RoleOptionError: The file is unreadable or a line is unusable.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RoleOptionError(f"replay: cannot read {path} ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise RoleOptionError(f"replay: {path} is not UTF-8 text") from exc
    lines = [
        parse_line(line, number, path)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip()
    ]
    if not lines:
        raise RoleOptionError(f"replay: {path} holds no results")
    return lines


def results_trials(lines: Sequence[ResultLine], scenario_ids: Sequence[str], path: Path) -> int:
    """How many trials a file holds for these dialogues (the fewest lines any of them has).

    Raises:
        RecordingError: A dialogue has no line (the file cannot be scored), naming it.
    """
    counts: dict[str, int] = defaultdict(int)
    for line in lines:
        counts[line.uuid] += 1
    for scenario_id in scenario_ids:
        if counts[scenario_id] == 0:
            raise RecordingError(
                f"replay: {path} has no record of dialogue {scenario_id}: the file cannot be "
                "scored (every dialogue needs at least one record)"
            )
    return min(counts[s] for s in scenario_ids)


class AutodeResultsReplay(Recording):
    """Reads an AutoDE results file as a recording (see the module docstring).

    Args:
        path: The results file (`.jsonl`).

    Raises:
        RoleOptionError: The file is unreadable or a line is unusable (naming file and line).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = f"replay:{path}"
        self.settings = {"replayed_file": str(path)}
        self._by_uuid: dict[str, list[ResultLine]] = defaultdict(list)
        for line in load_results(path):
            self._by_uuid[line.uuid].append(line)

    def lines(self, scenario_id: str) -> Sequence[ResultLine]:
        """The records of one dialogue, in file order (trial t is the t-th)."""
        return tuple(self._by_uuid.get(scenario_id, ()))

    def trials(self, scenario_ids: Sequence[str], requested: int) -> int:
        """The file's trials, or fewer when `requested` (more than 1) asks for fewer.

        Raises:
            RecordingError: A dialogue has no record, or more trials are asked than the file
                holds.
        """
        lines = [line for group in self._by_uuid.values() for line in group]
        held = results_trials(lines, scenario_ids, self.path)
        if requested > held:
            raise RecordingError(f"replay: {self.path} holds {held} trial(s); --trials {requested}")
        return held if requested == 1 else requested

    def line(self, scenario_id: str, trial: int) -> ResultLine:
        """The record of one (dialogue, trial).

        Raises:
            InfrastructureError: The file has no such record.
        """
        group = self._by_uuid.get(scenario_id, [])
        if trial >= len(group):
            raise InfrastructureError(
                f"replay: {self.path} has {len(group)} record(s) of {scenario_id}, no trial {trial}"
            )
        return group[trial]

    def recorded(self, setup: ScenarioSetup, trial: int) -> Trajectory:
        """The trajectory one line records (see the module docstring)."""
        scenario = setup.scenario
        line = self.line(scenario.id, trial)
        messages: list[Message] = []

        def post(sender: Role, recipient: Role, **fields: Any) -> None:
            visible: tuple[Role, ...] = (
                ("assistant", "environment")
                if "environment" in (sender, recipient)
                else ("user", "assistant")
            )
            messages.append(
                Message(
                    index=len(messages),
                    sender=sender,
                    recipient=recipient,
                    visible_to=visible,
                    **fields,
                )
            )

        turns = line.turns or ((("User", scenario.script[0]),) if scenario.script else ())
        for role, text in turns:
            if role == "User":
                post("user", "assistant", content=text)
            else:
                post("assistant", "user", content=text)
        termination: TerminationReason = "completed"
        error: str | None = None
        world = setup.new_world()
        if line.calls:
            label = slot_label(scenario)
            name = line.api or (label.name if label else "api")
            arguments = (
                line.reason[len(PARSE_FAILED) :]
                if line.reason.startswith(PARSE_FAILED) and not line.slots
                else json.dumps(line.slots, ensure_ascii=False)
            )
            call = ToolCall(id=f"replay_{trial}", name=name, arguments=arguments)
            post("assistant", "environment", tool_calls=(call,))
            world.index = len(messages)
            try:
                outcome = setup.registry.execute(world, call)
            except ToolCrash as exc:  # an API-only tool never runs; a real one might
                raise InfrastructureError(str(exc)) from exc
            post(
                "environment",
                "assistant",
                tool_call_id=call.id,
                tool_name=name,
                result=outcome.result,
                error=outcome.error,
                error_type=outcome.error_type,
            )
        elif line.reason == ROUND_LIMIT:
            termination = "turn_limit"
        elif line.reason:
            termination = "user_ended" if line.reason.startswith(ANNOTATOR) else "assistant_error"
            error = line.reason
        return Trajectory(
            scenario_id=scenario.id,
            trial=trial,
            messages=messages,
            changes=world.changes,
            termination=termination,
            error=error,
            assistant=self.name,
            user=self.name,
            mode=RECORDED_MODE,
        )


def build_results_replay(request: RoleRequest) -> AutodeResultsReplay:
    """`replay:FILE.jsonl`: a published AutoDE results file.

    Raises:
        RoleOptionError: No such file, or the file is unusable.
    """
    path = Path(request.argument).expanduser()
    if not path.is_file():
        raise RoleOptionError(f"replay: no such results file {path}")
    return AutodeResultsReplay(path)
