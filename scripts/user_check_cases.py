"""Turn a run's trajectories into unlabelled cases for the user-error checks' labelled set.

    .venv/bin/python scripts/user_check_cases.py RUN_DIR --source "..." > cases.yaml

Each trajectory becomes one case in the compact form of `tests/users/user_cases.py`: the scenario
by suite and id, and every message verbatim (user and assistant texts, tool calls and results;
the system prompt and model exchanges left out). A person then adds `errors: [KIND, ...]` to
the user messages at fault; the labelled set lives in `tests/users/labelled/`. The cases are
written with no labels and without looking at what the checks say, so the labels are the
person's, not the checks'.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml

from toolplay.messages import Message, Trajectory
from toolplay.runs import stored_config
from toolplay.store import RunStore


def items_of(trajectory: Trajectory) -> list[dict[str, Any]]:
    """The compact messages of a trajectory (see `tests/users/user_cases.py`)."""
    out: list[dict[str, Any]] = []
    for m in trajectory.messages:
        out += _items(m)
    return out


def _items(m: Message) -> list[dict[str, Any]]:
    if m.sender == "user" and m.recipient == "environment":
        return [{"end": True}]
    if m.sender == "user" and m.content is not None:
        return [{"user": m.content}]
    if m.sender == "assistant" and m.tool_calls:
        out = []
        for call in m.tool_calls:
            parsed = call.parsed_arguments()
            out.append({"call": {"name": call.name, "arguments": parsed or call.arguments}})
        return out
    if m.sender == "assistant" and m.content is not None:
        return [{"assistant": m.content}]
    if m.sender == "environment" and m.recipient == "assistant":
        if m.error:
            return [{"tool": m.tool_name, "error": m.error}]
        return [{"tool": m.tool_name, "result": json.loads(json.dumps(m.result, default=str))}]
    return []


def main() -> None:
    """Print the cases of a run as YAML."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--source", required=True, help="How the run was made (one line).")
    parser.add_argument("--prefix", default="", help="Prefix of the case ids.")
    args = parser.parse_args()
    store = RunStore.in_dir(args.run_dir)
    try:
        config = stored_config(args.run_dir, store)
        results = store.results()
    finally:
        store.close()
    cases = []
    for result in results:
        if result.status != "done":
            continue
        trajectory = Trajectory.model_validate(result.trajectory)
        cases.append(
            {
                "id": f"{args.prefix}{trajectory.scenario_id}.t{trajectory.trial}",
                "scenario": {"suite": config.suite, "id": trajectory.scenario_id},
                "termination": trajectory.termination,
                "messages": items_of(trajectory),
            }
        )
    yaml.safe_dump(
        {"source": args.source, "cases": cases},
        sys.stdout,
        sort_keys=False,
        allow_unicode=True,
        width=100,
    )


if __name__ == "__main__":
    main()
