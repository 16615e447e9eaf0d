"""Shortcuts the tests share: one built-in catalog and the calls most tests make through it.

Tests import this module as `support` (the tests folder is put on `sys.path` by conftest).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from toolplay import conversation, scenarios, scoring
from toolplay.catalog import Catalog, build_catalog
from toolplay.clients import ModelOptions
from toolplay.conversation import PlayRequest, PlaySettings
from toolplay.messages import ToolCall, Trajectory
from toolplay.methods import autode, toolsandbox, tooltalk
from toolplay.roles import Assistant, AssistantContext, AssistantTurn, ScriptedUser, User
from toolplay.scenarios import LoadContext, Scenario, ScenarioSetup, Suite, VariantSet
from toolplay.scoring import ScenarioScore, ScoringContext
from toolplay.tools import Registry, ToolPresentation
from toolplay.world import World

CATALOG: Catalog = build_catalog(installed=False)


def load_suite(spec: str) -> Suite:
    """A suite of the built-in catalog."""
    return CATALOG.load_suite(spec)


def setup(scenario: Scenario) -> ScenarioSetup:
    """A scenario resolved against the built-in catalog."""
    return CATALOG.setup(scenario)


def registry_for(domains: Sequence[str]) -> Registry:
    """The registry of the named built-in domains or groups."""
    return CATALOG.tools.registry(domains)


def build_world(scenario: Scenario) -> World:
    """A fresh world in the scenario's initial state."""
    return setup(scenario).new_world()


async def play(
    mode: str,
    scenario: Scenario,
    assistant: Assistant,
    user: User | None = None,
    *,
    trial: int = 0,
    settings: PlaySettings | None = None,
    augment: Sequence[str] = (),
    presentation: str = "toolplay",
) -> Trajectory:
    """Play `scenario` in `mode` (scripted user by default) with a registered presentation."""
    request = PlayRequest(
        setup(scenario),
        assistant,
        user or ScriptedUser(),
        trial,
        settings or PlaySettings(),
        tuple(augment),
        CATALOG.presentation(presentation),
    )
    return await CATALOG.mode(mode).play(request)


def system_prompt(scenario: Scenario, base: str | None = None, context: bool = False) -> str:
    """The assistant's system text under toolplay's own presentation (its default prompts)."""
    return CATALOG.presentation("toolplay").system_prompt(scenario, base, context, own=False)


def score(
    scenario: Scenario, trajectory: Trajectory, context: ScoringContext | None = None
) -> ScenarioScore:
    """Score a trajectory with its scenario's scorer."""
    scorer = CATALOG.scorer(scenario.evaluation)
    return scoring.score_trajectory(
        setup(scenario), trajectory, scorer, context or CATALOG.scoring_context([scenario])
    )


# -- the shapes older tests call (thin wrappers over the catalog API) --------------------------


def context() -> LoadContext:
    """The load context of the built-in catalog."""
    return CATALOG.load_context()


def parse_scenario(data: Any, source: str, prefix: str = "") -> Scenario:
    """Validate one scenario mapping against the built-in catalog."""
    return scenarios.parse_scenario(data, source, context(), prefix)


def load_scenario_file(path: Path) -> list[Scenario]:
    """Every scenario of one file."""
    return scenarios.load_scenario_file(path, context())


def load_scenario_paths(paths: Sequence[Path]) -> list[Scenario]:
    """Every scenario of the files and folders."""
    return scenarios.load_scenario_paths(paths, context())


def expand_variants(bases: Sequence[Scenario], *args: Any, **kwargs: Any) -> VariantSet:
    """Bases plus their generated variants."""
    return scenarios.expand_variants(bases, context(), *args, **kwargs)


def state_variant(base: Scenario, name: str) -> Scenario:
    """One world-state variant of `base`."""
    return scenarios.state_variant(base, name, context())


def import_tooltalk(argument: str) -> Suite:
    """A ToolTalk data folder as a suite."""
    return tooltalk.import_tooltalk(argument, context())


def offered_tools(scenario: Scenario, augment: Sequence[str] = ()) -> ToolPresentation:
    """The tools a scenario offers, as the assistant sees them."""
    return conversation.offered_tools(setup(scenario), augment)


def _model(options: Mapping[str, Any] | None, prefix: str = "") -> ModelOptions:
    given = {k.removeprefix(prefix): v for k, v in (options or {}).items()}
    return ModelOptions(**{k: v for k, v in given.items() if k in ModelOptions.model_fields})


