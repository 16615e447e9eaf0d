"""The SVG charts are well-formed markup with every label escaped."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from toolplay.report._charts import (
    Bar,
    Point,
    bar_chart,
    column_chart,
    scatter_plot,
)

EVIL = "<script>alert(1)</script>&"


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(e.itertext()) for e in root.iter() if e.tag in ("text", "title")]


def test_bar_chart_escapes_and_scales() -> None:
    svg = str(bar_chart([Bar(EVIL, 0.5), Bar("none", None), Bar("big", 2.0)], maximum=1.0))
    assert "<script>" not in svg
    found = texts(svg)
    assert EVIL in found and "n/a" in found and "0.500" in found
    widths = [
        r.get("width") for r in ET.fromstring(svg).iter("rect") if r.get("class") == "chart-bar"
    ]
    assert widths == ["150", "300"]  # half the track, and clamped at the maximum


def test_long_labels_are_cut_but_kept_in_the_tooltip() -> None:
    label = "x" * 100
    found = texts(str(bar_chart([Bar(label, 1.0)])))
    assert any(t.endswith("…") and len(t) < 50 for t in found)
    assert any(t.startswith(label) for t in found)


def test_column_chart_and_scatter_are_well_formed() -> None:
    assert "3" in texts(str(column_chart([(EVIL, 3), ("b", 0)])))
    svg = str(
        scatter_plot(
            [Point(0.5, 0.5, EVIL), Point(0.5, 0.5, "b"), Point(1, 0, "c")],
            x_label=EVIL,
            y_label="y",
        )
    )
    root = ET.fromstring(svg)
    dots = [c for c in root.iter("circle")]
    assert len(dots) == 2  # the two coincident points merge
    assert any(EVIL in t and "b" in t for t in texts(svg))
