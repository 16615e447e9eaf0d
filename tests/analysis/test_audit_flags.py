"""Each flag fires where a test suite builds its cause, and nowhere else.

Runs under test: `strong` and `weak` (tests/analysis/agents.py), two trials each, over the flag
suite (conftest); the floor and the ceiling are given as runs, or played by the audit itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from toolplay.analysis import AuditInput, AuditSettings, ReportError, audit_runs, load_run, run_role

EXPECTED = {
    "sound_a": {"never_discriminating"},
    "sound_b": set(),
    "broken_gold": {
        "ceiling_fails",
        "milestone_never_reached",
        "failed_by_all",
        "never_discriminating",
    },
    "free": {"passed_by_floor", "never_discriminating"},
    "hard": {"milestone_never_reached", "failed_by_all", "never_discriminating"},
    "flaky": {"unstable", "never_discriminating"},
}
"""What each scenario of the flag suite must raise: its cause, and the flags the two runs
imply (`strong` and `weak` differ only on `sound_b`, so every other scenario is scored alike
by both and cannot tell them apart)."""


RunMaker = Callable[..., Path]
Cli = Callable[..., str]


def audited(*runs: Path, **settings: float) -> dict[str, set[str]]:
    loaded = [load_run(r) for r in runs]
    inputs = [AuditInput(r.path.name, r, run_role(r)) for r in loaded]
    found = audit_runs(inputs, AuditSettings(**settings))
    return {item.id: {f.code for f in item.flags} for item in found.items}


@pytest.fixture(scope="module")
def runs(flag_suite: Path, make_run: RunMaker) -> dict[str, Path]:
    return {
        "strong": make_run(flag_suite, "strong", trials=2),
        "weak": make_run(flag_suite, "weak", trials=2),
        "oracle": make_run(flag_suite, "oracle"),
        "no-call": make_run(flag_suite, "no-call"),
    }


def test_each_flag_fires_exactly_where_its_cause_was_built(runs: dict[str, Path]) -> None:
    assert audited(*runs.values()) == EXPECTED


def test_the_numbers_behind_the_flags(runs: dict[str, Path]) -> None:
    loaded = [load_run(r) for r in runs.values()]
    audit = audit_runs([AuditInput(r.path.name, r, run_role(r)) for r in loaded], AuditSettings())
    items = {i.id: i for i in audit.items}
    assert [r.role for r in audit.runs] == ["run", "run", "ceiling", "floor"]
    assert items["sound_b"].solve_rate == 0.5
    # the two runs differ only here: their scores elsewhere (the rest) are equal, so no r
    assert items["sound_b"].discrimination.r is None
    assert items["broken_gold"].ceiling == 0.0 and items["free"].floor == 1.0
    assert items["flaky"].trial_disagreement == 1.0
    assert [r.scores for r in items["flaky"].runs] == [[1.0, 0.0], [1.0, 0.0]]
    reach = items["hard"].milestones[0]
    assert (reach.id, reach.best, reach.runs_reaching, reach.ceiling) == ("added", 0.0, 0, 1.0)
    hard = next(f for f in items["hard"].flags if f.code == "milestone_never_reached")
    assert "the reference reaches it" in hard.detail
    broken = next(f for f in items["broken_gold"].flags if f.code == "milestone_never_reached")
    assert "not even the reference reaches it" in broken.detail
    ceiling = next(f for f in items["broken_gold"].flags if f.code == "ceiling_fails")
    assert [(e.run, e.trial) for e in ceiling.evidence] == [(runs["oracle"].name, 0)]
    # most suspect first: the broken gold (5 + 3 + 2 + 1), then the free one (4 + 1), ...
    assert [i.id for i in audit.items[:3]] == ["broken_gold", "hard", "free"]
    assert [e.scenario for e in audit.proposed_errata] == ["broken_gold", "free"]
    assert all(e.withdraw and e.version == "1" for e in audit.proposed_errata)


def test_without_a_floor_or_ceiling_their_flags_cannot_fire(runs: dict[str, Path]) -> None:
    found = audited(runs["strong"], runs["weak"])
    assert found == {
        sid: flags - {"ceiling_fails", "passed_by_floor"} for sid, flags in EXPECTED.items()
    }


def test_the_thresholds_are_settings(runs: dict[str, Path]) -> None:
    found = audited(runs["strong"], runs["weak"], unstable=1.0)
    assert "unstable" in found["flaky"]  # 1.0 disagreement still reaches 1.0
    one_run = audited(runs["strong"], runs["oracle"])
    assert "never_discriminating" not in set().union(*one_run.values())  # needs two runs
    assert "unstable" in one_run["flaky"]


def test_the_cli_plays_the_missing_baselines_and_writes_the_files(
    runs: dict[str, Path], tmp_path: Path, cli: Cli
) -> None:
    out = tmp_path / "audit"
    output = cli("audit", str(runs["strong"]), str(runs["weak"]), "--out", str(out), columns=80)
    assert (out / "audit.json").is_file() and (out / "audit.csv").is_file()
    data = json.loads((out / "audit.json").read_text())
    schema = json.loads((Path(__file__).parents[2] / "docs/schema/audit.schema.json").read_text())
    jsonschema.validate(data, schema)
    found = {i["id"]: {f["code"] for f in i["flags"]} for i in data["items"]}
    assert found == EXPECTED  # the floor and ceiling the audit played raise their flags
    assert [(r["role"], r["played"]) for r in data["runs"]][2:] == [
        ("floor", True),
        ("ceiling", True),
    ]
    assert {p.name.split("-")[0] for p in (out / "baselines").iterdir()} == {"floor", "ceiling"}
    rows = (out / "audit.csv").read_text().splitlines()
    assert rows[0].startswith("rank,scenario,suspicion,flags,solve_rate")
    assert [r.split(",")[1] for r in rows[1:4]] == ["broken_gold", "hard", "free"]
    assert "errata.proposed.yaml" in output
    # at 80 columns every scenario id and number of the table is whole, on one line
    table = output[output.index("Most suspect scenarios") :]
    for sid in EXPECTED:
        if EXPECTED[sid]:
            assert any(line.split()[:1] == [sid] for line in table.splitlines())
    assert all(len(line) <= 80 for line in output.splitlines())
    # a second audit reuses the baselines it played
    before = sorted(p.name for p in (out / "baselines").iterdir())
    cli("audit", str(runs["strong"]), str(runs["weak"]), "--out", str(out))
    assert sorted(p.name for p in (out / "baselines").iterdir()) == before
    assert json.loads((out / "audit.json").read_text()) == data


def test_proposed_errata_score_as_they_say(runs: dict[str, Path], tmp_path: Path, cli: Cli) -> None:
    out = tmp_path / "audit"
    cli("audit", *map(str, runs.values()), "--out", str(out), "--no-baselines")
    draft = out / "errata.proposed.yaml"
    errata_schema = Path(__file__).parents[2] / "docs/schema/errata.schema.json"
    jsonschema.validate(yaml.safe_load(draft.read_text()), json.loads(errata_schema.read_text()))
    cli("score", str(runs["oracle"]), "--errata", str(draft), "--suite-version", "1")
    summary = json.loads((runs["oracle"] / "summary.json").read_text())
    assert summary["scenarios"] == 4 and summary["metrics"]["similarity"] == 1.0
    cli("score", str(runs["oracle"]), "--suite-version", "none")


def test_runs_of_different_suites_are_refused(
    runs: dict[str, Path],
    make_run: RunMaker,
    tmp_path: Path,
    cli: Cli,
    suite_writer: Callable[..., Path],
    contact_scenario: Callable[..., dict[str, Any]],
) -> None:
    scenario = contact_scenario("sound_a", "Alice Chen", "+14155550101")
    other = suite_writer(tmp_path / "other", [scenario])
    elsewhere = make_run(other, "strong")
    with pytest.raises(ReportError, match="audit compares runs of one suite"):
        audited(runs["strong"], elsewhere)
    output = cli("audit", str(runs["oracle"]), "--out", str(tmp_path / "a"), status=2)
    assert "at least one run under test" in output
    output = cli(
        "audit", str(runs["strong"]), str(elsewhere), "--out", str(tmp_path / "b"), status=2
    )
    assert "audit compares runs of one suite" in output
    # refused before anything is played or written: no baselines, no files
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_reverse_discrimination_needs_strong_runs_doing_worse(
    make_run: RunMaker,
    tmp_path_factory: pytest.TempPathFactory,
    suite_writer: Callable[..., Path],
    contact_scenario: Callable[..., dict[str, Any]],
) -> None:
    people = [(f"ladder_{i}", f"Person {i}", f"+1415555020{i}") for i in range(1, 6)]
    suite = suite_writer(
        tmp_path_factory.mktemp("ladder") / "ladder",
        [contact_scenario(*p) for p in people]
        + [contact_scenario("reverse", "Fay Lund", "+14155550106")],
    )
    levels = [make_run(suite, f"level{k}") for k in range(6)]
    loaded = [load_run(r) for r in levels]
    audit = audit_runs([AuditInput(r.path.name, r, run_role(r)) for r in loaded], AuditSettings())
    items = {i.id: i for i in audit.items}
    reverse = items["reverse"]
    assert {f.code for f in reverse.flags} == {"reverse_discrimination"}
    assert reverse.discrimination.n == 6 and reverse.discrimination.high is not None
    assert reverse.discrimination.r is not None and reverse.discrimination.r < -0.85
    assert reverse.discrimination.high < 0 < items["ladder_3"].discrimination.r
    for step in ("ladder_2", "ladder_3", "ladder_4"):
        assert items[step].flags == []
    assert audit.items[0].id == "reverse"


SCRIPTS = """\
scripts:
  - id: slot_plain
    character: Sam, organising a dinner
    background: Alice is a new colleague.
    purpose: Save Alice's number.
    label: {add_contact: {name: Alice Chen, phone_number: "+14155550101"}}
    query: Please add Alice Chen, her number is +14155550101.
    follow_ups: []
  - id: slot_format
    character: Sam, organising a dinner
    background: Bob is an old friend.
    purpose: Save Bob's number.
    label: {add_contact: {name: Bob Rivera, phone_number: "+14155550102"}}
    query: Please add Bob Rivera, his number is +14155550102.
    follow_ups: []
