"""The AutoDE user-script format: the built-in suite's coverage, the scenarios a script becomes,
and clear refusals of bad files."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from support import load_script_file, load_suite, load_user_scripts, registry_for
from toolplay.scenarios import ScenarioError

SUITE = load_suite("autode")
BY_ID = {s.id: s for s in SUITE.scenarios}

GOOD = """
world:
  clock: 2024-05-10T09:30:00-07:00
  tables:
    contacts:
      - person_id: c-1
        name: Ana Silva
        phone_number: "+14085550111"
        relationship: friend
        is_self: false
scripts:
  - id: change_ana
    character: Leo, a gardener
    background: Ana changed her number.
    purpose: Update Ana's number.
    label: {modify_contact: {person_id: c-1, phone_number: "+14085550112"}}
    steps: [{search_contacts: {name: Ana}}]
    query: Update a contact for me.
    follow_ups:
      - {ask: "Which contact?", say: "Ana Silva."}
      - {ask: "What is the new number?", say: "+14085550112."}
    reply: Updated.
  - id: wifi_off
    character: Kim, a student
    background: The library wifi is bad.
    purpose: Turn wifi off.
    label: {set_wifi_status: {enabled: false}}
    query: Turn off wifi.
    world:
      clock: 2024-06-01T08:00:00+02:00
