"""What the ToolSandbox reference shows a model, as exported data (`data/presentation/`).

`scripts/toolsandbox_export` writes it by running the reference (Apple's texts, under the
licence beside the data): every tool's OpenAI `function` object under each augmentation
(`tool_functions.json`), the exact tool list of each exported base under each setting
(`scenario_tools.json`), and the reference's error texts (`errors.json`). This module only
loads and looks them up; `_presentation` decides what goes where.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).resolve().parent / "data" / "presentation"

SCRAMBLES = {
    "scrambled_names": "TOOL_NAME_SCRAMBLED",
    "no_tool_descriptions": "TOOL_DESCRIPTION_SCRAMBLED",
    "no_arg_descriptions": "ARG_DESCRIPTION_SCRAMBLED",
    "no_arg_types": "ARG_TYPE_SCRAMBLED",
}
"""toolplay's augmentation -> the reference's augmentation list of the same effect."""


@dataclass(frozen=True)
class Parameter:
    """One parameter of a reference tool, as its argument binding sees it."""

    name: str
    required: bool
    annotation: str
    """`str()` of its annotation, e.g. `typing.Union[str, tool_sandbox.common.utils.NotGiven]`."""


@dataclass(frozen=True)
class ToolFacts:
    """A reference tool's facts its argument binding and error texts need."""

    qualified_name: str
    scrambled_name: str
    typechecked: bool
    parameters: tuple[Parameter, ...]

    def parameter(self, name: str) -> Parameter | None:
        """The parameter `name`, or None."""
        return next((p for p in self.parameters if p.name == name), None)


@dataclass(frozen=True)
class ShownTools:
    """The tools a reference scenario shows under one setting."""

    augmentation: str
    """The reference's augmentation list (`none`, `TOOL_NAME_SCRAMBLED`, ...)."""
    agent: tuple[str, ...]
    """Real names, in the order the reference sends them."""
    user: tuple[str, ...]


@dataclass(frozen=True)
class ReferenceData:
    """Everything exported (module docstring)."""

    registry_order: tuple[str, ...]
    tools: Mapping[str, ToolFacts]
    functions: Mapping[str, Mapping[str, Mapping[str, Any]]]
    """Augmentation -> real name -> the `function` object the agent is shown."""
    user_functions: Mapping[str, Mapping[str, Mapping[str, Any]]]
    """Augmentation -> real name -> the `function` object the user is shown."""
    scenarios: Mapping[str, Mapping[str, ShownTools]]
    """Base scenario -> setting -> its tools."""
    errors: Mapping[str, Any]
    """`templates`, `fixed`, `volatile`, `unknown_tool` (see `errors.json`)."""

    def shown(self, base: str, setting: str) -> ShownTools | None:
        """The tools base scenario `base` shows under `setting`, if it is a reference one."""
        return self.scenarios.get(base, {}).get(setting)

    def function(self, augmentation: str, real: str) -> Mapping[str, Any] | None:
        """The `function` object of `real` under `augmentation` (None: no such tool)."""
        return self.functions.get(augmentation, {}).get(real)

    def agent_name(self, augmentation: str, real: str) -> str:
        """The name the agent is shown for `real` (scrambled under name scrambling)."""
        found = self.function(augmentation, real)
        return str(found["name"]) if found is not None else real


def augmentation_of(setting: str | None) -> str:
    """The reference's augmentation list for a toolplay augmentation setting (`none` when it
    has no scramble the reference knows).
    """
    parts = (setting or "").split("+")
    found = [SCRAMBLES[p] for p in parts if p in SCRAMBLES]
    return found[0] if len(found) == 1 else "none"


def _read(name: str) -> Any:
    return json.loads((FOLDER / name).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def reference_data() -> ReferenceData:
    """The exported data, read once."""
    functions = _read("tool_functions.json")
    scenario_tools = _read("scenario_tools.json")
    tools = {
        name: ToolFacts(
            qualified_name=facts["qualified_name"],
            scrambled_name=facts["scrambled_name"],
            typechecked=facts["typechecked"],
            parameters=tuple(Parameter(**p) for p in facts["parameters"]),
        )
        for name, facts in functions["tools"].items()
    }
    scenarios = {
        base: {
            setting: ShownTools(
                entry["augmentation"], tuple(entry["agent_tools"]), tuple(entry["user_tools"])
            )
            for setting, entry in settings.items()
        }
        for base, settings in scenario_tools["scenarios"].items()
    }
    return ReferenceData(
        registry_order=tuple(functions["registry_order"]),
        tools=tools,
        functions=functions["functions"],
        user_functions=functions["user_functions"],
        scenarios=scenarios,
        errors=_read("errors.json"),
    )