def build_assistant(spec: str, options: Mapping[str, Any] | None = None) -> Assistant:
    """An assistant from a spec and flat model options."""
    return CATALOG.build_assistant(spec, _model(options))


def build_user(spec: str, options: Mapping[str, Any] | None = None) -> User:
    """A user from a spec and flat model options (`user_` keys win)."""
    base = _model(options)
    return CATALOG.build_user(spec, _model(options, "user_").over(base))


async def play_dynamic(
    scenario: Scenario,
    assistant: Assistant,
    user: User,
    *,
    trial: int = 0,
    base_prompt: str | None = None,
    augment: Sequence[str] = (),
) -> Trajectory:
    """Dynamic play."""
    settings = PlaySettings(system_prompt=base_prompt)
    return await play(
        "dynamic", scenario, assistant, user, trial=trial, settings=settings, augment=augment
    )


async def play_static(
    scenario: Scenario,
    assistant: Assistant,
    *,
    trial: int = 0,
    base_prompt: str | None = None,
    augment: Sequence[str] = (),
    max_calls_per_turn: int | None = None,
) -> Trajectory:
    """ToolTalk's static play."""
    settings = PlaySettings(system_prompt=base_prompt, max_calls_per_turn=max_calls_per_turn)
    return await play(
        "static", scenario, assistant, trial=trial, settings=settings, augment=augment
    )


async def play_autode_static(
    scenario: Scenario,
    assistant: Assistant,
    *,
    trial: int = 0,
    base_prompt: str | None = None,
    augment: Sequence[str] = (),
    max_calls: int | None = None,
) -> Trajectory:
    """AutoDE's static play."""
    settings = PlaySettings(system_prompt=base_prompt, max_calls_per_turn=max_calls)
    return await play(
        "autode-static", scenario, assistant, trial=trial, settings=settings, augment=augment
    )


def score_trajectory(
    scenario: Scenario, trajectory: Trajectory, context: ScoringContext | None = None
) -> ScenarioScore:
    """Score with the scenario's own scorer."""
    return score(scenario, trajectory, context)


def score_milestones(scenario: Scenario, trajectory: Trajectory, *_: Any) -> ScenarioScore:
    """The milestone scorer."""
    return toolsandbox.score_milestones(setup(scenario), trajectory)


def score_slots(scenario: Scenario, trajectory: Trajectory, *_: Any) -> ScenarioScore:
    """The slot scorer."""
    return autode.score_slots(setup(scenario), trajectory)


def score_state(scenario: Scenario, trajectory: Trajectory, *_: Any) -> ScenarioScore:
    """The state scorer."""
    return CATALOG.scorer("state").score(setup(scenario), trajectory, ScoringContext())


def score_tooltalk(
    scenario: Scenario, trajectory: Trajectory, context: ScoringContext
) -> ScenarioScore:
    """The ToolTalk scorer."""
    return tooltalk.score_tooltalk(setup(scenario), trajectory, context)


def details(score: ScenarioScore) -> dict[str, Any]:
    """A score's evidence as plain JSON data, in the shape scores had before evidence was typed
    (no empty `validation_problems`, the error under `error`)."""
    if score.evidence is None:
        return {"error": score.error} if score.error is not None else {}
    data = score.evidence.model_dump(mode="json")
    data.pop("kind", None)
    if not data.get("validation_problems"):
        data.pop("validation_problems", None)
    if data.get("embedding_model") is None:
        data.pop("embedding_model", None)
    return dict(data)


def load_script_file(path: Path) -> list[Scenario]:
    """The scenarios of one AutoDE-style user-script file."""
    from toolplay.methods.autode._scripts import load_script_file as load

    return load(path, context())


def load_user_scripts(path: Path) -> list[Scenario]:
    """The scenarios of a file or folder of user scripts."""
    from toolplay.methods.autode._scripts import load_user_scripts as load

    return load(path, context())


def summarise(records: Sequence[tuple[Scenario, ScenarioScore]]) -> dict[str, Any]:
    """The method summary of scored records as JSON data (optional parts left out)."""
    scored = [scoring.Scored(scenario, score) for scenario, score in records]
    summary = scoring.aggregate(scored, CATALOG.scorers).model_dump(mode="json")
    return {key: value for key, value in summary.items() if value is not None}


