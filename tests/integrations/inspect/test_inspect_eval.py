"""`inspect eval toolplay/...` gives the scores and metrics of `toolplay run`, to 1e-9.

Each task family (sandbox, ToolTalk static, AutoDE static and dynamic) is played by Inspect,
through its Python API and its CLI, with Inspect's mock model and with its OpenAI-compatible
provider pointed at toolplay's test endpoint, and compared with `toolplay run` of the same
scenarios with the same scripted behaviour (`conftest.FlawedResponder`). The logs are then
imported back into run folders, which summarise like the toolplay runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
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
    DEFAULT_MOCK_OUTPUT,
    MODEL,
    FlawedResponder,
    mock_outputs,
    offline,
    require_tooltalk,
    run_scores,
    scenarios_of,
    toolplay_run,
)
from typer.testing import CliRunner

from toolplay.cli import app
from toolplay.runs import RunSummary, load_summary
from toolplay.testing import ChatServer, scripted, text

SERVICE = "tpserver"
"""Inspect's `openai-api/<service>/<model>` reads `<SERVICE>_BASE_URL` and `_API_KEY`."""


@dataclass(frozen=True)
class Family:
    """One task family: the Inspect task and the equivalent `toolplay run`."""

    name: str
    task: str
    task_args: dict[str, Any]
    suite: str
    mode: str | None
    limit: int
    augment: tuple[str, ...] = ()


LIMIT = 4


def families(tooltalk: Path) -> list[Family]:
    return [
        Family(
            "sandbox",
            "toolplay/sandbox",
            {"augmentation": "none", "limit": LIMIT},
            "sandbox",
            None,
            LIMIT,
            ("none",),
        ),
        Family(
            "tooltalk",
            "toolplay/tooltalk",
            {"data": str(tooltalk), "limit": LIMIT},
            f"tooltalk:{tooltalk}",
            "static",
            LIMIT,
        ),
        Family(
            "autode-static",
            "toolplay/autode",
            {"mode": "static", "limit": LIMIT},
            "autode",
            "static",
            LIMIT,
        ),
        Family("autode-dynamic", "toolplay/autode", {"limit": LIMIT}, "autode", None, LIMIT),
    ]


@dataclass(frozen=True)
class Baseline:
    """A family's `toolplay run`: its folder and summary."""

    out: Path
    summary: RunSummary


@pytest.fixture(scope="module")
def setup(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[list[Family], ChatServer, dict[str, Baseline]]]:
    """The families, one endpoint serving them all, and each family's `toolplay run`."""
    chosen = families(require_tooltalk())
    scenarios = [s for f in chosen for s in scenarios_of(f.suite, f.limit, f.augment)]
    root = tmp_path_factory.mktemp("baselines")
    with ChatServer(FlawedResponder(scenarios)) as server:
        baselines = {}
        for family in chosen:
            out = root / family.name
            summary = toolplay_run(
                out,
                server.base_url,
                suite=family.suite,
                mode=family.mode,
                limit=family.limit,
                augment=family.augment,
            )
            baselines[family.name] = Baseline(out, summary)
        yield chosen, server, baselines


def assert_same(log: EvalLog, baseline: Baseline) -> None:
    """The log's sample scores and metrics are the run's (to 1e-9)."""
    assert log.status == "success", log.error
    assert log.samples is not None and log.results is not None
    got = {(str(s.id), s.epoch - 1): _value(s.scores) for s in log.samples}
    want = run_scores(baseline.out)
    assert got.keys() == want.keys()
    for key, value in want.items():
        assert got[key] == pytest.approx(value, abs=1e-9), key
    metrics = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    expected = {k: v for k, v in baseline.summary.metrics.values().items() if v is not None}
    assert metrics.keys() == expected.keys()
    for name, value in expected.items():
        assert metrics[name] == pytest.approx(value, abs=1e-9), name


def _value(scores: Any) -> float:
    return float(scores["toolplay_score"].value)


def assert_imports_like(log: EvalLog, baseline: Baseline, out: Path) -> None:
    """`toolplay import-inspect` makes a run folder summarising like the run's."""
    result = CliRunner().invoke(app, ["import-inspect", log.location, "--out", str(out)])
    assert result.exit_code == 0, result.output
    imported = load_summary(out).to_json()
    original = baseline.summary.to_json()
    for key in (
        "metrics",
        "by_category",
        "by_augmentation",
        "counts",
        "splits",
        "completed",
        "errors",
        "scenarios",
        "termination",
        "trials",
        "mode",
        "suite_name",
    ):
        assert close(imported.get(key), original.get(key)), key
    assert imported["assistant"].startswith("inspect:")


