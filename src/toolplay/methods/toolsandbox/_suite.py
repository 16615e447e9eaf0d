"""The built-in `toolsandbox` suite: apple/ToolSandbox's own scenarios, exported offline.

`data/` beside this module holds what the exporter (`scripts/toolsandbox_export`, run with the
reference package installed) wrote from the reference repository at commit 165848b, under
Apple's licence (`LICENSE` beside the data):

- `scenarios.json`: every reference base scenario (all 129; the 38 that call RapidAPI tools
  are answered by toolplay's simulated services, `toolplay.domains.services`), in toolplay's
  format (world with the clock pinned to one instant, tools offered, the reference's ranking of
  distraction tools, user side, milestones and minefields, categories);
- `left_out.json`: the reference scenarios left out and why (none);
- `prompts.json`: the reference's agent system prompt, user-simulator instruction and
  demonstrations (text used verbatim, so it is data, never code);
- `evaluation.json`: the code the reference's bus holds for an assistant's tool call, which
  its milestones and minefields on that message compare with (`_calltext`);
- `rapidapi.json`: what the reference's RapidAPI tools send and how they read the answers
  (the simulated services are checked against it by the tests);
- `PROVENANCE.json`: reference commit, pinned clock, seed, and every place the export is not
  exact (or fixes a reference defect).

`solutions.yaml` is toolplay's own: the reference has no gold trajectories, so each exported
base scenario has a reference solution written for toolplay (keyed by the reference's scenario
name), which `toolplay validate --suite toolsandbox` plays to prove the scenario solvable.

The suite is each base under the paper's 8 augmentation settings (`AUGMENTATION_SETTINGS`):
the paper's 1,032 scenarios, ordered setting by setting; ids are the reference's names
(`<name>@<setting>` when augmented).
Loaded only when asked for (`--suite toolsandbox`). Its runs show the models what the reference
shows them (presentation `toolsandbox`, `_presentation`) and check their setup against the
paper's (`_paper`).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from toolplay.methods.toolsandbox._paper import PRESENTATION, paper_setup
from toolplay.scenarios._context import LoadContext
from toolplay.scenarios._errors import ScenarioError
from toolplay.scenarios._lazy import LazyScenarios, ScenarioEntry
from toolplay.scenarios._load import parse_scenario
from toolplay.scenarios._model import Scenario
from toolplay.scenarios._suites import Suite
from toolplay.scenarios._variants import (
    AUGMENTATION_SEPARATOR,
    AUGMENTATION_SETTINGS,
    NONE,
    augmentation_variant,
)

FOLDER = Path(__file__).resolve().parent / "data"

DESCRIPTION = (
    "apple/ToolSandbox's own scenarios (commit 165848b), exported offline: all 129 bases under "
    "the paper's 8 augmentation settings, 1,032 scenarios, the RapidAPI tools answered by "
    "simulated services (Apple's licence)."
)


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioError(str(path), None, f"cannot read file ({exc.strerror})") from exc


@lru_cache(maxsize=1)
def prompts() -> dict[str, Any]:
    """The reference's prompt and demonstration texts (`prompts.json`)."""
    data: dict[str, Any] = _json(FOLDER / "prompts.json")
    return data


def solutions(path: Path = FOLDER / "solutions.yaml") -> dict[str, list[dict[str, Any]]]:
    """Toolplay's reference solution of each exported base, by the reference's name."""
    import yaml  # noqa: PLC0415 (start-up time: imported on first use)

    safe_loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's: 10x faster
    loaded = yaml.load(path.read_text(encoding="utf-8"), Loader=safe_loader) or {}
    if not isinstance(loaded, dict):
        raise ScenarioError(str(path), None, "expected a mapping of scenario name -> turns")
    return loaded


def base_scenarios(context: LoadContext) -> list[Scenario]:
    """The exported base scenarios with their demonstrations and reference solutions."""
    source = str(FOLDER / "scenarios.json")
    items = _json(FOLDER / "scenarios.json")
    solved = solutions()
    demonstrations = prompts()["demonstrations"]
    bases = []
    for position, item in enumerate(items):
        name = item["id"]
        if name not in solved:
            raise ScenarioError(
                str(FOLDER / "solutions.yaml"), name, "no reference solution for this scenario"
            )
        demos = demonstrations[item["metadata"]["toolsandbox"]["demonstrations"]]
        turns = solved[name]
        data = {
            **item,
            "user": {**item["user"], "demonstrations": demos, "script": _script(item, turns)},
            "reference": turns,
        }
        bases.append(parse_scenario(data, source, context, f"[{position}]."))
    # solutions of scenarios this export left out (e.g. kept for `--format multi`) may stay
    left_out = {item["name"] for item in _json(FOLDER / "left_out.json")}
    unknown = sorted(set(solved) - {b.id for b in bases} - left_out)
    if unknown:
        raise ScenarioError(
            str(FOLDER / "solutions.yaml"), unknown[0], "a solution for no exported scenario"
        )
    return bases


def _script(item: dict[str, Any], turns: list[dict[str, Any]]) -> list[str]:
    """The scripted user's lines: the reference's first message, then the solution's turns.

    The reference gives only the first message; a scripted user (validation, replay) needs
    the later ones too, which the solution writes.
    """
    first = item["user"]["script"]
    said = [str(turn["user"]) for turn in turns if turn.get("user") is not None]
    if said[: len(first)] != first:
        raise ScenarioError(
            str(FOLDER / "solutions.yaml"),
            f"{item['id']}[0].user",
            f"the solution must open with the reference's first message {first}",
        )
    return said


def toolsandbox_suite(argument: str, context: LoadContext) -> Suite:
    """Every exported base under the 8 settings (see the module docstring).

    The scenarios are built on first use (`LazyScenarios`): their ids and categories come
    from the exported file directly, so `toolplay suites` and a `--limit`ed run build no
    more than they use (the first access builds the bases, then each variant as asked).
    """
    items = _json(FOLDER / "scenarios.json")
    built: list[Scenario] = []

    def build(index: int) -> Scenario:
        if not built:
            built.extend(b.model_copy(update={"base_id": b.id}) for b in base_scenarios(context))
        setting = AUGMENTATION_SETTINGS[index // len(items)]
        return augmentation_variant(built[index % len(items)], setting)

    entries = [
        ScenarioEntry(
            item["id"] if setting == NONE else f"{item['id']}{AUGMENTATION_SEPARATOR}{setting}",
            tuple(item.get("categories") or ()),
            None if setting == NONE else setting,
            None,
        )
        for setting in AUGMENTATION_SETTINGS
        for item in items
    ]
    scenarios = LazyScenarios(entries, build)
    left_out = _json(FOLDER / "left_out.json")
    extra: dict[str, object] = {
        "bases": len(items),
        "augmentations": list(AUGMENTATION_SETTINGS),
        "left_out": [(item["name"], item["reason"]) for item in left_out],
    }
    return Suite(
        "toolsandbox",
        scenarios,
        DESCRIPTION,
        str(FOLDER),
        extra=extra,
        presentation=PRESENTATION,
        paper_setup=paper_setup,
    )
