"""World-state variants: a base scenario replayed with a device setting off or low battery on.

Each variant adds a (possibly nested) state dependency to a base scenario, derived from the
base's own reference solution rather than written by hand:

- `cellular_off`, `wifi_off`, `location_off`: that setting starts off;
- `low_battery`: low-battery mode starts on, so cellular, wifi and location service are off
  too (turning low-battery mode on turns all three off) and none can be turned on before
  low-battery mode is off.

Whether a base depends on a setting is found by running its reference calls, never from a
table of tool names: the reference is replayed in the variant world, and the first call whose
outcome differs from the base replay is where the dependency bites. Right before it, in its
turn, the smallest fix is inserted (for low battery: turn low-battery mode off, then each
needed setting on, the fewest that make the call behave as in the base), and the replay goes
on until every reference call behaves exactly as in the base. A variant is skipped when the
base already starts in that state or no call depends on the setting; it is skipped *and
reported as unsound* when the reference reads the setting itself (a status getter would
answer differently), when a call still differs after the fix, when the base withholds a
setter the fix needs, or when its milestones or minefields would judge the inserted calls
(a guardrail on `settings`, a minefield on the settings table or a setter, a settings
milestone whose column the variant leaves different). Milestones are adjusted in
`_variant_milestones`.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from toolplay.messages import ToolCall
from toolplay.scenarios._model import ReferenceCall, Scenario, ToolSelection
from toolplay.tools import Registry, ToolCrash

SETTINGS = "settings"
BATTERY = "low_battery_mode"


@dataclass(frozen=True)
class Switch:
    """A device setting a variant can turn off, with the tools that read and set it."""

    column: str
    setter: str
    getter: str
    label: str


SWITCHES = (
    Switch("cellular", "set_cellular_service_status", "get_cellular_service_status", "cellular"),
    Switch("wifi", "set_wifi_status", "get_wifi_status", "wifi"),
    Switch(
        "location_service",
        "set_location_service_status",
        "get_location_service_status",
        "location",
    ),
)
BATTERY_SWITCH = Switch(
    BATTERY, "set_low_battery_mode_status", "get_low_battery_mode_status", "low_battery"
)
BY_COLUMN = {s.column: s for s in (*SWITCHES, BATTERY_SWITCH)}

STATE_VARIANTS: dict[str, dict[str, bool]] = {
    **{f"{s.label}_off": {s.column: False} for s in SWITCHES},
    "low_battery": {BATTERY: True, **{s.column: False for s in SWITCHES}},
}
"""Every world-state variant by name: the settings it starts with."""


class VariantSkipped(Exception):
    """A variant is not generated; `unsound` marks the cases worth reporting to authors."""

    def __init__(self, reason: str, *, unsound: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.unsound = unsound


Outcome = tuple[Any, str | None]
"""A call's (result, error): what must be the same in the variant as in the base."""


@dataclass(frozen=True)
class Step:
    """One call of a reference in play order."""

    turn: int
    call: ReferenceCall
    base: int | None = None
    """Position among the base's calls; None for a call the variant inserted."""
    fix: int | None = None
    """For an inserted call: which fix (in play order) it belongs to."""


@dataclass(frozen=True)
class Played:
    """What replaying steps did: per step its outcome, settings around it, tables changed."""

    outcomes: list[Outcome]
    settings_before: list[dict[str, Any]]
    settings_after: list[dict[str, Any]]
    tables: list[frozenset[str]]


@dataclass(frozen=True)
class Fix:
    """Calls inserted before base call `position`: (column, value) settings to apply."""

    position: int
    settings: tuple[tuple[str, bool], ...]

    @property
    def switches(self) -> list[str]:
        """Columns this fix turns on (low-battery mode excluded)."""
        return [column for column, value in self.settings if column != BATTERY and value]


@dataclass(frozen=True)
class Derivation:
    """A variant's replayed reference: steps, fixes and both replays, for the milestones."""

    name: str
    steps: list[Step]
    fixes: list[Fix]
    base: Played
    variant: Played
    start: dict[str, Any]
    broken: list[tuple[list[Step], Played]]
    """Per fix k: the steps and replay with fixes k, k+1, ... left out."""