def close(a: Any, b: Any) -> bool:
    """Equal JSON data, numbers to 1e-9."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, int | float) and isinstance(b, int | float) and not isinstance(a, bool):
        return abs(a - b) <= 1e-9
    return bool(a == b)


def test_python_api_openai_provider(
    setup: tuple[list[Family], ChatServer, dict[str, Baseline]], tmp_path: Path
) -> None:
    chosen, server, baselines = setup
    model = get_model(f"openai-api/{SERVICE}/{MODEL}", base_url=server.base_url, api_key="k")
    logs = inspect_eval(
        [_task(f) for f in chosen],
        model=model,
        log_dir=str(tmp_path / "logs"),
        display="none",
        max_retries=0,
    )
    values = set()
    for family, log in zip(chosen, logs, strict=True):
        assert_same(log, baselines[family.name])
        values |= {_value(s.scores) for s in log.samples or []}
        assert_imports_like(log, baselines[family.name], tmp_path / "runs" / family.name)
    assert len(values) > 2, "the comparison must cover different scores, not only 0 or 1"
    # the imported folder is a run folder for the report and the comparison
    imported = tmp_path / "runs" / "sandbox"
    report = CliRunner().invoke(app, ["report", str(imported)])
    assert report.exit_code == 0, report.output
    assert (imported / "report.html").stat().st_size > 0
    compared = CliRunner().invoke(
        app, ["compare", str(baselines["sandbox"].out), str(imported)], env={"COLUMNS": "200"}
    )
    assert compared.exit_code == 0, compared.output
    assert "inspect:openai-api/tpserver/ref" in compared.output


def test_python_api_mock_model(
    setup: tuple[list[Family], ChatServer, dict[str, Baseline]], tmp_path: Path
) -> None:
    chosen, server, baselines = setup
    model = get_model("mockllm/model", custom_outputs=mock_outputs(server.responder))
    logs = inspect_eval(
        [_task(f) for f in chosen], model=model, log_dir=str(tmp_path / "logs"), display="none"
    )
    for family, log in zip(chosen, logs, strict=True):
        assert_same(log, baselines[family.name])


def _task(family: Family) -> Any:
    from inspect_ai._eval.registry import task_create

    return task_create(family.task, **family.task_args)


def inspect_cli(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None
) -> dict[str, EvalLog]:
    """Run the `inspect` command of this environment; the logs it wrote, by task name."""
    logs = tmp_path / "logs"
    command = [
        str(Path(sys.executable).parent / "inspect"),
        "eval",
        *args,
        "--log-dir",
        str(logs),
        "--display",
        "none",
    ]
    completed = subprocess.run(
        command, env={**os.environ, **(env or {})}, capture_output=True, text=True, timeout=600
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    found = [read_eval_log(str(p)) for p in sorted(logs.glob("*.eval"))]
    return {log.eval.task: log for log in found}


def test_cli_openai_provider(
    setup: tuple[list[Family], ChatServer, dict[str, Baseline]], tmp_path: Path
) -> None:
    """One `inspect eval` of three tasks (task parameters a task lacks are ignored by it)."""
    chosen, server, baselines = setup
    tooltalk = next(f for f in chosen if f.name == "tooltalk")
    env = {f"{SERVICE.upper()}_BASE_URL": server.base_url, f"{SERVICE.upper()}_API_KEY": "k"}
    env |= offline(tmp_path)
    logs = inspect_cli(
        tmp_path,
        "toolplay/sandbox",
        "toolplay/tooltalk",
        "toolplay/autode",
        "--model",
        f"openai-api/{SERVICE}/{MODEL}",
        "--max-retries",
        "0",
        "-T",
        "augmentation=none",
        "-T",
        f"data={tooltalk.task_args['data']}",
        "-T",
        "mode=static",
        "-T",
        f"limit={LIMIT}",
        env=env,
    )
    assert_same(logs["toolplay/sandbox"], baselines["sandbox"])
    assert_same(logs["toolplay/tooltalk"], baselines["tooltalk"])
    assert_same(logs["toolplay/autode"], baselines["autode-static"])


def test_cli_mock_model(tmp_path: Path) -> None:
    """`--model mockllm/model` (its default text answer, docs/inspect.md's smoke test) against
    `toolplay run` answering the same text, offline as on a fresh install: the mock model's
    token counting finds tiktoken's encoding without a download (`_offline`)."""
    logs = inspect_cli(
        tmp_path,
        "toolplay/sandbox",
        "toolplay/autode",
        "--model",
        "mockllm/model",
        "-T",
        "augmentation=none",
        "-T",
        f"limit={LIMIT}",
        env=offline(tmp_path),
    )
    with ChatServer(scripted([text(DEFAULT_MOCK_OUTPUT)])) as server:
        for task, suite, augment in (("sandbox", "sandbox", ("none",)), ("autode", "autode", ())):
            out = tmp_path / task
            summary = toolplay_run(out, server.base_url, suite=suite, limit=LIMIT, augment=augment)
            assert_same(logs[f"toolplay/{task}"], Baseline(out, summary))
