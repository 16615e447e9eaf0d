"""Typed summaries become readable rows: metrics, structured parts, breakdowns."""

from __future__ import annotations

from toolplay.analysis._metrics import (
    chart_metric,
    fmt,
    group_table,
    metric_items,
    ordered_metrics,
)
from toolplay.scoring import MetricValues, ToolTalkGroup, ToolTalkTotals, TrialSpread


def test_fmt() -> None:
    assert fmt(None) == "-"
    assert fmt(0.73) == "0.730"
    assert fmt(12345) == "12,345"
    assert fmt(2500.4) == "2,500"
    assert fmt(True) == "yes"
    assert fmt(float("nan")) == "-"
    assert fmt(TrialSpread(mean=0.5, std=0.125)) == "0.500 ± 0.125"
    assert fmt("static") == "static"


def test_structured_parts_become_dotted_names() -> None:
    values = MetricValues.of(
        {"slot_f1": 0.5, "dialogues": 4},
        failures={"never_called": 1},
        over_trials={"slot_f1": TrialSpread(mean=0.5, std=0.1)},
    )
    assert metric_items(values) == {
        "slot_f1": 0.5,
        "dialogues": 4,
        "failures.never_called": 1,
        "over_trials.slot_f1": TrialSpread(mean=0.5, std=0.1),
    }


def test_headline_metrics_come_first() -> None:
    values = MetricValues.of({"zeta": 1, "perfect_rate": 0.2, "similarity": 0.5})
    assert [k for k, _ in ordered_metrics(values)] == ["similarity", "perfect_rate", "zeta"]
    assert ordered_metrics(None) == []


def test_group_table_reads_tooltalk_groups_and_metric_values() -> None:
    def split(conversations: int, precision: float, recall: float) -> ToolTalkGroup:
        return ToolTalkGroup(
            counts=ToolTalkTotals(conversations=conversations),
            metrics=MetricValues.of({"precision": precision, "recall": recall}),
            error_types={},
        )

    columns, rows = group_table({"easy": split(3, 0.9, 0.8), "hard": split(2, 0.5, 0.4)})
    assert columns == ["conversations", "precision", "recall"]
    assert rows[1] == ("hard", {"conversations": 2, "precision": 0.5, "recall": 0.4})
    assert chart_metric(columns, rows) == "precision"
    groups = {"a": MetricValues.of({"score": 0.5, "trials": 4, "scenarios": 2})}
    columns, rows = group_table(groups)
    # counts first, scenarios (distinct) before trials, and never charted
    assert (columns, chart_metric(columns, rows)) == (["scenarios", "trials", "score"], "score")
    assert chart_metric(["scenarios"], [("a", {"scenarios": 2})]) is None