class Replayer:
    """Runs steps in order in a scenario's world with its settings row replaced.

    Read-only tools are deterministic functions of the tables they declare to read (plus the
    scenario's clock and session), so their outcomes are shared through `reads`, a cache kept
    per base scenario: the variants of one base replay the same lookups many times.
    """

    def __init__(
        self,
        registry: Registry,
        scenario: Scenario,
        settings: dict[str, Any],
        reads: dict[str, Outcome] | None = None,
    ) -> None:
        spec = scenario.world
        tables = {**spec.tables, SETTINGS: [settings]}
        self.registry = registry
        self.world = registry.new_world(
            tables, clock=spec.clock, session=spec.session, seed=spec.seed
        )
        self.played = Played([], [], [], [])
        self.reads = reads if reads is not None else {}

    def _execute(self, call: ToolCall) -> Outcome:
        spec = self.registry.tools.get(call.name)
        key = None
        if spec is not None and spec.kind == "read" and not spec.meta.writes:
            seen = {t: [dict(r) for r in self.world.rows(t)] for t in sorted(spec.meta.reads)}
            key = json.dumps(
                [call.name, call.arguments, seen, dict(self.world.session)],
                sort_keys=True,
                default=str,
            )
            if key in self.reads:
                return self.reads[key]
        outcome = self.registry.execute(self.world, call)
        result = (outcome.result, outcome.error)
        if key is not None:
            self.reads[key] = result
        return result

    def run(self, steps: Sequence[Step]) -> Played:
        """Play `steps` after those already played; returns everything played so far."""
        world, played = self.world, self.played
        for step in steps:
            world.index = len(played.outcomes)
            seen = len(world.changes)
            played.settings_before.append(dict(world.rows(SETTINGS)[0]))
            call = ToolCall.from_args(f"variant_{world.index}", step.call.name, step.call.arguments)
            try:
                outcome = self._execute(call)
            except ToolCrash as exc:
                reason = f"reference call {step.call.name} crashes: {str(exc).splitlines()[0]}"
                raise VariantSkipped(reason, unsound=True) from exc
            played.outcomes.append(outcome)
            played.settings_after.append(dict(world.rows(SETTINGS)[0]))
            played.tables.append(frozenset(c.table for c in world.changes[seen:]))
        return played


def base_steps(scenario: Scenario) -> list[Step]:
    """The base's reference calls in play order."""
    steps: list[Step] = []
    for t, turn in enumerate(scenario.reference):
        for call in turn.calls:
            steps.append(Step(t, call, base=len(steps)))
    return steps


def fix_calls(settings: Sequence[tuple[str, bool]], turn: int, fix: int) -> list[Step]:
    """The setter calls that apply `settings`, as steps of `turn`."""
    return [
        Step(turn, ReferenceCall(name=BY_COLUMN[c].setter, arguments={"on": v}), fix=fix)
        for c, v in settings
    ]


def _candidates(
    name: str, now: dict[str, Any], in_base: dict[str, Any]
) -> Iterator[tuple[tuple[str, bool], ...]]:
    """Fixes to try before a failing call, smallest first."""
    if name != "low_battery":
        (column,) = STATE_VARIANTS[name]
        yield ((column, True),)
        return
    prefix = ((BATTERY, False),) if now[BATTERY] else ()
    off = [s.column for s in SWITCHES if not now[s.column] and in_base[s.column]]
    for size in range(len(off) + 1):
        for combo in itertools.combinations(off, size):
            if prefix or combo:
                yield prefix + tuple((column, True) for column in combo)


