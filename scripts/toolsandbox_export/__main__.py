"""Export apple/ToolSandbox's scenarios into toolplay's built-in `toolsandbox` suite.

Run with the reference package installed (its own Python 3.9 virtual environment):

    /path/to/venv/bin/python scripts/toolsandbox_export OUT_DIR [--format current|multi]

This script imports nothing of toolplay (toolplay needs Python 3.11); it writes plain JSON:
- `scenarios.json`: every reference base scenario (129; the RapidAPI tools some of them call
  are toolplay's simulated services), in toolplay's scenario format, with the reference's
  ranking of distraction tools (`tools.distractors`, from which its 8 augmentation settings
  take theirs);
- `left_out.json`: the scenarios left out, with the reason (none today);
- `prompts.json`: the reference's agent system prompt, the user simulator's instruction and
  its default demonstrations (data, never code);
- `evaluation.json`: what the reference's evaluation sees of an assistant's tool call (the
  code its bus holds for it), as a template;
- `rapidapi.json`: what the reference's RapidAPI tools send and how they read the answers
  (toolplay's simulated services are checked against it);
- `PROVENANCE.json`: reference commit, pinned clock, seed, format, and every place the export
  is not exact.
Apple's licence is copied beside them by the caller (`LICENSE` of the reference checkout).

`--format multi` (the default) writes the milestone spec with several references per milestone
and the `guardrail_exclude` field; `--format current` writes the spec from before them (it
leaves out the scenarios whose milestones refer to several others and records a milestone's
narrowing of the implicit guardrails in `metadata.toolsandbox.guardrail_exclude`).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _evaluation import evaluation_data  # noqa: E402
from _milestones import Inexact  # noqa: E402
from _pinned import PINNED, SEED, build_scenarios  # noqa: E402
from _presentation import export_presentation  # noqa: E402
from _rapidapi import rapidapi_data  # noqa: E402
from _scenario import SETTINGS, translate  # noqa: E402

COMMIT = "165848b"
"""The reference commit the snapshot holds (see its SNAPSHOT.md)."""

KNOWN_TOOLS = [
    "get_cellular_service_status",
    "set_cellular_service_status",
    "get_wifi_status",
    "set_wifi_status",
    "get_location_service_status",
    "set_location_service_status",
    "get_low_battery_mode_status",
    "set_low_battery_mode_status",
    "get_current_location",
    "add_contact",
    "modify_contact",
    "remove_contact",
    "search_contacts",
    "send_message_with_phone_number",
    "search_messages",
    "add_reminder",
    "modify_reminder",
    "remove_reminder",
    "search_reminder",
    "get_current_timestamp",
    "timestamp_to_datetime_info",
    "datetime_info_to_timestamp",
    "shift_timestamp",
    "timestamp_diff",
    "unit_conversion",
    "convert_currency",
    "calculate_lat_lon_distance",
    "search_location_around_lat_lon",
    "search_lat_lon",
    "search_weather_around_lat_lon",
    "search_stock",
    "search_holiday",
    "seconds_to_hours_minutes_seconds",
]
"""Tools of toolplay's `sandbox` domains (the exporter cannot import toolplay to ask)."""


def _move_exclusions(scenario: dict[str, Any]) -> None:
    moved: dict[str, list[str]] = {}
    for field in ("milestones", "minefields"):
        for item in scenario.get(field, []):
            if "guardrail_exclude" in item:
                moved[f"{field}/{item['id']}"] = item.pop("guardrail_exclude")
    if moved:
        scenario["metadata"]["toolsandbox"]["guardrail_exclude"] = moved


