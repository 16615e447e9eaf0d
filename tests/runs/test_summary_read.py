"""The summary reads only `SUMMARY_KEYS` of each stored trajectory: same bytes as a full read."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from support import load_suite
from toolplay.runs import RunConfig, _runner, apply_options, execute_run, rescore_run
from toolplay.store import SUMMARY_FILE
from toolplay.testing import ChatServer, FaultPlan, ReferenceResponder

QUICK = load_suite("quick").scenarios
FAST = {"retry_initial": 0.001, "retry_jitter": 0.0, "max_retries": 0, "timeout": 5}


def test_summary_from_picked_keys_is_the_summary_from_full_trajectories(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    with ChatServer(ReferenceResponder(QUICK)) as server:
        # some trials end in an infrastructure error: their errors and terminations count too
        server.set_faults(FaultPlan(rates={"server_error": 0.4}, seed=3))
        options = {"base_url": server.base_url, **FAST}
        data = {"suite": "quick", "assistant": "openai:ref", "out": out, "trials": 3}
        summary = asyncio.run(execute_run(RunConfig.model_validate(apply_options(data, options))))
    assert summary.errors and summary.completed  # both kinds are in it
    picked = (out / SUMMARY_FILE).read_bytes()
    monkeypatch.setattr(_runner, "SUMMARY_KEYS", None)  # every trajectory decoded whole
    rescore_run(out)
    assert (out / SUMMARY_FILE).read_bytes() == picked
