"""User errors of a simulated user in summary.json, the terminal summary and the HTML report.

The `toolsandbox` suite (base setting, first 40) is played by `no-call` (it answers in words, so
the user's withheld facts are still unknown when it speaks; the oracle finds them first) with a
simulated user
served by the project's test endpoint (`support.ErrantUserEndpoint`: a different mistake per
scenario, or none), through the real user role, conversation, checks, summary and report; and
again with the scripted user, which shows none. The report is opened in headless Chromium: the
panel's counts are the summary's, and the trajectory viewer marks each flagged message with
its evidence (a screenshot is taken, as the other report tests do). The packaged local model
as the user is `test_local_model_user_errors` (`--runslow`; docs/comparing.md reports a full run).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from support import ErrantUserEndpoint, load_suite
from toolplay.cli import app
from toolplay.testing import ChatServer

Browser = Callable[..., str]
ARGS = ["run", "--suite", "toolsandbox", "--augment", "none", "--limit", "40"]


def play(out: Path, *extra: str) -> str:
    result = CliRunner().invoke(app, [*ARGS, *extra, "--out", str(out)], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def errant(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("user-errors") / "run"
    with ChatServer(ErrantUserEndpoint(load_suite("toolsandbox").scenarios)) as server:
        printed = play(
            out, "--assistant", "no-call", "--user", "openai:sim", "--base-url", server.base_url
        )
    assert CliRunner().invoke(app, ["report", str(out)]).exit_code == 0
    return out, printed


def summary_of(out: Path) -> dict[str, Any]:
    return dict(json.loads((out / "summary.json").read_text()))


def test_summary_counts_user_errors_per_kind(errant: tuple[Path, str]) -> None:
    out, _ = errant
    section = summary_of(out)["user_errors"]
    kinds = section["by_kind"]
    assert set(kinds) == {
        "invented_information",
        "leaked_information",
        "script_deviation",
        "premature_end",
        "role_confusion",
        "loop",
    }
    for kind in ("invented_information", "leaked_information", "role_confusion", "loop"):
        assert kinds[kind]["trials"] > 0, kind
    assert section["trials"] == 40 and 0 < section["trials_with_errors"] < 40
    assert section["share_with_errors"] == section["trials_with_errors"] / 40
    clean = section["without_user_errors"]
    assert clean["trials"] == 40 - section["trials_with_errors"]
    scores = [
        json.loads(path.read_text().splitlines()[-1])
        for path in sorted((out / "trajectories").glob("*.jsonl"))
    ]
    unflagged = [s["score"] for s in scores if not s["user_errors"]["errors"]]
    assert clean["metrics"]["similarity"] == pytest.approx(sum(unflagged) / len(unflagged))
    assert clean["metrics"]["similarity"] != summary_of(out)["metrics"]["similarity"]
    assert clean["intervals"]["similarity"]["n"] == clean["scenarios"]
    # each flagged message is stored with its trajectory's score, with the evidence
    flagged = {
        (path.name, e["message_index"]): e["evidence"]
        for path in sorted((out / "trajectories").glob("*.jsonl"))
        for e in json.loads(path.read_text().splitlines()[-1])["user_errors"]["errors"]
    }
    assert len(flagged) == section["messages_with_errors"]
    assert all(flagged.values())


def test_the_terminal_summary_shows_them(errant: tuple[Path, str]) -> None:
    _, printed = errant
    assert "Simulated user errors" in printed and "Without the trials with a user error" in printed
    assert all(len(line) <= 80 for line in printed.splitlines() if "━" in line or "│" in line)


def cells(dom: str, row_attribute: str) -> dict[str, list[str]]:
    """The text cells of the table rows carrying `row_attribute`, by its value."""
    rows = re.findall(rf'<tr {row_attribute}="([^"]+)">(.*?)</tr>', dom, re.S)
    return {key: re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for key, row in rows}


def test_the_report_shows_them_and_marks_the_messages(
    errant: tuple[Path, str], browser: Browser, tmp_path: Path
) -> None:
    out, _ = errant
    section = summary_of(out)["user_errors"]
    clean = section["without_user_errors"]
    leaked = next(
        p.name.split(".t0")[0]
        for p in sorted((out / "trajectories").glob("*.jsonl"))
        if '"leaked_information"' in p.read_text()
    )
    shot = tmp_path / "report.png"
    dom = browser(out / "report.html", f"scenario={leaked}&trial=0", screenshot=shot)
    assert shot.stat().st_size > 50_000  # the page rendered
    kinds = cells(dom, "data-kind")
    assert kinds == {
        kind: [kind, str(c["messages"]), str(c["trials"])] for kind, c in section["by_kind"].items()
    }
    share = f"{section['share_with_errors']:.0%}"
    assert re.search(rf'data-metric="user_errors">.*?<div class="value">{share}</div>', dom, re.S)
    metrics = cells(dom, "data-metric")
    overall = summary_of(out)["metrics"]["similarity"]
    shown = [f"{overall:.3f}", f"{clean['metrics']['similarity']:.3f}"]
    assert metrics["similarity"][:3] == ["similarity", *shown]
    text = html.unescape(dom)
    assert "<h3>Simulated user errors</h3>" in text  # the viewer's evidence table
    badges = re.findall(r'<span class="badge user-error">(.*?)</span>', text)
    assert any(b.startswith("✖ user error: leaked_information · ") for b in badges), badges
    assert 'class="msg user flagged"' in dom  # the flagged message is outlined


def test_the_scripted_user_shows_none(tmp_path: Path, browser: Browser) -> None:
    out = tmp_path / "scripted"
    printed = play(out)
    summary = summary_of(out)
    assert "user_errors" not in summary  # nothing a simulator wrote: nothing to check
    assert "Simulated user errors" not in printed
    last = json.loads(next((out / "trajectories").glob("*.jsonl")).read_text().splitlines()[-1])
    assert last["user_errors"] == {"checked_messages": 0, "errors": []}
    assert CliRunner().invoke(app, ["report", str(out)]).exit_code == 0
    dom = browser(out / "report.html")
    assert 'id="user-errors"' not in dom and 'data-metric="user_errors"' not in dom


@pytest.mark.slow
def test_local_model_user_errors(tmp_path: Path) -> None:
    """The packaged local model as the user (greedy, so deterministic on one build): it
    repeats itself until the turn limit, and the summary says so."""
    pytest.importorskip("llama_cpp", reason="the local model needs the `local` extra")
    out = tmp_path / "local"
    args = ["run", "--suite", "toolsandbox", "--augment", "none", "--limit", "1"]
    extra = ["--user", "local", "--option", "user_max_tokens=40", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, *extra], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    section = summary_of(out)["user_errors"]
    assert section["trials"] == 1 and section["messages_checked"] > 0
    assert section["trials_with_errors"] == 1
    assert "Simulated user errors" in result.output
