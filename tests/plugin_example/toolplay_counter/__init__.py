"""An example toolplay plugin, written only against the public API, as a user would write one.

It adds:
- a tool domain `counter` (one table of named counters; tools to read and increment them);
- a scorer `counter_target` with its metric `target_hit_rate`: did the named counter end at the
  target value (scenario metadata `target`)? It declares the whole scorer contract, as the
  built-in methods do: its evidence model (`CounterEvidence`) and how the report's trajectory
  viewer shows it (a table and a note), its success rule for pass^k (the target hit in one
  call: an assistant that gets there by several increments scores 1 but does not succeed), and
  its own section of the run summary (`CounterSection`: trials that ended above or below the
  target), shown as rows of the report's metrics table;
- a mode `impatient`: dynamic play in which the assistant gets at most `patience` tool calls
  per turn, its own setting (`--option patience=N`, default 2, recorded in config.json);
- a named suite `counter`, built in code, and an importer `counts:FILE` that reads a text file
  of `name=target` lines into scenarios (refusing a bad line with the file, line and reason).

Register it with `toolplay --plugin toolplay_counter ...` (the package on `sys.path`), or
install a package that declares it under the entry-point group `toolplay.plugins`:

    [project.entry-points."toolplay.plugins"]
    counter = "toolplay_counter:register"
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from statistics import fmean
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from toolplay.catalog import Catalog
from toolplay.conversation import Conversation, Mode, PlayRequest, Stop
from toolplay.messages import Trajectory
from toolplay.scenarios import (
    LoadContext,
    Scenario,
    ScenarioError,
    ScenarioSetup,
    Suite,
    parse_scenario,
)
from toolplay.scoring import (
    Evidence,
    EvidenceView,
    MethodSummary,
    Metric,
    MetricValues,
    ScenarioScore,
    Scored,
    Scorer,
    ScoringContext,
    SectionView,
    empty_view,
    evidence_as,
)
from toolplay.settings import Settings
from toolplay.tools import Domain, NotFoundError, tool
from toolplay.world import TableSchema, World, replay_changes

COUNTERS = TableSchema("counters", ("name", "value"), key="name")


@tool(kind="read", reads={"counters"})
def read_counter(world: World, name: str) -> int:
    """Read the current value of a counter.

    Args:
        name: The counter's name, e.g. "coffee".
    """
    row = world.find_one("counters", {"name": name})
    if row is None:
        raise NotFoundError(f"No counter named {name!r}.")
    return int(row["value"])


@tool(kind="action", reads={"counters"}, writes={"counters"})
def increment_counter(world: World, name: str, by: int = 1) -> int:
    """Add to a counter (creating it at 0 first) and return its new value.

    Args:
        name: The counter's name, e.g. "coffee".
        by: How much to add.
    """
    row = world.find_one("counters", {"name": name})
    value = (int(row["value"]) if row is not None else 0) + by
    if row is None:
        world.insert("counters", {"name": name, "value": value})
    else:
        world.update("counters", {"name": name}, {"value": value})
    return value


DOMAIN = Domain(
    "counter", {"counters": COUNTERS}, [read_counter, increment_counter], "Named counters."
)


class CounterEvidence(Evidence):
    """What a `counter_target` score rests on: the counter, where it ended, its target, and how
    many increments it took."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["counter_target"] = "counter_target"
    counter: str
    final: int | None
    target: int
    increments: int


class CounterSection(BaseModel):
    """The scorer's own part of the run summary: trials that missed, by direction."""

    above: int = 0
    below: int = 0


def score_counter(
    setup: ScenarioSetup, trajectory: Trajectory, context: ScoringContext
) -> ScenarioScore:
    """1.0 when the scenario's counter ends at its target value, else 0.0."""
    scenario = setup.scenario
    world = replay_changes(setup.new_world(), trajectory.changes)
    name, target = scenario.metadata["counter"], scenario.metadata["target"]
    row = world.find_one("counters", {"name": name})
    final = None if row is None else int(row["value"])
    increments = sum(
        1
        for message in trajectory.messages
        if message.is_tool_result and message.tool_name == "increment_counter"
    )
    return ScenarioScore(
        scenario_id=scenario.id,
        trial=trajectory.trial,
        evaluation="counter_target",
        score=1.0 if final == target else 0.0,
        evidence=CounterEvidence(counter=name, final=final, target=target, increments=increments),
    )


def hit_in_one_call(score: ScenarioScore) -> bool:
    """The success rule (pass^k): the target hit with a single increment."""
    evidence = evidence_as(score.evidence, CounterEvidence)
    return evidence is not None and evidence.final == evidence.target and evidence.increments == 1


