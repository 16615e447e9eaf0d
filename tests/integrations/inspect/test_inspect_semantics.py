"""Under Inspect, toolplay's semantics hold: infrastructure errors, malformed and parallel
calls, a model-driven user (Inspect's `user` model role), epochs as trials, selection."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "inspect_ai", reason="the inspect extra is not installed (pip install -e '.[inspect]')"
)

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import get_model
from inspect_helpers import (
    MODEL,
    FlawedResponder,
    mock_outputs,
    offline,
    run_scores,
    scenarios_of,
    toolplay_run,
)
from typer.testing import CliRunner

from toolplay.cli import app
from toolplay.integrations.inspect import autode, build_plan, sandbox
from toolplay.messages import Trajectory
from toolplay.runs import load_summary
from toolplay.testing import ChatServer, ReferenceResponder, break_arguments, is_user_request

SANDBOX = scenarios_of("sandbox", 4, ["none"])
AUTODE = scenarios_of("autode", 4)


def endpoint_model(server: ChatServer) -> Any:
    return get_model(f"openai-api/tpserver/{MODEL}", base_url=server.base_url, api_key="k")


def sample_scores(log: EvalLog) -> dict[tuple[str, int], float]:
    assert log.samples is not None
    return {
        (str(s.id), s.epoch - 1): float(s.scores["toolplay_score"].value)
        for s in log.samples
        if s.scores
    }


def metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return {name: m.value for name, m in log.results.scores[0].metrics.items()}


def trajectory(log: EvalLog, sample_id: str) -> Trajectory:
    assert log.samples is not None
    sample = next(s for s in log.samples if s.id == sample_id)
    return Trajectory.model_validate(sample.store["toolplay_trajectory"])


class FailingFor:
    """The reference, except that answering `failing`'s assistant raises (a model fault)."""

    def __init__(self, failing: str) -> None:
        self.failing = failing
        self.reference = FlawedResponder(AUTODE)

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        users = [m for m in request.get("messages") or [] if m.get("role") == "user"]
        if not is_user_request(request) and users and users[0]["content"] == self.failing:
            raise RuntimeError("the model is unreachable")
        return self.reference(request)


