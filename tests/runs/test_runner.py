"""Run machinery against a real HTTP endpoint: errors kept apart, resume, cache, trials."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

import support
from support import load_suite
from toolplay.catalog import Catalog, build_catalog
from toolplay.runs import RunConfig, RunError, apply_options, execute_run
from toolplay.store import RunStore
from toolplay.testing import (
    ChatServer,
    FaultPlan,
    ReferenceResponder,
)

QUICK = load_suite("quick").scenarios
FAST = {"retry_initial": 0.001, "retry_jitter": 0.0, "max_retries": 1, "timeout": 5}


def config(server: ChatServer, out: Path, **fields: Any) -> RunConfig:
    options = {"base_url": server.base_url, **FAST, **fields.pop("options", {})}
    data = {"suite": "quick", "assistant": "openai:ref", "out": out, **fields}
    return RunConfig.model_validate(apply_options(data, options))


def run(cfg: RunConfig, catalog: Catalog | None = None) -> dict[str, Any]:
    return asyncio.run(execute_run(cfg, catalog=catalog)).to_json()


def statuses(out: Path) -> dict[tuple[str, int], str]:
    store = RunStore.in_dir(out)
    try:
        return {(r.scenario_id, r.trial): r.status for r in store.results()}
    finally:
        store.close()


@pytest.fixture()
def server() -> Any:
    with ChatServer(ReferenceResponder(QUICK)) as running:
        yield running


def test_infrastructure_errors_are_stored_listed_unscored_and_retried_on_resume(
    server: ChatServer, tmp_path: Path
) -> None:
    server.set_faults(FaultPlan(rates={"server_error": 1.0}))
    failed = run(config(server, tmp_path / "run"))
    assert failed["completed"] == 0 and failed["errors"] == 5
    assert failed["termination"] == {"infrastructure_error": 5}
    assert all("HTTP 500" in e["error"] for e in failed["error_list"])
    assert failed["metrics"].get("similarity") is None  # nothing was scored as a failure
    assert set(statuses(tmp_path / "run").values()) == {"error"}

    server.set_faults(FaultPlan())
    resumed = run(config(server, tmp_path / "run", resume=True))
    assert resumed["completed"] == 5 and resumed["errors"] == 0
    fresh = run(config(server, tmp_path / "fresh"))
    assert resumed == fresh
    assert (tmp_path / "run" / "summary.json").read_bytes() == (
        tmp_path / "fresh" / "summary.json"
    ).read_bytes()


def test_a_resumed_run_does_not_replay_finished_trials(server: ChatServer, tmp_path: Path) -> None:
    out = tmp_path / "run"
    server.set_faults(FaultPlan(script=[None] * 3, rates={"server_error": 1.0}))
    first = run(config(server, out))
    done_before = {k for k, v in statuses(out).items() if v == "done"}
    assert 0 < len(done_before) < 5 and first["errors"] == 5 - len(done_before)
    server.set_faults(FaultPlan())
    server.requests.clear()
    run(config(server, out, resume=True))
    openings = {r.body["messages"][1]["content"] for r in server.requests}
    replayed = {s.id for s in QUICK if s.script[0] in openings}
    assert replayed.isdisjoint({sid for sid, _ in done_before})
    assert set(statuses(out).values()) == {"done"}


def test_a_crashing_mode_or_scorer_is_recorded_and_the_others_finish(
    server: ChatServer, tmp_path: Path
) -> None:
    # The quick suite, judged by a plugin's scorer that fails on one scenario, played in a
    # plugin's mode that fails on another.
    suite = support.picky_suite(tmp_path / "suite")
    catalog = build_catalog([str(Path(__file__).with_name("crashing_plugin.py"))])
    summary = run(config(server, tmp_path / "run", suite=str(suite), mode="crashy"), catalog)
    errors = {e["scenario_id"]: e["error"] for e in summary["error_list"]}
    assert set(errors) == {"quick_wifi_on", "quick_add_contact"}
    assert "harness bug" in errors["quick_wifi_on"] and "Traceback" in errors["quick_wifi_on"]
    assert "scorer bug" in errors["quick_add_contact"]
    assert summary["completed"] == 3


def test_the_cache_makes_a_rerun_free_and_identical(server: ChatServer, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache.sqlite")
    first = run(config(server, tmp_path / "a", cache=cache, trials=2))
    calls = len(server.requests)
    assert calls > 0
    second = run(config(server, tmp_path / "b", cache=cache, trials=2))
    assert len(server.requests) == calls  # every answer came from the cache
    assert first == second


def test_trials_get_their_own_seed_and_summary_statistics(
    server: ChatServer, tmp_path: Path
) -> None:
    summary = run(config(server, tmp_path / "run", trials=3, options={"seed": 40}))
    seeds = {r.body["seed"] for r in server.requests}
    assert seeds == {40, 41, 42}
    assert summary["scenarios"] == summary["completed"] == 15
    stats = summary["trials"]
    assert stats["k"] == 3 and stats["pass_hat_k"] == {"1": 1.0, "2": 1.0, "3": 1.0}
    assert stats["score_std"] == 0.0
    assert summary["assistant_settings"]["seed"] == 40
    assert summary["user_settings"] == {"name": "scripted"}


def test_scenarios_run_concurrently(tmp_path: Path) -> None:
    with ChatServer(ReferenceResponder(QUICK), latency=0.3) as slow:
        run(config(slow, tmp_path / "run", concurrency=5))
        assert slow.max_in_flight >= 3


def test_resume_accepts_new_operational_options_but_not_new_settings(
    server: ChatServer, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    run(config(server, out, limit=1))
    run(config(server, out, limit=1, resume=True, options={"timeout": 9, "max_retries": 0}))
    with pytest.raises(RunError, match="different configuration"):
        run(config(server, out, limit=1, resume=True, options={"temperature": 0.5}))


def test_each_trajectory_records_both_roles(server: ChatServer, tmp_path: Path) -> None:
    run(config(server, tmp_path / "run", limit=1, user="openai:sim"))
    path = next((tmp_path / "run" / "trajectories").iterdir())
    header = json.loads(path.read_text().splitlines()[0])
    assert header["assistant"] == "openai:ref" and header["user"] == "openai:sim"
    assert header["roles"]["user"]["model"] == "sim"
    assert header["roles"]["user"]["base_url"] == server.base_url
    assert header["roles"]["assistant"]["temperature"] == 0.0
