"""Bad milestone specs are refused at load time, naming the file, field and reason."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from support import parse_scenario
from toolplay.scenarios import ScenarioError, milestone_references

BASE: dict[str, Any] = {
    "id": "t",
    "world": {"domains": ["settings", "contacts", "messaging"]},
    "user": {"script": ["go"]},
}


def load(milestones: list[dict[str, Any]], key: str = "milestones") -> Any:
    data = copy.deepcopy(BASE)
    data[key] = milestones
    return parse_scenario(data, "file.yaml")


STATE = {"kind": "state", "table": "settings", "rows": [{"wifi": True}]}


@pytest.mark.parametrize(
    ("milestones", "field", "reason"),
    [
        (
            [{"constraints": [{**STATE, "table": "nope"}]}],
            "constraints[0].table",
            "unknown table 'nope'",
        ),
        (
            [{"constraints": [{**STATE, "rows": [{"wify": True}]}]}],
            "rows[0]",
            "unknown column(s) ['wify']",
        ),
        (
            [{"constraints": [{"kind": "tool_call", "tool": "send_sms"}]}],
            "tool",
            "unknown tool 'send_sms'",
        ),
        (
            [
                {
                    "constraints": [
                        {"kind": "tool_call", "tool": "search_contacts", "arguments": {"nme": "x"}}
                    ]
                }
            ],
            "tool",
            "no argument(s) ['nme']",
        ),
        (
            [{"after": ["ghost"], "constraints": [STATE]}],
            "milestones[0].after",
            "unknown id 'ghost'",
        ),
        (
            [
                {"id": "a", "after": ["b"], "constraints": [STATE]},
                {"id": "b", "constraints": [STATE]},
            ],
            "after",
            "cycle",
        ),
        (
            [
                {"id": "a", "constraints": [STATE]},
                {
                    "id": "b",
                    "after": [],
                    "constraints": [
                        {"kind": "added", "table": "contacts", "rows": [], "reference": "a"}
                    ],
                },
            ],
            "milestones[1].constraints[0]",
            "must come before this milestone",
        ),
        (
            [{"id": "a", "constraints": [STATE]}, {"id": "a", "constraints": [STATE]}],
            "milestones[1].id",
            "duplicate id 'a'",
        ),
        (
            [{"constraints": [{**STATE, "rows": [{"wifi": {"close": "x"}}]}]}],
            "milestones.0.constraints.0.state.rows",
            "'close' needs a number",
        ),
        (
            [{"constraints": [{"kind": "flow", "from_tool": "search_contacts"}]}],
            "milestones.0.constraints.0.flow",
            "exactly one of `argument` and `template`",
        ),
        (
            [{"constraints": [{"kind": "teleport"}]}],
            "milestones.0.constraints.0",
            "does not match any of the expected tags",
        ),
        ([{"constraints": []}], "milestones.0.constraints", "at least 1 item"),
    ],
)
def test_bad_specs_name_field_and_reason(
    milestones: list[dict[str, Any]], field: str, reason: str
) -> None:
    with pytest.raises(ScenarioError) as caught:
        load(milestones)
    assert caught.value.source == "file.yaml"
    assert field in (caught.value.field or ""), caught.value
    assert reason in caught.value.reason, caught.value


def test_a_milestone_may_refer_to_several_milestones() -> None:
    loaded = load(
        [
            {"id": "a", "constraints": [STATE]},
            {"id": "b", "constraints": [STATE]},
            {
                "constraints": [
                    {"kind": "guardrail", "table": "contacts", "reference": "a"},
                    {"kind": "guardrail", "table": "settings", "reference": ["a", "b"]},
                ]
            },
        ]
    )
    assert milestone_references(loaded.milestones[2]) == ["a", "b"]
    with pytest.raises(ScenarioError, match="'c' must come before"):
        load(
            [
                {"id": "a", "constraints": [STATE]},
                {
                    "constraints": [
                        {"kind": "guardrail", "table": "settings", "reference": ["a", "c"]}
                    ]
                },
                {"id": "c", "constraints": [STATE]},
            ]
        )


def test_guardrail_table_options_name_known_tables() -> None:
    ok = load([{"constraints": [STATE], "guardrail_exclude": ["settings"]}])
    assert ok.milestones[0].guardrail_exclude == ["settings"]
    with pytest.raises(ScenarioError, match="unknown table 'setting'") as caught:
        load([{"constraints": [STATE], "guardrail_tables": ["setting"]}])
    assert "guardrail_tables" in (caught.value.field or "")
    with pytest.raises(ScenarioError, match="ignore_case"):
        load(
            [
                {
                    "constraints": [
                        {
                            "kind": "state",
                            "table": "contacts",
                            "rows": [{"name": {"contains": "B", "ignore_case": "yes"}}],
                        }
                    ]
                }
            ]
        )


def test_milestones_imply_milestone_evaluation_and_minefields_are_checked() -> None:
    assert load([{"constraints": [STATE]}]).evaluation == "milestones"
    with pytest.raises(ScenarioError, match="minefields"):
        load([{"constraints": [{"kind": "guardrail", "table": "x"}]}], key="minefields")


def test_old_files_with_enabled_load_as_on() -> None:
    text = """
id: legacy
world: {domains: [settings]}
reference:
  - user: "wifi off"
    calls:
      - {name: set_wifi_status, arguments: {enabled: false}}
      - {name: set_cellular_service_status, arguments: {on: false}}
milestones:
  - constraints:
      - kind: tool_call
        alternatives:
          - {tool: set_wifi_status, arguments: {enabled: false}}
      - kind: tool_call
        tool: set_low_battery_mode_status
        arguments: {enabled: true}
"""
    loaded = parse_scenario(yaml.safe_load(text), "legacy.yaml")
    calls = loaded.reference[0].calls
    # `enabled`, and the unquoted YAML key `on` (which YAML 1.1 reads as true), both mean `on`
    assert [c.arguments for c in calls] == [{"on": False}, {"on": False}]
    first, second = loaded.milestones[0].constraints
    assert first.alternatives[0].arguments == {"on": False}  # type: ignore[union-attr]
    assert second.arguments == {"on": True}  # type: ignore[union-attr]
