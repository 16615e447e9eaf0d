"""Issue 14 item 4: a run's progress moves as trials finish, with rate and ETA, and in plain
lines (one per 10 %, no control codes) when stderr is not a terminal."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from toolplay.catalog import build_catalog
from toolplay.cli import app
from toolplay.cli._progress import PlainLines
from toolplay.roles import AssistantContext, AssistantTurn, OracleAssistant, RoleKind
from toolplay.runs import RunConfig, execute_run


class Counting(OracleAssistant):
    """The oracle (it never waits), noting which scenario trials it has started."""

    sees_reference = True

    def __init__(self, started: set[tuple[str, int]]) -> None:
        super().__init__()
        self.started = started

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        self.started.add((context.scenario_id, context.trial))
        return await super().respond(context)


def test_progress_is_reported_as_trials_finish_not_at_the_end(tmp_path: Path) -> None:
    started: set[tuple[str, int]] = set()
    catalog = build_catalog(installed=False)
    catalog.add_assistant(RoleKind("counting", lambda request: Counting(started)))
    seen: list[tuple[int, int, int]] = []

    def progress(done: int, total: int) -> None:
        seen.append((done, total, len(started)))

    config = RunConfig(suite="sandbox", limit=40, assistant="counting", out=tmp_path / "run")
    summary = asyncio.run(execute_run(config, catalog=catalog, progress=progress))
    assert summary.completed == 40
    assert [done for done, _, _ in seen] == list(range(41))  # every trial, in order
    # when trial k is reported, at most the queued writes (8) and the one playing have been
    # started besides: progress follows the plays, it does not wait for all 40 to be played
    assert all(begun <= done + 10 for done, _, begun in seen[1:]), seen


def lines_for(total: int, times: list[float]) -> list[str]:
    out = io.StringIO()
    clock = iter(times)
    plain = PlainLines(Console(file=out, width=200), "quick · oracle", clock=lambda: next(clock))
    for done in range(total + 1):
        plain(done, total)
    return out.getvalue().splitlines()


def test_plain_lines_give_rate_and_time_left() -> None:
    lines = lines_for(20, [float(i) for i in range(21)])  # one trial per second
    assert lines[0] == "quick · oracle: 2/20 (10%), 1.0/s, about 0:00:18 left"
    assert lines[-1] == "quick · oracle: 20/20 (100%), 1.0/s, done"
    assert len(lines) == 10


@settings(max_examples=40, deadline=None)
@given(total=st.integers(min_value=1, max_value=400), step=st.floats(0.01, 5.0))
def test_plain_lines_one_per_tenth_without_control_codes(total: int, step: float) -> None:
    lines = lines_for(total, [i * step for i in range(total + 1)])
    assert 1 <= len(lines) <= 10
    assert lines[-1].endswith(", done") and f"{total}/{total} (100%)" in lines[-1]
    assert all("\x1b" not in line and "\r" not in line for line in lines)
    percents = [int(line.split("(")[1].split("%")[0]) for line in lines]
    assert percents == sorted(set(percents))


def test_a_run_logged_to_a_file_shows_plain_progress_lines(tmp_path: Path) -> None:
    result: Any = CliRunner().invoke(
        app, ["run", "--suite", "sandbox", "--limit", "20", "--out", str(tmp_path / "r")]
    )
    assert result.exit_code == 0, result.output
    progress = [line for line in result.stderr.splitlines() if line.startswith("sandbox · ")]
    assert len(progress) == 10 and progress[-1].startswith("sandbox · oracle: 20/20 (100%)")
    assert "\x1b" not in result.stderr