"""


def test_a_slot_nobody_fills_is_flagged_and_a_correction_proposed(
    tmp_path: Path, cli: Cli, make_run: RunMaker
) -> None:
    scripts = tmp_path / "scripts.yaml"
    scripts.write_text(SCRIPTS)
    suite = f"autode:{scripts}"
    runs = [make_run(suite, "slot_filler", trials=t) for t in (1, 2)]
    loaded = [load_run(r) for r in runs]
    audit = audit_runs([AuditInput(str(r.path), r, run_role(r)) for r in loaded], AuditSettings())
    items = {i.id: i for i in audit.items}
    assert {f.code for f in items["autode_slot_plain"].flags} == {"never_discriminating"}
    formatted = items["autode_slot_format"]
    assert {f.code for f in formatted.flags} == {
        "slot_never_filled",
        "failed_by_all",
        "never_discriminating",
    }
    phone = next(s for s in formatted.slots if s.slot == "phone_number")
    assert (phone.correct, phone.wrong, phone.missing) == (0, 3, 0)
    assert (phone.common, phone.common_count, phone.common_runs) == ("(415) 555-0102", 3, 2)
    name = next(s for s in formatted.slots if s.slot == "name")
    assert (name.correct, name.runs_filling) == (3, 2)
    flag = next(f for f in formatted.flags if f.code == "slot_never_filled")
    assert "phone_number (gold '+14155550102': wrong 3, missing 0" in flag.detail
    assert "name" not in flag.detail.split("phone_number")[0]
    [draft] = audit.proposed_errata
    assert draft.scenario == "autode_slot_format"
    assert draft.set == {"metadata.label.arguments.phone_number": "(415) 555-0102"}