def run_on_endpoint(
    base_url: str, out: Path, *args: str, env: Mapping[str, str] | None = None
) -> tuple[int, str, dict[str, Any]]:
    """`toolplay run --assistant openai:ref` against `base_url` (in-process): exit code, output
    and the written summary (empty when none was written)."""
    from typer.testing import CliRunner

    from toolplay.cli import app

    argv = ["run", "--assistant", "openai:ref", "--base-url", base_url, "--out", str(out), *args]
    result = CliRunner().invoke(app, argv, env={"COLUMNS": "200", **(env or {})})
    summary_file = out / "summary.json"
    summary = json.loads(summary_file.read_text()) if summary_file.exists() else {}
    return result.exit_code, result.output, summary


def trajectory_lines(out: Path, scenario_id: str, trial: int = 0) -> list[dict[str, Any]]:
    """The JSON lines of one stored trajectory file."""
    path = out / "trajectories" / f"{scenario_id}.t{trial}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def drain_terminal(leader: int) -> tuple[bytes, str]:
    """What a pseudo-terminal's program wrote (read from its `leader` end, without blocking):
    the raw bytes and the text with the terminal control sequences removed."""
    import os
    import re
    from contextlib import suppress

    os.set_blocking(leader, False)
    shown = b""
    with suppress(BlockingIOError, OSError):
        while chunk := os.read(leader, 65536):
            shown += chunk
    return shown, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown.decode("utf-8"))


def committed_keys(out: Path, status: str | None = "done") -> set[tuple[str, int]]:
    """(scenario id, trial) of the rows a running run has committed (`status` None: any).

    Opened read-only around the writer's exclusive lock, so a read may meet the database busy
    or mid-write ("malformed" on a loaded machine): that counts as nothing seen yet, and the
    caller polls again. The store itself is verified by checksums when the run is over.

    The connection is closed before returning (`with sqlite3.connect(...)` alone only ends a
    transaction): one left open keeps this process's SQLite locks and its mapping of the log
    index on the store, and a test that then copies the store's files and closes the copies
    drops those locks (POSIX locks belong to the process, not the descriptor), so the next
    `toolplay` to close the run deletes the log and its index under the open connection, and
    every later peek reads through the stale index: a frozen row count or "malformed" from a
    sound store (tests/soak/test_store_peek.py).
    """
    import sqlite3
    from contextlib import closing

    from toolplay.store import RunStore

    path = out / RunStore.FILENAME
    if not path.exists():
        return set()
    query, params = "SELECT scenario_id, trial FROM results", ()
    if status is not None:
        query, params = query + " WHERE status = ?", (status,)
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)) as db:
            return {(r[0], r[1]) for r in db.execute(query, params)}
    except sqlite3.DatabaseError:
        return set()


def open_store_files(out: Path) -> list[str]:
    """The files of the run store in `out` (the database, its log and log index) that this
    process holds open, as `/proc/self/fd` names them (a deleted one ends in " (deleted)").

    A test that copies or reads the store's files while it holds one open would drop this
    process's SQLite locks on it (see `committed_keys`); the crash tests assert there is none.
    Empty where there is no `/proc` (not Linux): tests that need the answer skip there.
    """
    import os

    from toolplay.store import RunStore

    folder = Path("/proc/self/fd")
    if not folder.is_dir():
        return []
    prefix = str(out.resolve() / RunStore.FILENAME)
    found = []
    for fd in os.listdir(folder):
        try:
            target = os.readlink(folder / fd)
        except OSError:  # closed meanwhile (the listing's own descriptor, for one)
            continue
        if target.startswith(prefix):
            found.append(target)
    return sorted(found)


def wifi_off_scenario() -> Scenario:
    """One user turn asking to turn wifi off; the reference calls `set_wifi_status`."""
    return parse_scenario(
        {
            "id": "wifi_off",
            "world": {"domains": ["settings"]},
            "user": {"script": ["Turn wifi off please."]},
            "reference": [
                {
                    "user": "Turn wifi off please.",
                    "calls": [{"name": "set_wifi_status", "arguments": {"on": False}}],
                }
            ],
        },
        "test",
    )


