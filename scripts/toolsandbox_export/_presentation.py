"""What the reference SHOWS a model, as data: tool schemas, tool lists, error texts.

Written to `presentation/` beside the suite's data (toolplay's `toolsandbox` presentation reads
it; see `src/toolplay/methods/toolsandbox/README.md`, "What the model is shown"):

- `tool_functions.json`: every registered tool's OpenAI `function` object exactly as the
  reference's `convert_to_openai_tool` builds it under each augmentation (none, the three
  description/type scrambles, name scrambling: the reference's global scrambled names), the
  user's tools as the user role builds them, the registry order, and per tool the facts its
  argument binding and error texts need (module-qualified name, whether `@typechecked`, each
  parameter's `str(annotation)` and whether it is required).
- `scenario_tools.json`: per exported base and setting, the augmentation and the exact list of
  tools the agent is shown (real names, in the order sent) and the user's tools, read from
  the reference's own scenario contexts and cross-checked with the rule that produces them.
- `errors.json`: the error texts (`_errors.py`), derived from probes of the reference's tools
  (`_probes.py`).

Everything is produced by running the reference's functions (never typed) and is Apple's, under
the licence beside the data.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

from _errors import error_table
from _probes import patch_uuid4, tool_probes
from _scenario import SETTINGS

AUGMENTATIONS = (
    "none",
    "TOOL_DESCRIPTION_SCRAMBLED",
    "ARG_DESCRIPTION_SCRAMBLED",
    "ARG_TYPE_SCRAMBLED",
    "TOOL_NAME_SCRAMBLED",
)
"""The reference's augmentation lists a setting can have (at most one each)."""

DISTRACTORS = {"none": 0, "distractors_3": 3, "distractors_10": 10, "distractors_all": None}

LICENCE = (
    "Produced by running apple/ToolSandbox at commit 165848b (tool descriptions, argument "
    "descriptions, names, error texts): Apple's, under the licence in LICENSE beside this data."
)


def _augmentation(context: Any) -> str:
    names = [str(a) for a in context.tool_augmentation_list or []]
    if len(names) > 1:
        raise ValueError(f"more than one augmentation: {names}")
    return names[0] if names else "none"


def _visible(tool: Any, role: str) -> bool:
    return role in [str(v) for v in getattr(tool, "visible_to", ("AGENT",))]


def tool_functions() -> dict[str, Any]:
    """`tool_functions.json` (module docstring)."""
    from tool_sandbox.common.execution_context import (
        ExecutionContext,
        ScenarioCategories,
        set_current_context,
    )
    from tool_sandbox.common.tool_conversion import convert_to_openai_tool

    base = ExecutionContext()
    tools = {}
    for name, tool in base.name_to_tool.items():
        # register_as_tool's decorator.decorate closes over the function it wraps; a
        # @typechecked tool's is the `typechecker` wrapper (common/validators.py).
        inner = inspect.getclosurevars(tool).nonlocals.get("func")
        checked = getattr(getattr(inner, "__code__", None), "co_name", "") == "typechecker"
        tools[name] = {
            "module": tool.__module__,
            "qualified_name": f"{tool.__module__}.{tool.__qualname__}",
            "scrambled_name": base._actual_to_scrambled_tool_name[name],
            "visible_to": [str(v) for v in getattr(tool, "visible_to", ())],
            "typechecked": checked,
            "parameters": [
                {
                    "name": p.name,
                    "required": p.default is inspect.Parameter.empty,
                    "annotation": str(p.annotation),
                }
                for p in inspect.signature(tool).parameters.values()
            ],
        }
    functions: dict[str, dict[str, Any]] = {}
    user_functions: dict[str, dict[str, Any]] = {}
    for key in AUGMENTATIONS:
        context = ExecutionContext(
            tool_augmentation_list=[] if key == "none" else [ScenarioCategories[key]]
        )
        set_current_context(context)
        functions[key], user_functions[key] = {}, {}
        for name, tool in context.name_to_tool.items():
            if _visible(tool, "AGENT"):  # as openai_api_agent.py builds it: agent-facing name
                shown = context.get_agent_facing_tool_name(name)
                functions[key][name] = convert_to_openai_tool(tool, shown)["function"]
            if _visible(tool, "USER"):  # as openai_api_user.py builds it: its own name
                user_functions[key][name] = convert_to_openai_tool(tool)["function"]
    return {
        "licence": LICENCE,
        "how": "tool_conversion.convert_to_openai_tool(tool, agent-facing name)['function'] "
        "under an ExecutionContext whose tool_augmentation_list is the key; registry order is "
        "ExecutionContext().name_to_tool (tool_discovery.find_tools_by_module)",
        "registry_order": list(base.name_to_tool),
        "tools": tools,
        "functions": functions,
        "user_functions": user_functions,
    }