def derive(
    base: Scenario,
    registry: Registry,
    name: str,
    played_base: Played | None = None,
    reads: dict[str, Outcome] | None = None,
) -> Derivation:
    """Replay `base` in variant `name`'s world and insert the fixes (module docstring).

    `played_base` is the base's own replay and `reads` the base's cache of read-only tool
    outcomes (see `Replayer`), when the caller already has them.

    Raises:
        VariantSkipped: when the variant does not apply or would be unsound.
    """
    initial = initial_settings(base, registry)
    start = {**initial, **STATE_VARIANTS[name]}
    column = BATTERY if name == "low_battery" else next(iter(STATE_VARIANTS[name]))
    if initial[column] == start[column]:
        raise VariantSkipped(f"it already starts with {column} = {start[column]}")
    steps = base_steps(base)
    reads = reads if reads is not None else {}
    if played_base is None:
        played_base = Replayer(registry, base, initial, reads).run(steps)
    played = Replayer(registry, base, start, reads).run(steps)
    fixes: list[Fix] = []
    broken: list[tuple[list[Step], Played]] = []
    while (j := _first_difference(steps, played, played_base)) is not None:
        step = steps[j]
        assert step.base is not None
        wanted = played_base.outcomes[step.base]
        setting = next((c for c, sw in BY_COLUMN.items() if sw.setter == step.call.name), None)
        if setting is not None and played.settings_before[j].get(
            setting
        ) == step.call.arguments.get("on"):
            # the base sets that switch to the value the variant starts with: refused as a
            # no-op (as the reference's setters refuse), and there is nothing to restore
            raise VariantSkipped(
                f"reference call {step.call.name} sets a switch the variant changes"
            )
        if played.outcomes[j][1] is None:
            raise VariantSkipped(
                f"reference call {step.call.name} reads a setting the variant changes",
                unsound=True,
            )
        for settings in _candidates(
            name, played.settings_before[j], played_base.settings_before[step.base]
        ):
            inserted = fix_calls(settings, step.turn, len(fixes))
            trial = [*steps[:j], *inserted, *steps[j:]]
            replayer = Replayer(registry, base, start, reads)
            check = replayer.run(trial[: j + len(inserted) + 1])
            if check.outcomes[-1] == wanted:
                broken.append((steps, played))
                fixes.append(Fix(step.base, settings))
                steps, played = trial, replayer.run(trial[j + len(inserted) + 1 :])
                break
        else:
            raise VariantSkipped(
                f"reference call {step.call.name} still fails after restoring the settings: "
                f"{played.outcomes[j][1]}",
                unsound=True,
            )
    if not fixes:
        raise VariantSkipped(f"no reference call depends on {column}")
    return Derivation(name, steps, fixes, played_base, played, start, broken)


def base_replay(
    base: Scenario, registry: Registry, reads: dict[str, Outcome] | None = None
) -> Played:
    """The base's reference calls replayed in its own world (`reads`: see `Replayer`).

    Raises:
        VariantSkipped: when the world has no settings row or a call crashes.
    """
    replayer = Replayer(registry, base, initial_settings(base, registry), reads)
    return replayer.run(base_steps(base))


def initial_settings(base: Scenario, registry: Registry) -> dict[str, Any]:
    """The base's initial settings row (defaults filled in).

    Raises:
        VariantSkipped: when the world has no settings, or not exactly one row.
    """
    if SETTINGS not in registry.tables:
        raise VariantSkipped("its world has no device settings")
    spec = base.world
    world = registry.new_world(spec.tables, clock=spec.clock, session=spec.session)
    rows = world.rows(SETTINGS)
    if len(rows) != 1:
        raise VariantSkipped(f"its settings table holds {len(rows)} rows, not one", unsound=True)
    return dict(rows[0])


def _first_difference(steps: Sequence[Step], played: Played, base: Played) -> int | None:
    for index, step in enumerate(steps):
        if step.base is not None and played.outcomes[index] != base.outcomes[step.base]:
            return index
    return None


def variant_tools(base: Scenario, derivation: Derivation) -> ToolSelection:
    """The base's tool selection plus the setters the fixes call and their status getters."""
    columns = {c for fix in derivation.fixes for c, _ in fix.settings}
    setters = [BY_COLUMN[c].setter for c in BY_COLUMN if c in columns]
    withheld = [name for name in setters if name in base.tools.deny]
    if withheld:
        raise VariantSkipped(f"it withholds {withheld}, which the variant needs", unsound=True)
    if base.tools.allow is None:
        return base.tools
    needed = setters + [BY_COLUMN[c].getter for c in BY_COLUMN if c in columns]
    allow = list(base.tools.allow) + [n for n in needed if n not in base.tools.allow]
    return base.tools.model_copy(update={"allow": allow})
