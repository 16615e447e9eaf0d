"""Scenario files: YAML/JSON loading, and refusals that name file, field and reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support import load_scenario_file, load_scenario_paths, load_suite
from toolplay.scenarios import ScenarioError

GOOD = """
id: ok_1
world:
  domains: [contacts]
  clock: 2024-03-01T10:00:00
user:
  script: ["Add Ann, +15550001111"]
reference:
  - user: "Add Ann, +15550001111"
    calls: [{name: add_contact, arguments: {name: Ann, phone_number: "+15550001111"}}]
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_good_yaml_and_json_load(tmp_path: Path) -> None:
    (scenario,) = load_scenario_file(write(tmp_path, "a.yaml", GOOD))
    assert scenario.id == "ok_1"
    assert scenario.world.clock.tzinfo is not None
    assert scenario.script == ["Add Ann, +15550001111"]
    json_file = write(
        tmp_path, "b.json", scenario.model_copy(update={"id": "ok_2"}).model_dump_json()
    )
    assert load_scenario_file(json_file)[0].id == "ok_2"


@pytest.mark.parametrize(
    ("text", "field", "reason"),
    [
        (GOOD.replace("id: ok_1", "id: 'bad id!'"), "id", "should match pattern"),
        (
            GOOD.replace("domains: [contacts]", "domains: [nosuch]"),
            "world.domains",
            "unknown domain",
        ),
        (GOOD.replace("user:\n", "usr:\n"), "usr", "Extra inputs are not permitted"),
        (
            GOOD.replace("add_contact", "add_contacts"),
            "reference[0].calls[0].name",
            "unknown tool 'add_contacts'",
        ),
        (GOOD.replace("clock: 2024-03-01T10:00:00", "clock: someday"), "world.clock", "datetime"),
        (GOOD + "tools: {allow: [fly]}\n", "tools.allow", "unknown tool"),
        (
            GOOD.replace("  clock:", "  tables: {contacts: [{person_id: p, age: 3}]}\n  clock:"),
            "world.tables.contacts[0]",
            "unknown column",
        ),
        (
            GOOD.replace("  clock:", "  tables: {alarms: []}\n  clock:"),
            "world.tables.alarms",
            "no such table",
        ),
        (GOOD.replace("id: ok_1\n", ""), "id", "Field required"),
    ],
)
def test_bad_file_is_refused_with_file_field_reason(
    tmp_path: Path, text: str, field: str, reason: str
) -> None:
    path = write(tmp_path, "bad.yaml", text)
    with pytest.raises(ScenarioError) as info:
        load_scenario_file(path)
    message = str(info.value)
    assert message.startswith(str(path))
    assert info.value.field == field
    assert reason in message


def test_syntax_errors_name_the_line(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="invalid YAML at line 4"):
        load_scenario_file(write(tmp_path, "s.yaml", "id: x\nworld:\n  domains: [a\n  b: c\n"))
    with pytest.raises(ScenarioError, match="invalid JSON at line 1"):
        load_scenario_file(write(tmp_path, "s.json", "{"))
    with pytest.raises(ScenarioError, match="expected a scenario mapping"):
        load_scenario_file(write(tmp_path, "s2.yaml", "42\n"))
    with pytest.raises(ScenarioError, match="cannot read file"):
        load_scenario_file(tmp_path / "missing.yaml")


def test_list_files_name_the_position(tmp_path: Path) -> None:
    text = (
        "scenarios:\n"
        "  - {id: one, world: {domains: [contacts]}}\n"
        "  - {id: two, world: {domains: [contacts]}, max_turns: 0}\n"
    )
    with pytest.raises(ScenarioError) as info:
        load_scenario_file(write(tmp_path, "many.yaml", text))
    assert info.value.field == "scenarios[1].max_turns"
    assert "greater than or equal to 1" in str(info.value)


def test_duplicate_ids_across_files_are_refused(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", GOOD)
    write(tmp_path, "b.yaml", GOOD)
    with pytest.raises(ScenarioError, match="duplicate id 'ok_1'"):
        load_scenario_paths([tmp_path])


def test_unknown_suite_lists_known_ones() -> None:
    with pytest.raises(ScenarioError, match="unknown suite; known: .*quick"):
        load_suite("definitely-not-a-suite")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_never_crashes_the_loader(tmp_path_factory, text: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("fuzz") / "x.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_scenario_file(path)
    except ScenarioError as exc:
        assert str(path) in str(exc)