def scenario_tools(scenarios: dict[str, Any], bases: list[str]) -> dict[str, Any]:
    """`scenario_tools.json` (module docstring)."""
    import tool_sandbox.tools
    from tool_sandbox.common.execution_context import ExecutionContext, set_current_context
    from tool_sandbox.common.tool_discovery import ToolBackend, rank_tools_by_similarity

    registry = ExecutionContext().name_to_tool
    out: dict[str, Any] = {}
    for base in bases:
        allow = scenarios[base].starting_context.tool_allow_list or []
        ranking = rank_tools_by_similarity(
            allow, tool_sandbox.tools, preferred_tool_backend=ToolBackend.DEFAULT
        )
        out[base] = {}
        for setting, suffix in SETTINGS.items():
            context = scenarios[base + suffix].starting_context
            set_current_context(context)
            agent = [
                t.__name__
                for t in context.get_available_tools(scrambling_allowed=True).values()
                if _visible(t, "AGENT")
            ]
            user = [
                t.__name__
                for t in context.get_available_tools(scrambling_allowed=False).values()
                if _visible(t, "USER")
            ]
            # Cross-check with the rule: registry order, the base's tools plus the first k of
            # the ranking (denied ones take a slot and are then hidden).
            count = DISTRACTORS.get(setting.split("+")[0], 3)
            chosen = set(allow) | set(ranking if count is None else ranking[:count])
            deny = set(context.tool_deny_list or [])
            rule = [n for n, t in registry.items() if n in chosen - deny and _visible(t, "AGENT")]
            if rule != agent:
                raise AssertionError(f"{base} {setting}: rule {rule} != reference {agent}")
            out[base][setting] = {
                "augmentation": _augmentation(context),
                "agent_tools": agent,
                "user_tools": user,
            }
    return {"licence": LICENCE, "settings": SETTINGS, "scenarios": out}


def export_presentation(
    out: Path, scenarios: dict[str, Any], bases: list[str], probes_out: Path | None = None
) -> dict[str, int]:
    """Write `out/presentation/` (and the raw probe texts to `probes_out`, for tests)."""
    folder = out / "presentation"
    folder.mkdir(parents=True, exist_ok=True)
    patch_uuid4()
    probes = tool_probes()
    errors = {"licence": LICENCE, **error_table(probes)}
    _write(folder / "tool_functions.json", tool_functions())
    _write(folder / "scenario_tools.json", scenario_tools(scenarios, bases))
    _write(folder / "errors.json", errors)
    _write(folder / "PROVENANCE.json", _provenance(folder, len(probes)))
    if probes_out is not None:
        probes_out.parent.mkdir(parents=True, exist_ok=True)
        _write(probes_out, {"licence": LICENCE, "probes": probes})
    return {"probes": len(probes), "templates": len(errors["templates"])}


def _provenance(folder: Path, probes: int) -> dict[str, Any]:
    import hashlib
    import importlib.metadata as md
    import sys

    from _pinned import PINNED

    packages = ["rapidfuzz", "polars", "pint", "holidays", "geopy", "phonenumbers", "openai"]
    return {
        "reference": "apple/ToolSandbox",
        "commit": "165848b",
        "licence": LICENCE,
        "python": sys.version.split()[0],
        "packages": {name: md.version(name) for name in packages},
        "pinned_clock": PINNED.isoformat() + "+00:00",
        "timezone": "UTC",
        "how": {
            "tool_functions.json": "tool_conversion.convert_to_openai_tool of every registered "
            "tool under each augmentation list; parameter facts from inspect.signature",
            "scenario_tools.json": "ExecutionContext.get_available_tools of each exported "
            "scenario variant's starting context (cross-checked with the ranking rule)",
            "errors.json": f"{probes} probes of the reference's tools through its execution "
            "environment (scripts/toolsandbox_export/probe_cases.json); templates derived "
            "from them and checked against every probe of their family",
        },
        "files": {
            f.name: hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(folder.glob("*.json"))
            if f.name != "PROVENANCE.json"
        },
    }


def _write(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