def test_an_inspect_model_error_is_an_infrastructure_error_not_a_zero(tmp_path: Path) -> None:
    failing = AUTODE[1]
    responder = FailingFor(failing.script[0])
    model = get_model("mockllm/model", custom_outputs=mock_outputs(responder))
    (log,) = inspect_eval(
        autode(limit=4),
        model=model,
        log_dir=str(tmp_path / "logs"),
        display="none",
        fail_on_error=False,
    )
    assert log.status == "success" and log.samples is not None
    errored = [s for s in log.samples if s.error is not None]
    assert [s.id for s in errored] == [failing.id]
    assert "infrastructure error" in errored[0].error.message  # type: ignore[union-attr]
    assert not errored[0].scores  # no score at all, so no 0 in any metric
    failed = trajectory(log, failing.id)
    assert failed.termination == "infrastructure_error" and "unreachable" in (failed.error or "")
    # toolplay run with the same fault: the same scenario is an error, the same metrics
    with ChatServer(responder) as server:
        summary = toolplay_run(tmp_path / "run", server.base_url, suite="autode", limit=4)
    assert [e.scenario_id for e in summary.error_list] == [failing.id]
    assert sample_scores(log) == pytest.approx(
        {k: v for k, v in run_scores(tmp_path / "run").items() if v is not None}, abs=1e-9
    )
    expected = {k: v for k, v in summary.metrics.values().items() if v is not None}
    assert metrics(log) == pytest.approx(expected, abs=1e-9)
    # imported back: an error, listed, not scored
    result = CliRunner().invoke(
        app, ["import-inspect", log.location, "--out", str(tmp_path / "imported")]
    )
    assert result.exit_code == 3, result.output  # as `toolplay run` with an error
    assert f"inspect eval-retry {log.location}" in result.output
    imported = load_summary(tmp_path / "imported")
    assert imported.errors == 1 and imported.completed == 3
    assert [e.scenario_id for e in imported.error_list] == [failing.id]
    assert imported.metrics.values() == pytest.approx(summary.metrics.values(), abs=1e-9)
    assert imported.termination == summary.termination
    # `inspect eval-retry` (toolplay's --resume) plays the errored sample again, only it; the
    # retried model is mockllm's default (its text answer), so that sample now scores
    retried = subprocess.run(
        [
            str(Path(sys.executable).parent / "inspect"),
            "eval-retry",
            log.location,
            "--log-dir",
            str(tmp_path / "retry"),
            "--display",
            "none",
        ],
        env={**os.environ, **offline(tmp_path)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert retried.returncode == 0, retried.stdout + retried.stderr
    (again,) = [read_eval_log(str(p)) for p in (tmp_path / "retry").glob("*.eval")]
    assert again.samples is not None and not any(s.error for s in again.samples)
    before = sample_scores(log)
    after = sample_scores(again)
    assert set(after) == set(before) | {(failing.id, 0)}
    assert {k: after[k] for k in before} == before


def breaks_first_call(request: dict[str, Any]) -> dict[str, Any]:
    """The reference, with the conversation's first tool call's arguments cut mid-JSON."""
    answer = ReferenceResponder(SANDBOX[:1])(request)
    earlier = [
        m for m in request["messages"] if m.get("role") == "assistant" and m.get("tool_calls")
    ]
    if answer.get("tool_calls") and not earlier and not is_user_request(request):
        return break_arguments(answer)
    return answer


def test_a_malformed_call_goes_back_to_the_model_as_its_result(tmp_path: Path) -> None:
    with ChatServer(breaks_first_call) as server:
        (log,) = inspect_eval(
            sandbox(augmentation="none", limit=1),
            model=endpoint_model(server),
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
    assert log.status == "success"
    played = trajectory(log, SANDBOX[0].id)
    call = next(m for m in played.messages if m.tool_calls).tool_calls[0]
    assert call.arguments == '{"broken": "unterminated'  # the text the model wrote
    answer = next(m for m in played.messages if m.tool_call_id == call.id)
    assert answer.error_type == "malformed_arguments" and answer.recipient == "assistant"
    assert played.termination != "infrastructure_error"
    assert sample_scores(log)  # scored as the assistant's own doing


def test_parallel_calls_match_toolplay_run(tmp_path: Path) -> None:
    with ChatServer(ReferenceResponder(SANDBOX, parallel=True)) as server:
        (log,) = inspect_eval(
            sandbox(augmentation="none", limit=4),
            model=endpoint_model(server),
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
        summary = toolplay_run(
            tmp_path / "run", server.base_url, suite="sandbox", limit=4, augment=["none"]
        )
    assert any(len(m.tool_calls) > 1 for s in SANDBOX for m in trajectory(log, s.id).messages), (
        "the responder should have sent several calls in one message"
    )
    assert sample_scores(log) == pytest.approx(run_scores(tmp_path / "run"), abs=1e-9)
    expected = {k: v for k, v in summary.metrics.values().items() if v is not None}
    assert metrics(log) == pytest.approx(expected, abs=1e-9)
    # what `inspect view` shows: the conversation, the calls, the world changes
    sample = (log.samples or [])[0]
    played = trajectory(log, str(sample.id))
    assert [m.metadata["index"] for m in sample.messages if m.metadata] == [
        m.index for m in played.messages if not (m.sender == "user" and m.tool_calls)
    ]
    assert sum(len(m.tool_calls or []) for m in sample.messages if m.role == "assistant") == sum(
        len(m.tool_calls) for m in played.messages if m.sender == "assistant"
    )
    (info,) = [e for e in sample.events if e.event == "info" and e.source == "toolplay"]
    assert info.data["world_changes"] == [c.model_dump(mode="json") for c in played.changes]
    assert played.changes, "a sandbox scenario changes the world"


def test_user_model_role_plays_a_model_driven_user(tmp_path: Path) -> None:
    with ChatServer(FlawedResponder(SANDBOX)) as server:
        model = endpoint_model(server)
        (log,) = inspect_eval(
            sandbox(augmentation="none", limit=3, user="model"),
            model=model,
            model_roles={"user": model},
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
        summary = toolplay_run(
            tmp_path / "run",
            server.base_url,
            suite="sandbox",
            limit=3,
            augment=["none"],
            user=f"openai:{MODEL}",
        )
        user_requests = [r for r in server.requests if is_user_request(r.body)]
    assert user_requests, "the user simulator must have asked the endpoint"
    assert {trajectory(log, s.id).termination for s in SANDBOX[:3]} == {"user_ended"}
    assert sample_scores(log) == pytest.approx(run_scores(tmp_path / "run"), abs=1e-9)
    expected = {k: v for k, v in summary.metrics.values().items() if v is not None}
    assert metrics(log) == pytest.approx(expected, abs=1e-9)


def test_a_missing_user_model_role_is_refused(tmp_path: Path) -> None:
    model = get_model("mockllm/model", custom_outputs=mock_outputs(FlawedResponder(SANDBOX)))
    (log,) = inspect_eval(
        sandbox(augmentation="none", limit=1, user="model"),
        model=model,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "error"
    assert "user" in json.dumps(log.error.message if log.error else "")


def test_epochs_are_trials(tmp_path: Path) -> None:
    responder = FlawedResponder(AUTODE)
    model = get_model("mockllm/model", custom_outputs=mock_outputs(responder))
    (log,) = inspect_eval(
        autode(mode="static", limit=4),
        model=model,
        epochs=2,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    with ChatServer(responder) as server:
        summary = toolplay_run(
            tmp_path / "run", server.base_url, suite="autode", mode="static", limit=4, trials=2
        )
    assert sample_scores(log) == pytest.approx(run_scores(tmp_path / "run"), abs=1e-9)
    assert {trial for _, trial in sample_scores(log)} == {0, 1}
    expected = {k: v for k, v in summary.metrics.values().items() if v is not None}
    assert metrics(log) == pytest.approx(expected, abs=1e-9)


def test_selection_by_category_and_augmentation() -> None:
    plan = build_plan(
        "sandbox",
        augment="none,distractors_3+scrambled_names",
        category="state_dependency",
        limit=5,
    )
    chosen = list(plan.scenarios.values())
    assert len(chosen) == 5
    assert all("state_dependency" in s.categories for s in chosen)
    assert {s.augmentation or "none" for s in chosen} <= {"none", "distractors_3+scrambled_names"}
    assert plan.mode.name == "dynamic" and plan.selection.catalog_mode == "dynamic"
    static = build_plan("autode", mode="static", limit=1)
    assert static.mode.name == "autode-static"  # the suite's name for the mode, by the catalog


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"user": "nobody"}, "unknown user"),
        ({"mode": "sideways"}, "unknown mode"),
        ({"category": "no_such_category"}, "no scenario matches"),
    ],
)
def test_bad_task_parameters_are_refused_by_name(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build_plan("autode", **kwargs)
