"""The glossary is generated from the catalog, and covers every metric real summaries show."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from toolplay.analysis import COUNT_KEYS, group_table, load_run, summary_view
from toolplay.catalog import build_catalog
from toolplay.cli import app
from toolplay.report import glossary, glossary_markdown

RESULTS_DOC = Path(__file__).resolve().parents[2] / "docs" / "results.md"
CATALOG = build_catalog([])
SCORERS = CATALOG.scorers


def _covered(name: str, names: set[str]) -> bool:
    """`failures.never_called` is covered by `failures.REASON` (a structured part)."""
    prefix = name.split(".")[0] + "."
    return name in names or any(n.startswith(prefix) and n.split(".")[1].isupper() for n in names)


def test_the_documented_glossary_is_the_catalogs() -> None:
    text = RESULTS_DOC.read_text(encoding="utf-8")
    match = re.search(r"<!-- glossary:start[^>]*-->\n(.*?)<!-- glossary:end -->", text, re.S)
    assert match is not None, "docs/results.md lost its glossary markers"
    assert match.group(1) == glossary_markdown(SCORERS, CATALOG.user_checks.values()), (
        "docs/results.md glossary is stale: replace it with `toolplay glossary --markdown`"
    )


def test_every_declared_metric_says_range_aggregation_and_origin() -> None:
    for row in glossary(SCORERS):
        assert row.meaning and row.range and row.aggregation and row.origin, row


def test_every_metric_of_real_summaries_is_in_the_glossary(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    autode = tmp_path / "autode"
    args = ["run", "--suite", "autode", "--assistant", "no-call", "--limit", "3"]
    result = CliRunner().invoke(app, [*args, "--out", str(autode)])
    assert result.exit_code == 0, result.output
    seen: set[str] = set()
    for run_dir in (runs["oracle"], runs["minefield"], runs["static"], autode):
        run = load_run(run_dir)
        assert run.summary is not None
        names = {r.name for r in glossary(SCORERS, {e.evaluation for e in run.entries})}
        view = summary_view(run.summary, SCORERS)
        shown = {name for name, _ in view.metrics}
        for breakdown in view.breakdowns.values():
            shown |= set(group_table(breakdown.rows)[0])
        missing = sorted(n for n in shown if not _covered(n, names))
        assert not missing, f"{run_dir.name}: not in the glossary: {missing}"
        seen |= shown
    # the runs above show every method's metrics and the breakdown counts
    assert {"similarity", "success_rate", "slot_f1", "failures.never_called"} <= seen
    assert {"scenarios", "trials", "conversations"} <= seen | set(COUNT_KEYS)


def test_the_report_carries_its_methods_glossary(runs: dict[str, Path]) -> None:
    html = (runs["static"] / "report.html").read_text(encoding="utf-8")
    block = html.split('<details id="glossary">')[1].split("</details>")[0]
    assert "<code>success_rate</code>" in block and "micro average" in block
    assert "<code>slot_f1</code>" not in block  # only the methods the run used
    assert "<code>pass^k</code>" in block


def test_the_glossary_command_prints_the_table() -> None:
    result = CliRunner().invoke(app, ["glossary"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "incorrect_action_rate" in result.output and "ToolTalk" in result.output
    result = CliRunner().invoke(app, ["glossary", "--markdown"])
    assert result.output == glossary_markdown(SCORERS, CATALOG.user_checks.values())
    assert "user_errors.leaked_information" in result.output