class Calls:
    """An assistant answering with one call per answer, by name, in order (then repeating the
    last); it remembers whether each answer was asked to be a call."""

    name = "calls"

    def __init__(self, *names: str) -> None:
        self.names = names
        self.asked = 0
        self.forced: list[bool] = []

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """The next call (`set_*` tools get `on: false`)."""
        name = self.names[min(self.asked, len(self.names) - 1)]
        self.asked += 1
        self.forced.append(context.force_tool_call)
        arguments = {"on": False} if name.startswith("set_") else {}
        return AssistantTurn(tool_calls=(ToolCall.from_args(f"c{self.asked}", name, arguments),))


def picky_suite(folder: Path) -> Path:
    """The quick suite judged by `tests/runs/crashing_plugin.py`'s `picky` scorer, in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in sorted((scenarios.DATA / "quick").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for scenario in data["scenarios"]:
            scenario["evaluation"] = "picky"
        (folder / path.name).write_text(yaml.safe_dump(data), encoding="utf-8")
    return folder


class ChatbotUserEndpoint:
    """A test-endpoint responder for runs with a simulated user and for judge reviews.

    As the assistant it plays the reference solutions of `scenarios`; as the simulated user it
    says its opening (the role does that itself), then writes as an assistant would
    (`CHATBOT`), then ends the conversation; as the judge (`toolplay review`) it reads the
    numbered transcript it is sent and tags each simulator line that calls itself a chatbot as
    role confusion, except in conversations about wifi, where it answers in prose (a malformed
    verdict). Every transcript it judged is kept in `judged`.
    """

    CHATBOT = "I'm just a chatbot, how can I help you?"

    def __init__(self, scenarios: Sequence[Scenario]) -> None:
        from toolplay.testing import ReferenceResponder

        self.reference = ReferenceResponder(scenarios)
        self.judged: list[str] = []

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        from toolplay.testing import is_user_request, text, tool_calls

        names = {t["function"]["name"] for t in request.get("tools") or []}
        if "record_user_errors" in names:
            return self.judge(request)
        if is_user_request(request):
            systems = [i for i, m in enumerate(request["messages"]) if m["role"] == "system"]
            own = request["messages"][systems[-1] + 1 :]
            said = [m for m in own if m["role"] == "assistant"]  # roles are flipped
            reply = self.user_says(request["messages"][systems[-1]]["content"], said)
            if reply is None:
                return tool_calls(("end_conversation", {}), prefix="end")
            return text(reply)
        return self.reference(request)

    def user_says(self, briefing: str, said: list[dict[str, Any]]) -> str | None:
        """The simulated user's next words (None: it ends the conversation)."""
        return self.CHATBOT if len(said) == 1 else None

    def judge(self, request: dict[str, Any]) -> dict[str, Any]:
        """The judge's answer (see the class docstring)."""
        import re

        from toolplay.testing import text, tool_calls

        transcript = request["messages"][1]["content"]
        self.judged.append(transcript)
        if "turn on wifi" in transcript:
            return text("The user seems fine to me.")
        lines = re.findall(r"^#(\d+) USER \[simulator\]: (.*)$", transcript, re.M)
        errors = [
            {
                "message": int(number),
                "kind": "role_confusion",
                "severity": "hindered",
                "explanation": "The user speaks as the assistant.",
            }
            for number, said in lines
            if "chatbot" in said
        ]
        return tool_calls(("record_user_errors", {"errors": errors}), prefix="judge")


class ErrantUserEndpoint(ChatbotUserEndpoint):
    """`ChatbotUserEndpoint` whose simulated user makes a different mistake per scenario.

    Chosen from its briefing: with a fact it must not leak ("... Do not leak this
    information."), it states the fact; otherwise, by the briefing's length, it invents a phone
    number, repeats its opening, writes as an assistant would, or makes no mistake. Then it
    ends the conversation.
    """

    def user_says(self, briefing: str, said: list[dict[str, Any]]) -> str | None:
        """The next words of the errant user (see the class docstring)."""
        import re

        mistake = len(briefing) % 4
        if len(said) > (2 if mistake == 1 else 1):
            return None
        withheld = re.search(r"([^.]*)\. Do not leak", briefing)
        if withheld:
            return f"By the way: {withheld.group(1).strip()}."
        if mistake == 0:
            return "Please call me back at +1 555 010 9999."
        if mistake == 1:
            return str(said[0]["content"])
        if mistake == 2:
            return self.CHATBOT
        return "Thanks, that is all."
