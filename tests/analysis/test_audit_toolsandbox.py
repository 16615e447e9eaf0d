"""The audit over runs of the `toolsandbox` suite: the oracle, no-call and two perturbed python
assistants (tests/analysis/sandbox_agents.py). It must flag exactly what the perturbations
build, and nothing on the scenarios both assistants play as the reference does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from toolplay.analysis import AuditInput, AuditSettings, audit_runs, load_run, run_role
from toolplay.catalog import build_catalog
from toolplay.runs import select_scenarios

AGENTS = Path(__file__).with_name("sandbox_agents.py")
IDS = [s.id for s in select_scenarios(build_catalog().load_suite("toolsandbox"), 6, ["none"])]


@pytest.fixture(scope="module")
def audit(tmp_path_factory: pytest.TempPathFactory, cli: Callable[..., str]) -> dict:
    root = tmp_path_factory.mktemp("toolsandbox")
    runs = []
    for name, assistant, trials in (
        ("careful", f"python:{AGENTS}:careful", 2),
        ("sloppy", f"python:{AGENTS}:sloppy", 2),
        ("oracle", "oracle", 1),
        ("no-call", "no-call", 1),
    ):
        out = root / name
        cli(
            "run",
            "--suite",
            "toolsandbox",
            "--augment",
            "none",
            "--limit",
            "6",
            "--trials",
            str(trials),
            "--assistant",
            assistant,
            "--out",
            str(out),
        )
        runs.append(load_run(out))
    found = audit_runs([AuditInput(r.label, r, run_role(r)) for r in runs], AuditSettings())
    return {item.id: item for item in found.items}


def test_the_audit_flags_exactly_the_perturbations(audit: dict) -> None:
    flags = {sid: {f.code for f in item.flags} for sid, item in audit.items()}
    assert flags == {
        # both make the calls and word the reply their own way: the reply milestone is missed
        IDS[0]: {"failed_by_all", "milestone_never_reached", "never_discriminating"},
        # both do nothing: no trial passes, no milestone is reached, both score 0
        IDS[1]: {"failed_by_all", "milestone_never_reached", "never_discriminating"},
        # both flip between the reference and nothing: unstable (and equal on average)
        IDS[2]: {"unstable", "never_discriminating"},
        # only sloppy gives up here: the one scenario that tells them apart
        IDS[3]: set(),
        # both play the reference: solved by all, nothing to tell them apart
        IDS[4]: {"never_discriminating"},
        IDS[5]: {"never_discriminating"},
    }


def test_the_evidence_names_the_milestone_and_the_trials(audit: dict) -> None:
    reply = audit[IDS[0]]
    reached = {m.id: (m.runs_reaching, m.ceiling) for m in reply.milestones}
    missed = [m for m, (runs, _) in reached.items() if runs == 0]
    assert missed == ["1"] and reached["1"][1] == 1.0  # the reply; the reference reaches it
    assert reached["0"][0] == 2  # the contact was added by both
    flag = next(f for f in reply.flags if f.code == "milestone_never_reached")
    assert f"milestone {missed[0]} " in flag.detail and "the reference reaches it" in flag.detail
    assert {(e.run, e.trial) for e in flag.evidence} <= {
        (r, t) for r in ("careful", "sloppy") for t in (0, 1)
    }
    nothing = next(f for f in audit[IDS[1]].flags if f.code == "milestone_never_reached")
    assert nothing.detail.startswith("milestone 0 (best 0.000; the reference reaches it), 1 ")
    flaky = audit[IDS[2]]
    assert flaky.trial_disagreement == 1.0 and flaky.solve_rate == 0.5
    assert all(r.scores == [1.0, 0.0] for r in flaky.runs)
    assert audit[IDS[3]].solve_rate == 0.5
    assert all(item.ceiling == 1.0 and item.floor == 0.0 for item in audit.values())
