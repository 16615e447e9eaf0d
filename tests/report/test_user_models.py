"""`toolplay compare` of runs that differ in the simulated user: agreement, rates, ranking."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from support import ChatbotUserEndpoint, load_suite
from toolplay.analysis import compare_runs
from toolplay.cli import app
from toolplay.stats import kendall_tau
from toolplay.testing import ChatServer

QUICK = load_suite("quick").scenarios


def run(out: Path, assistant: str, user: str, base_url: str) -> Path:
    args = ["run", "--assistant", assistant, "--user", user, "--base-url", base_url]
    result = CliRunner().invoke(app, [*args, "--out", str(out)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return out


def test_compare_says_what_the_user_changes(tmp_path: Path) -> None:
    with ChatServer(ChatbotUserEndpoint(QUICK)) as server:
        runs = [
            run(tmp_path / f"{a}-{u.split(':')[0]}", a, u, server.base_url)
            for a in ("oracle", "no-call")
            for u in ("scripted", "openai:sim")
        ]
    comparison = compare_runs(runs)
    found = comparison.user_models
    assert found is not None and found.metric == "similarity"
    rates = {(r.assistant, r.user): r for r in found.rates}
    assert rates[("oracle", "scripted")].share is None  # nothing a simulator wrote
    assert rates[("oracle", "openai:sim")].share == 1.0
    assert rates[("oracle", "openai:sim")].by_kind["role_confusion"] == 5
    pairs = {p.assistant: p for p in found.pairs}
    assert set(pairs) == {"oracle", "no-call"}
    assert pairs["oracle"].stats.n == 5 and pairs["oracle"].differs_also == ()
    (ranking,) = found.rankings
    assert ranking.assistants == ("no-call", "oracle")
    assert ranking.left_order == ranking.right_order == ("oracle", "no-call")
    assert ranking.tau == 1.0 and not ranking.changed

    result = CliRunner().invoke(
        app, ["compare", *map(str, runs), "--out", str(tmp_path / "c.html")], env={"COLUMNS": "80"}
    )
    assert result.exit_code == 0, result.output
    assert "Simulated users side by side" in result.output
    assert "Kendall's tau 1.000 (unchanged)" in " ".join(result.output.split())
    section = result.output[result.output.index("Simulated users side by side") :]
    assert all(len(line) <= 80 for line in section.splitlines()), section
    page = (tmp_path / "c.html").read_text()
    assert 'id="user-models"' in page and 'id="user-rankings"' in page


def test_runs_with_one_user_have_no_user_section(tmp_path: Path) -> None:
    runs = [
        tmp_path / "a",
        tmp_path / "b",
    ]
    for out, assistant in zip(runs, ("oracle", "no-call"), strict=True):
        result = CliRunner().invoke(app, ["run", "--assistant", assistant, "--out", str(out)])
        assert result.exit_code == 0
    assert compare_runs(runs).user_models is None


def test_kendall_tau() -> None:
    assert kendall_tau([1, 2, 3], [10, 20, 30]) == 1.0
    assert kendall_tau([1, 2, 3], [3, 2, 1]) == -1.0
    assert kendall_tau([1, 1, 1], [1, 2, 3]) is None
    assert kendall_tau([1], [1]) is None
    assert abs((kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]) or 0) - 2 / 3) < 1e-12
