"""The summary's `user_errors` section: counts, the share of trials, the metrics without them,
and `toolplay score` adding it to a run stored before the checks existed.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from support import CATALOG, ChatbotUserEndpoint, load_suite, run_on_endpoint
from toolplay.cli import app
from toolplay.runs import user_error_summary
from toolplay.scenarios import Scenario
from toolplay.scoring import ScenarioScore, Scored
from toolplay.stats import UncertaintySettings
from toolplay.store import RunStore
from toolplay.users import UserError, UserErrors

KINDS = list(CATALOG.user_checks)


def scored(sid: str, value: float, errors: list[str] | None, checked: int = 2) -> Scored:
    scenario = Scenario.model_validate(
        {"id": sid, "world": {"domains": ["settings"]}, "categories": ["c"]}
    )
    found = None
    if errors is not None:
        found = UserErrors(
            checked_messages=checked,
            errors=[
                UserError(kind=k, message_index=1 + i, evidence="x") for i, k in enumerate(errors)
            ],
        )
    score = ScenarioScore(scenario_id=sid, evaluation="state", score=value, user_errors=found)
    return Scored(scenario, score)


def test_counts_share_and_metrics_without_flagged_trials() -> None:
    records = [
        scored("a", 1.0, []),
        scored("b", 0.0, ["loop", "loop", "role_confusion"]),
        scored("c", 0.5, ["invented_information"]),
        scored("d", 1.0, []),
    ]
    section = user_error_summary(records, CATALOG.scorers, KINDS, UncertaintySettings())
    assert section is not None
    assert section.trials == 4 and section.trials_with_errors == 2
    assert section.share_with_errors == 0.5
    assert section.messages_checked == 8 and section.messages_with_errors == 4
    assert list(section.by_kind) == KINDS  # every check listed, zeros included
    assert section.by_kind["loop"].messages == 2 and section.by_kind["loop"].trials == 1
    assert section.by_kind["premature_end"].messages == 0
    clean = section.without_user_errors
    assert clean.trials == 2 and clean.scenarios == 2
    assert clean.metrics.get("score") == 1.0  # a and d; the flagged b and c left out
    assert clean.intervals["score"].estimate == 1.0


def test_no_section_when_no_simulator_spoke() -> None:
    records = [scored("a", 1.0, [], checked=0), scored("b", 0.0, None)]
    assert user_error_summary(records, CATALOG.scorers, KINDS) is None


def test_score_adds_the_section_to_a_run_stored_before_the_checks(tmp_path: Path) -> None:
    from toolplay.testing import ChatServer

    run = tmp_path / "run"
    with ChatServer(ChatbotUserEndpoint(load_suite("quick").scenarios)) as server:
        code, output, summary = run_on_endpoint(server.base_url, run, "--user", "openai:sim")
    assert code == 0, output
    expected = summary["user_errors"]
    # As an older toolplay stored it: scores without `user_errors`, a summary without it.
    store = RunStore.in_dir(run, exclusive=True)
    for result in store.results():
        old = {k: v for k, v in (result.score or {}).items() if k != "user_errors"}
        store.update_score(result.scenario_id, result.trial, old)
    store.close()
    stale = {k: v for k, v in summary.items() if k != "user_errors"}
    (run / "summary.json").write_text(json.dumps(stale))
    result = CliRunner().invoke(app, ["score", str(run)], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert json.loads((run / "summary.json").read_text())["user_errors"] == expected
    assert "Simulated user errors" in result.output
