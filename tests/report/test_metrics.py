"""Summaries of every shape become readable rows."""

from __future__ import annotations

from toolplay.report._metrics import (
    chart_metric,
    flatten,
    fmt,
    group_table,
    ordered_metrics,
)


def test_fmt() -> None:
    assert fmt(None) == "-"
    assert fmt(0.73) == "0.730"
    assert fmt(12345) == "12,345"
    assert fmt(2500.4) == "2,500"
    assert fmt(True) == "yes"
    assert fmt(float("nan")) == "-"
    assert fmt({"mean": 0.5, "std": 0.125}) == "0.500 ± 0.125"
    assert fmt("static") == "static"


def test_flatten_keeps_spreads_and_drops_lists() -> None:
    metrics = {
        "similarity": 0.7,
        "pass^k": {"1": 0.8, "2": 0.6},
        "f1": {"mean": 0.5, "std": 0.1},
        "ids": ["a", "b"],
    }
    assert flatten(metrics) == {
        "similarity": 0.7,
        "pass^k.1": 0.8,
        "pass^k.2": 0.6,
        "f1": {"mean": 0.5, "std": 0.1},
    }


def test_headline_metrics_come_first() -> None:
    names = [k for k, _ in ordered_metrics({"zeta": 1, "perfect_rate": 0.2, "similarity": 0.5})]
    assert names == ["similarity", "perfect_rate", "zeta"]


def test_group_table_reads_flat_and_nested_groups() -> None:
    splits = {
        "easy": {"counts": {"conversations": 3}, "metrics": {"precision": 0.9, "recall": 0.8}},
        "hard": {"counts": {"conversations": 2}, "metrics": {"precision": 0.5, "recall": 0.4}},
    }
    columns, rows = group_table(splits)
    assert columns == ["conversations", "precision", "recall"]
    assert rows[1] == ("hard", {"conversations": 2, "precision": 0.5, "recall": 0.4})
    assert chart_metric(columns, rows) == "precision"
    columns, rows = group_table({"a": {"scenarios": 2, "score": 0.5}})
    assert (columns, chart_metric(columns, rows)) == (["scenarios", "score"], "score")
    assert chart_metric(["scenarios"], [("a", {"scenarios": 2})]) is None