def export(out: Path, form: str, probes: Path | None = None) -> dict[str, int]:
    """Write the suite's data files into `out` (and the presentation, `_presentation`)."""
    import tool_sandbox.tools
    from tool_sandbox.common.execution_context import DatabaseNamespace
    from tool_sandbox.common.tool_discovery import ToolBackend, rank_tools_by_similarity
    from tool_sandbox.scenarios.user_simulator_few_shot_examples import (
        USER_INSTRUCTION,
        named_user_simulator_few_shot_examples,
    )

    namespace = {n.value: n for n in DatabaseNamespace}
    scenarios = build_scenarios()
    bases = sorted(
        n
        for n, s in scenarios.items()
        if any(str(c.value) == "NO_DISTRACTION_TOOLS" for c in s.categories)
    )
    agent_prompt = next(
        r["content"]
        for r in named_base_scenario_rows(scenarios[bases[0]], namespace)
        if (r["sender"], r["recipient"]) == ("SYSTEM", "AGENT")
    )
    exported: list[dict[str, Any]] = []
    left_out: list[dict[str, str]] = []
    notes: dict[str, list[str]] = {}
    demonstrations: dict[str, Any] = {}
    for name in bases:
        scenario = scenarios[name]
        variants = {setting: scenarios[name + suffix] for setting, suffix in SETTINGS.items()}
        ranking = rank_tools_by_similarity(
            scenario.starting_context.tool_allow_list,
            tool_sandbox.tools,
            preferred_tool_backend=ToolBackend.DEFAULT,
        )
        try:
            data, demos, inexact = translate(
                name,
                scenario,
                variants,
                PINNED,
                namespace,
                USER_INSTRUCTION,
                agent_prompt,
                KNOWN_TOOLS,
                {},
                ranking,
                COMMIT,
            )
        except Inexact as why:
            left_out.append({"name": name, "reason": f"no exact toolplay form: {why}"})
            continue
        if form == "current" and _several_references(data):
            left_out.append(
                {
                    "name": name,
                    "reason": "a milestone refers to several earlier "
                    "milestones (exported with --format multi only)",
                }
            )
            continue
        key = json.dumps(demos, sort_keys=True)
        demonstrations.setdefault(key, demos)
        data["metadata"]["toolsandbox"]["demonstrations"] = _demo_name(key, demonstrations)
        if form == "current":
            _move_exclusions(data)
        exported.append(data)
        if inexact:
            notes[name] = inexact
    few_shot = named_user_simulator_few_shot_examples()
    prompts = {
        "agent_system_prompt": agent_prompt,
        "user_instruction": USER_INSTRUCTION,
        "demonstrations": {_demo_name(k, demonstrations): v for k, v in demonstrations.items()},
        "few_shot_example_names": sorted(few_shot),
    }
    _write(out / "scenarios.json", exported)
    _write(out / "left_out.json", left_out)
    _write(out / "prompts.json", prompts)
    _write(out / "evaluation.json", evaluation_data(COMMIT))
    _write(out / "rapidapi.json", rapidapi_data(scenarios, COMMIT))
    _write(
        out / "PROVENANCE.json",
        {
            "reference": "apple/ToolSandbox",
            "commit": COMMIT,
            "pinned_clock": PINNED.isoformat() + "+00:00",
            "random_seed": SEED,
            "format": form,
            "exported": len(exported),
            "left_out": len(left_out),
            "inexact": notes,
        },
    )
    shown = export_presentation(out, scenarios, [d["id"] for d in exported], probes)
    return {"bases": len(bases), "exported": len(exported), "left_out": len(left_out), **shown}


def named_base_scenario_rows(scenario: Any, namespace: dict[str, Any]) -> list[dict[str, Any]]:
    """The starting bus of a scenario (for the agent prompt every scenario shares)."""
    from _scenario import bus

    return bus(scenario.starting_context, namespace)


def _several_references(scenario: dict[str, Any]) -> bool:
    for field in ("milestones", "minefields"):
        for item in scenario.get(field, []):
            names = {c.get("reference") or c.get("from") for c in item["constraints"]}
            if len(names - {None, "start"}) > 1:
                return True
    return False


def _demo_name(key: str, table: dict[str, Any]) -> str:
    return f"default_{list(table).index(key)}" if list(table).index(key) else "default"


def _write(path: Path, data: Any) -> None:
    path.write_text(
        json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n", encoding="utf-8"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--format", choices=("current", "multi"), default="multi")
    parser.add_argument(
        "--licence",
        type=Path,
        default=None,
        help="the reference checkout's LICENSE, copied beside the data",
    )
    parser.add_argument(
        "--probes", type=Path, default=None, help="also write the raw tool probes here (tests)"
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    counts = export(args.out, args.format, args.probes)
    if args.licence is not None:
        shutil.copyfile(args.licence, args.out / "LICENSE")
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
