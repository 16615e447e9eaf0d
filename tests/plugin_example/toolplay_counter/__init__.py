"""An example toolplay plugin, written only against the public API, as a user would write one.

It adds:
- a tool domain `counter` (one table of named counters; tools to read and increment them);
- a scorer `counter_target` with its metric `target_hit_rate`: did the named counter end at the
  target value (scenario metadata `target`)?
- a mode `impatient`: dynamic play in which the assistant gets at most two tool calls per turn;
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
    CustomEvidence,
    MethodSummary,
    Metric,
    MetricValues,
    ScenarioScore,
    Scored,
    Scorer,
    ScoringContext,
)
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


def score_counter(
    setup: ScenarioSetup, trajectory: Trajectory, context: ScoringContext
) -> ScenarioScore:
    """1.0 when the scenario's counter ends at its target value, else 0.0."""
    scenario = setup.scenario
    world = replay_changes(setup.new_world(), trajectory.changes)
    name, target = scenario.metadata["counter"], scenario.metadata["target"]
    row = world.find_one("counters", {"name": name})
    final = None if row is None else int(row["value"])
    return ScenarioScore(
        scenario_id=scenario.id,
        trial=trajectory.trial,
        evaluation="counter_target",
        score=1.0 if final == target else 0.0,
        evidence=CustomEvidence(kind="counter_target", counter=name, final=final, target=target),
    )


def aggregate_counter(records: Sequence[Scored]) -> MethodSummary:
    """The share of scenario trials whose counter hit its target."""
    scores = [r.score.score for r in records if r.score.score is not None]
    return MethodSummary(
        metrics=MetricValues.of({"target_hit_rate": fmean(scores) if scores else None})
    )


SCORER = Scorer(
    "counter_target",
    score_counter,
    aggregate_counter,
    (Metric("target_hit_rate", "Share of scenario trials whose counter ends at the target."),),
    "Did the counter end at the target value?",
)


async def play_impatient(request: PlayRequest) -> Trajectory:
    """Dynamic play where each assistant turn may make at most two tool calls."""
    scenario = request.setup.scenario
    prompt = request.presentation.system_prompt(scenario, request.settings.system_prompt)
    conversation = Conversation(request, prompt)
    try:
        while True:
            await conversation.user_says()
            await conversation.assistant_acts(cap=2, max_turns=scenario.max_turns)
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
    catalog.add_mode(Mode("impatient", play_impatient, "Dynamic, two tool calls per turn."))
    catalog.add_suite("counter", counter_suite, "Counting drinks (example plugin).")
    catalog.add_importer("counts", import_counts, "name=target lines, one scenario each.", "FILE")