def aggregate_counter(records: Sequence[Scored]) -> MethodSummary:
    """The share of scenario trials whose counter hit its target, and the misses."""
    scores = [r.score.score for r in records if r.score.score is not None]
    finals = [
        (e.final or 0, e.target)
        for r in records
        if (e := evidence_as(r.score.evidence, CounterEvidence)) is not None
    ]
    return MethodSummary(
        metrics=MetricValues.of({"target_hit_rate": fmean(scores) if scores else None}),
        section=CounterSection(
            above=sum(final > target for final, target in finals),
            below=sum(final < target for final, target in finals),
        ),
    )


def show_counter(evidence: CounterEvidence) -> EvidenceView:
    """The trajectory viewer's table of the counter against its target."""
    view = empty_view()
    final = "never counted" if evidence.final is None else str(evidence.final)
    view["tables"].append(
        {
            "title": "Counter against its target",
            "columns": ["counter", "final", "target", "increments"],
            "rows": [[evidence.counter, final, str(evidence.target), str(evidence.increments)]],
        }
    )
    view["notes"].append("hit" if evidence.final == evidence.target else "missed")
    return view


def show_misses(section: CounterSection) -> SectionView:
    """The misses as rows of the report's metrics table."""
    return SectionView(metrics={"misses.above": section.above, "misses.below": section.below})


SCORER = Scorer(
    "counter_target",
    score_counter,
    aggregate_counter,
    (
        Metric("target_hit_rate", "Share of scenario trials whose counter ends at the target."),
        Metric("misses.DIRECTION", "Trials that ended above or below the target.", "count"),
    ),
    "Did the counter end at the target value?",
    evidence=CounterEvidence,
    success=hit_in_one_call,
    show_evidence=show_counter,
    section=CounterSection,
    show_section=show_misses,
)


class ImpatientSettings(Settings):
    """The `impatient` mode's own setting."""

    patience: int = Field(
        default=2, ge=1, description="impatient mode: tool calls allowed per assistant turn."
    )


async def play_impatient(request: PlayRequest) -> Trajectory:
    """Dynamic play where each assistant turn may make at most `patience` tool calls."""
    scenario = request.setup.scenario
    prompt = request.presentation.system_prompt(scenario, request.settings.system_prompt)
    patience = request.settings.of(ImpatientSettings).patience
    conversation = Conversation(request, prompt)
    try:
        while True:
            await conversation.user_says()
            await conversation.assistant_acts(cap=patience, max_turns=scenario.max_turns)
    except Stop as stop:
        return conversation.trajectory(stop, mode="impatient")


def counter_suite(argument: str, context: LoadContext) -> Suite:
    """Two scenarios: count one coffee, count three teas."""
    specs = [("coffee", 1, "I just had a coffee, please count it."), ("tea", 3, "Add 3 teas.")]
    return Suite("counter", _scenarios(specs, context), "Counting drinks.", "toolplay_counter")


def import_counts(argument: str, context: LoadContext) -> Suite:
    """`counts:FILE`: one scenario per `name=target` line of FILE."""
    path = Path(argument)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ScenarioError(argument, None, f"cannot read ({exc.strerror})") from exc
    specs = []
    for number, line in enumerate(lines, start=1):
        name, sep, target = line.partition("=")
        if not sep or not name.strip() or not target.strip().isdigit():
            raise ScenarioError(f"{argument}:{number}", None, "expected name=number")
        count = int(target)
        specs.append((name.strip(), count, f"Count {count} {name.strip()}, please."))
    return Suite(path.stem, _scenarios(specs, context), f"Counts from {path}", str(path))


def _scenarios(specs: list[tuple[str, int, str]], context: LoadContext) -> list[Scenario]:
    return [
        parse_scenario(
            {
                "id": f"count_{name}",
                "categories": ["counting"],
                "world": {"domains": ["counter"]},
                "user": {"script": [ask]},
                "reference": [
                    {
                        "user": ask,
                        "calls": [
                            {"name": "increment_counter", "arguments": {"name": name, "by": by}}
                        ],
                        "reply": f"Counted: {name} is at {by}.",
                    }
                ],
                "evaluation": "counter_target",
                "metadata": {"counter": name, "target": by},
            },
            "toolplay_counter",
            context,
        )
        for name, by, ask in specs
    ]


def register(catalog: Catalog) -> None:
    """Add the counter domain, its scorer, the impatient mode and the counter suite."""
    catalog.add_domain(DOMAIN)
    catalog.add_scorer(SCORER)
    catalog.add_mode(
        Mode(
            "impatient",
            play_impatient,
            "Dynamic, `patience` tool calls per turn.",
            settings=ImpatientSettings,
        )
    )
    catalog.add_suite("counter", counter_suite, "Counting drinks (example plugin).")
    catalog.add_importer("counts", import_counts, "name=target lines, one scenario each.", "FILE")