"""


def write(tmp_path: Path, text: str, name: str = "scripts.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_builtin_suite_has_five_scripts_for_every_sandbox_tool() -> None:
    tools = set(registry_for(["sandbox"]).tools)
    per_tool = Counter(s.metadata["label"]["name"] for s in SUITE.scenarios)
    assert set(per_tool) == tools and len(tools) == 33
    assert min(per_tool.values()) >= 5
    assert SUITE.default_mode == "dynamic" and SUITE.name == "autode"
    assert all(s.evaluation == "slots" for s in SUITE.scenarios)


def test_the_builtin_suite_varies_how_much_the_first_query_says() -> None:
    asking = [s for s in SUITE.scenarios if "multiple_user_turn" in s.categories]
    complete = [s for s in SUITE.scenarios if "single_user_turn" in s.categories]
    assert len(asking) >= 40 and len(complete) >= 40
    per_tool_asking = Counter(s.metadata["label"]["name"] for s in asking)
    assert len(per_tool_asking) >= 25  # most tools have a script where the assistant must ask
    assert len({s.script[0] for s in SUITE.scenarios}) == len(SUITE)  # fixed queries differ
    assert any(len(s.script) >= 3 for s in asking)


def test_a_script_becomes_a_slots_scenario(tmp_path: Path) -> None:
    change, wifi = load_script_file(write(tmp_path, GOOD))
    assert change.id == "autode_change_ana" and change.evaluation == "slots"
    assert change.world.domains == ["sandbox"]
    assert change.script == ["Update a contact for me.", "Ana Silva.", "+14085550112."]
    assert [(t.user, t.reply) for t in change.reference] == [
        ("Update a contact for me.", "Which contact?"),
        ("Ana Silva.", "What is the new number?"),
        ("+14085550112.", "Updated."),
    ]
    final = change.reference[-1].calls
    assert [c.name for c in final] == ["search_contacts", "modify_contact"]
    assert change.metadata["label"] == {
        "name": "modify_contact",
        "arguments": {"person_id": "c-1", "phone_number": "+14085550112"},
        "accept": {},
        "cleaning": "json",
    }
    assert change.categories == ["multiple_user_turn", "multiple_tool_call"]
    assert change.domain == "contacts"  # a domain is not a behaviour category
    assert change.world.tables["contacts"][0]["name"] == "Ana Silva"
    assert wifi.categories == ["single_user_turn", "single_tool_call"]
    assert wifi.domain == "settings"
    assert wifi.world.clock.isoformat() == "2024-06-01T08:00:00+02:00"
    assert wifi.world.tables["contacts"][0]["person_id"] == "c-1"  # the file's tables stay
    assert wifi.reference[-1].reply == "Done."


def test_the_model_user_gets_persona_facts_and_what_it_does_not_know(tmp_path: Path) -> None:
    change, wifi = load_script_file(write(tmp_path, GOOD))
    goal = change.user.goal or ""
    assert "Leo, a gardener" in goal and "Ana changed her number." in goal
    assert "Update Ana's number." in goal
    knowledge = change.user.knowledge or ""
    assert '"Update a contact for me."' in knowledge
    assert '"What is the new number?" -> +14085550112.' in knowledge
    assert "internal id" in knowledge and "you don't know" in knowledge
    assert "already holds everything" in (wifi.user.knowledge or "")
    assert "internal id" not in (wifi.user.knowledge or "")


def test_a_stated_value_is_not_listed_as_unknown() -> None:
    said = BY_ID["autode_decode_timestamp_direct"].user.knowledge or ""  # the user gives it
    computed = BY_ID["autode_add_reminder_plumber"].user.knowledge or ""  # the assistant must
    assert "POSIX" not in said and "POSIX" in computed


@pytest.mark.parametrize(
    ("edit", "field", "reason"),
    [
        (
            "label: {set_wifi_status: {enabled: false}, get_wifi_status: {}}",
            "scripts[1].label",
            "exactly one function",
        ),
        ("label: {set_wifi: {enabled: false}}", "scripts[1].label", "unknown function 'set_wifi'"),
        (
            "label: {set_wifi_status: {state: false}}",
            "scripts[1].label.set_wifi_status",
            "unknown slot(s) ['state']",
        ),
        (
            "label: {set_wifi_status: {enabled: false}}\n    accept: {state: [off]}",
            "scripts[1].accept",
            "not in the label",
        ),
        (
            "label: {set_wifi_status: {enabled: false}}\n    colour: blue",
            "scripts[1].colour",
            "Extra inputs are not permitted",
        ),
    ],
)
def test_bad_scripts_are_refused_naming_file_field_and_reason(
    tmp_path: Path, edit: str, field: str, reason: str
) -> None:
    text = GOOD.replace("label: {set_wifi_status: {enabled: false}}", edit)
    path = write(tmp_path, text)
    with pytest.raises(ScenarioError) as caught:
        load_script_file(path)
    assert caught.value.source == str(path)
    assert caught.value.field == field
    assert reason in caught.value.reason


def test_a_missing_query_and_broken_yaml_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"scripts\[1\]\.query.*Field required"):
        load_script_file(write(tmp_path, GOOD.replace("    query: Turn off wifi.\n", "")))
    with pytest.raises(ScenarioError, match="invalid YAML at line"):
        load_script_file(write(tmp_path, "scripts:\n  - {id: x\n", "broken.yaml"))
    with pytest.raises(ScenarioError, match="unknown column"):
        load_script_file(
            write(tmp_path, GOOD.replace("is_self: false", "is_self: false\n        age: 3"))
        )


def test_duplicate_ids_and_empty_folders_are_refused(tmp_path: Path) -> None:
    write(tmp_path, GOOD, "a.yaml")
    write(tmp_path, GOOD, "b.yaml")
    with pytest.raises(ScenarioError, match="duplicate id 'autode_change_ana'"):
        load_user_scripts(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ScenarioError, match="no user scripts found"):
        load_user_scripts(empty)


def test_users_load_their_own_scripts_with_the_autode_importer(tmp_path: Path) -> None:
    write(tmp_path, GOOD)
    suite = load_suite(f"autode:{tmp_path}")
    assert [s.id for s in suite.scenarios] == ["autode_change_ana", "autode_wifi_off"]
    assert suite.default_mode == "dynamic"
    with pytest.raises(ScenarioError, match="no such file or folder"):
        load_suite(f"autode:{tmp_path / 'missing'}")
