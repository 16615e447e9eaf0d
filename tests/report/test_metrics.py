"""Typed summaries become readable rows: metrics, structured parts, breakdowns."""

from __future__ import annotations

from support import CATALOG
from toolplay.analysis import chart_metric, group_table, ordered
from toolplay.methods.tooltalk import ToolTalkGroup, ToolTalkSection, ToolTalkTotals
from toolplay.report._format import fmt
from toolplay.scoring import MetricValues, TrialSpread


def test_fmt() -> None:
    assert fmt(None) == "-"
    assert fmt(0.73) == "0.730"
    assert fmt(12345) == "12,345"
    assert fmt(2500.4) == "2,500"
    assert fmt(True) == "yes"
    assert fmt(float("nan")) == "-"
    assert fmt(TrialSpread(mean=0.5, std=0.125)) == "0.500 ± 0.125"
    assert fmt("static") == "static"


def test_autodes_section_becomes_dotted_metric_names() -> None:
    section = {
        "failures": {"never_called": 1},
        "failure_reasons": {},
        "over_trials": {"slot_f1": {"mean": 0.5, "std": 0.1}},
    }
    assert CATALOG.scorer("slots").section_view(section).metrics == {
        "failures.never_called": 1,
        "over_trials.slot_f1": TrialSpread(mean=0.5, std=0.1),
    }


def test_headline_metrics_come_first() -> None:
    assert ordered(["zeta", "perfect_rate", "similarity"]) == ["similarity", "perfect_rate", "zeta"]
    assert ordered([]) == []


def test_group_table_reads_tooltalk_groups_and_metric_values() -> None:
    def split(conversations: int, precision: float, recall: float) -> ToolTalkGroup:
        return ToolTalkGroup(
            counts=ToolTalkTotals(conversations=conversations),
            metrics=MetricValues.of({"precision": precision, "recall": recall}),
            error_types={},
        )

    section = ToolTalkSection(
        counts=ToolTalkTotals(),
        error_types={},
        splits={"easy": split(3, 0.9, 0.8), "hard": split(2, 0.5, 0.4)},
    )
    (splits,) = CATALOG.scorer("tooltalk").section_view(section.model_dump()).breakdowns
    assert (splits.key, splits.title) == ("splits", "By split")
    columns, rows = group_table(splits.rows)
    assert columns == ["conversations", "precision", "recall"]
    assert rows[1] == ("hard", {"conversations": 2, "precision": 0.5, "recall": 0.4})
    assert chart_metric(columns, rows) == "precision"
    groups = {"a": MetricValues.of({"score": 0.5, "trials": 4, "scenarios": 2})}
    columns, rows = group_table({k: v.values() for k, v in groups.items()})
    # counts first, scenarios (distinct) before trials, and never charted
    assert (columns, chart_metric(columns, rows)) == (["scenarios", "trials", "score"], "score")
    assert chart_metric(["scenarios"], [("a", {"scenarios": 2})]) is None
