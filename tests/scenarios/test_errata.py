"""Errata files: validation naming file, line and field; applying versions; played views."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import context, load_suite
from toolplay.scenarios import (
    ErrataError,
    apply_errata,
    load_errata,
    played_view,
    version_key,
)

ADD = "quick_add_contact"
TEXT = "quick_text_contact"

GOOD = f"""\
errata_format: 1
suite: quick
entries:
  - version: "1"
    scenario: {ADD}
    what: the milestone wants Alice Chan
    why: a test of a scoring-only change
    set:
      milestones.0.constraints.0.rows.0.name: Alice Chan
  - version: "1.1"
    scenario: {TEXT}
    what: withdrawn
    why: a test of a withdrawal
    withdraw: true
  - version: "2"
    scenario: {ADD}
    what: the user asks for someone else
    why: a test of a change to what is played
    set:
      user.script.0: Please add Bo Li to my contacts.
    unset: [description]
"""


def write(tmp_path: Path, text: str, name: str = "errata.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def quick() -> tuple[list, list[str]]:
    suite = load_suite("quick")
    return list(suite.scenarios), [e.id for e in suite.entries()]


def test_versions_are_ordered_as_numbers() -> None:
    ordered = ["none", "1", "1.1", "1.2", "2", "10", "10.0.1"]
    assert sorted(reversed(ordered), key=version_key) == ordered


def test_a_good_file_loads_with_its_versions_and_lines(tmp_path: Path) -> None:
    errata = load_errata(write(tmp_path, GOOD))
    assert errata.versions == ["1", "1.1", "2"]
    assert [errata.line(i) for i in range(3)] == [4, 10, 15]
    assert [e.scenario for _, e in errata.upto("1.1")] == [ADD, TEXT]
    assert errata.check_version("none") == "none"
    with pytest.raises(ErrataError, match=r"no version '3'; known: none, 1, 1.1, 2"):
        errata.check_version("3")


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (
            "errata_format: 1\nentries:\n  - version: 1\n    scenario: a\n    what: x\n",
            r"errata.yaml:3: field 'entries\[0\]\.version': Input should be a valid string",
        ),
        (
            'errata_format: 1\nentries:\n  - version: "1"\n    scenario: a\n    what: x\n'
            "    set: {a: 1}\n",
            r"errata.yaml:3: field 'entries\[0\]\.why': Field required",
        ),
        (
            'errata_format: 1\nentries:\n  - version: "v1"\n    scenario: a\n    what: x\n'
            "    why: y\n    withdraw: true\n",
            r"errata.yaml:3: field 'entries\[0\]\.version': String should match pattern",
        ),
        (
            'errata_format: 1\nentries:\n  - version: "1"\n    scenario: a\n    what: x\n'
            "    why: y\n    withdraw: true\n    set: {a: 1}\n",
            r"errata.yaml:3: field 'entries\[0\]': an entry either withdraws its scenario or "
            "changes it, not both",
        ),
        (
            'errata_format: 1\nentries:\n  - version: "1"\n    scenario: a\n    what: x\n'
            "    why: y\n",
            r"errata.yaml:3: field 'entries\[0\]': an entry needs `set`",
        ),
        (
            'errata_format: 1\nentries:\n  - version: "1"\n    scenario: a\n    what: x\n'
            "    why: y\n    withdraw: true\n    colour: red\n",
            r"errata.yaml:8: field 'entries\[0\]\.colour': Extra inputs are not permitted",
        ),
        ("errata_format: 2\nentries: []\n", r"errata.yaml:1: field 'errata_format'"),
        ("entries: [\n", r"errata.yaml:2: not valid YAML or JSON"),
        ("- just a list\n", r"errata.yaml:1: expected a mapping"),
    ],
)
def test_a_bad_file_is_refused_naming_line_and_field(tmp_path: Path, text: str, where: str) -> None:
    with pytest.raises(ErrataError, match=where):
        load_errata(write(tmp_path, text))


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ErrataError, match="nope.yaml: no such errata file"):
        load_errata(tmp_path / "nope.yaml")


def test_a_version_applies_every_entry_up_to_it(tmp_path: Path) -> None:
    errata = load_errata(write(tmp_path, GOOD))
    scenarios, ids = quick()
    original = {s.id: s for s in scenarios}
    at_none = apply_errata(scenarios, errata, "none", context(), ids)
    assert at_none.scenarios == scenarios and not at_none.withdrawn
    at_1 = apply_errata(scenarios, errata, "1", context(), ids)
    fixed = {s.id: s for s in at_1.scenarios}
    assert fixed[ADD].milestones[0].constraints[0].rows[0]["name"] == "Alice Chan"
    assert original[ADD].milestones[0].constraints[0].rows[0]["name"] == "Alice Chen"
    assert played_view(fixed[ADD]) == played_view(original[ADD])  # scoring only
    at_11 = apply_errata(scenarios, errata, "1.1", context(), ids)
    assert at_11.withdrawn == [TEXT] and TEXT not in {s.id for s in at_11.scenarios}
    at_2 = {s.id: s for s in apply_errata(scenarios, errata, "2", context(), ids).scenarios}
    assert at_2[ADD].user.script == ["Please add Bo Li to my contacts."]
    assert at_2[ADD].description == ""  # unset: back to the default
    assert played_view(at_2[ADD]) != played_view(original[ADD])


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("scenario: nope\n    set: {description: x}", "the suite has no scenario 'nope'"),
        (f"scenario: {ADD}\n    set: {{user.goal.text: x}}", "the scenario has no 'user.goal'"),
        (f"scenario: {ADD}\n    set: {{milestones.7.id: x}}", r"has no item '7' \(it has 2\)"),
        (f"scenario: {ADD}\n    set: {{description.x: y}}", "'description' is a value"),
        (f"scenario: {ADD}\n    unset: [metadata.nothing]", "metadata.nothing: nothing to remove"),
        (
            f"scenario: {ADD}\n    set: {{max_turns: 0}}",
            "the corrected scenario 'quick_add_contact' is invalid: .*max_turns",
        ),
        (f"scenario: {ADD}\n    set: {{id: other}}", "cannot change a scenario's id"),
        (f"scenario: {ADD}\n    set: {{milestones.0.constraints.0.table: nowhere}}", "is invalid"),
    ],
)
def test_a_bad_entry_is_refused_naming_its_line(tmp_path: Path, entry: str, message: str) -> None:
    text = (
        'errata_format: 1\nentries:\n  - version: "1"\n    what: x\n    why: y\n    ' + entry + "\n"
    )
    errata = load_errata(write(tmp_path, text))
    scenarios, ids = quick()
    with pytest.raises(ErrataError, match=r"errata\.yaml:3: field 'entries\[0\]"):
        apply_errata(scenarios, errata, "1", context(), ids)
    with pytest.raises(ErrataError, match=message):
        apply_errata(scenarios, errata, "1", context(), ids)


def test_the_digest_follows_the_entries_up_to_a_version(tmp_path: Path) -> None:
    first = load_errata(write(tmp_path, GOOD))
    more = (
        GOOD
        + f"""\
  - version: "3"
    scenario: {ADD}
    what: later
    why: later
    withdraw: true
"""
    )
    appended = load_errata(write(tmp_path, more, "more.yaml"))
    assert appended.digest("2") == first.digest("2")  # a new version leaves older ones alone
    edited = load_errata(write(tmp_path, GOOD.replace("Alice Chan", "Alice Chin"), "e.yaml"))
    assert edited.digest("1") != first.digest("1")
    assert edited.digest("none") == first.digest("none")
