"""Small inline SVG charts, written out as markup (no charting library, nothing fetched).

Every label is escaped here; colours and fonts come from the page's CSS classes (`chart-*`),
so the charts follow the report's look and print well.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from markupsafe import Markup, escape

__all__ = ["Bar", "Point", "bar_chart", "column_chart", "scatter_plot"]

CHAR_WIDTH = 7.2
"""Approximate width of one character of the 12px chart font, for sizing label columns."""
LABEL_MAX = 260.0
"""Widest label column of a bar chart (px); longer labels are cut with an ellipsis."""


class Bar(NamedTuple):
    """One horizontal bar: its label, its value (None: no value) and the text printed after it
    (default: the value with three decimals).
    """

    label: str
    value: float | None
    text: str = ""


class Point(NamedTuple):
    """One scatter point and what its tooltip says."""

    x: float
    y: float
    label: str


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, text: str, cls: str, anchor: str = "start") -> str:
    return (
        f'<text x="{_num(x)}" y="{_num(y)}" class="{cls}" text-anchor="{anchor}">'
        f"{escape(text)}</text>"
    )


def bar_chart(bars: Sequence[Bar], *, maximum: float | None = None, title: str = "") -> Markup:
    """Horizontal bars, one row each, scaled to `maximum` (default: the largest value)."""
    values = [b.value for b in bars if b.value is not None]
    top = maximum if maximum is not None else max([*values, 0.0])
    top = top if top > 0 else 1.0
    label_w = min(max([len(b.label) for b in bars] + [4]) * CHAR_WIDTH + 12, LABEL_MAX)
    fits = int((LABEL_MAX - 12) / CHAR_WIDTH)
    shown_texts = [b.text or ("n/a" if b.value is None else f"{b.value:.3f}") for b in bars]
    # the text after a bar is never clipped: its column is as wide as the longest one
    bar_w, row_h = 300.0, 26.0
    note_w = max([len(t) for t in shown_texts] + [6]) * CHAR_WIDTH + 16
    width = label_w + bar_w + note_w
    height = row_h * len(bars) + 8
    parts = [
        f'<svg class="chart" viewBox="0 0 {_num(width)} {_num(height)}" width="{_num(width)}" '
        f'height="{_num(height)}" role="img" aria-label="{escape(title)}">'
    ]
    for i, bar in enumerate(bars):
        y = 4 + i * row_h
        label = bar.label if len(bar.label) <= fits else bar.label[: fits - 1] + "…"
        parts.append(_text(label_w - 8, y + 17, label, "chart-label", "end"))
        parts.append(
            f'<rect x="{_num(label_w)}" y="{_num(y + 5)}" width="{_num(bar_w)}" height="16" '
            'rx="3" class="chart-track"/>'
        )
        shown = shown_texts[i]
        if bar.value is not None:
            w = max(min(bar.value / top, 1.0), 0.0) * bar_w
            parts.append(
                f'<rect x="{_num(label_w)}" y="{_num(y + 5)}" width="{_num(w)}" height="16" '
                f'rx="3" class="chart-bar"><title>{escape(bar.label)}: {escape(shown)}</title>'
                "</rect>"
            )
        parts.append(_text(label_w + bar_w + 8, y + 17, shown, "chart-value"))
    parts.append("</svg>")
    return Markup("".join(parts))


def column_chart(columns: Sequence[tuple[str, int]], *, title: str = "") -> Markup:
    """Vertical columns of counts (a distribution), labelled underneath."""
    top = max([c for _, c in columns] + [1])
    widest = max([len(label) for label, _ in columns] + [1])
    col_w, gap, plot_h = max(28.0, widest * CHAR_WIDTH * 0.9 + 6), 6.0, 120.0
    width = max(len(columns) * (col_w + gap) + 40, 200)
    height = plot_h + 44
    parts = [
        f'<svg class="chart" viewBox="0 0 {_num(width)} {_num(height)}" width="{_num(width)}" '
        f'height="{_num(height)}" role="img" aria-label="{escape(title)}">',
        f'<line x1="20" y1="{_num(plot_h + 16)}" x2="{_num(width - 10)}" '
        f'y2="{_num(plot_h + 16)}" class="chart-axis"/>',
    ]
    for i, (label, count) in enumerate(columns):
        x = 24 + i * (col_w + gap)
        h = count / top * plot_h
        y = plot_h + 16 - h
        parts.append(
            f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(col_w)}" height="{_num(h)}" '
            f'rx="2" class="chart-bar"><title>{escape(label)}: {count}</title></rect>'
        )
        if count:
            parts.append(_text(x + col_w / 2, y - 4, str(count), "chart-value", "middle"))
        parts.append(_text(x + col_w / 2, plot_h + 32, label, "chart-label", "middle"))
    parts.append("</svg>")
    return Markup("".join(parts))


def scatter_plot(
    points: Sequence[Point],
    *,
    x_label: str,
    y_label: str,
    lo: float = 0.0,
    hi: float = 1.0,
) -> Markup:
    """Paired scores with the y = x diagonal; coincident points merge into a larger dot."""
    size, pad = 300.0, 44.0
    span = (hi - lo) or 1.0

    def sx(v: float) -> float:
        return pad + (v - lo) / span * size

    def sy(v: float) -> float:
        return pad / 2 + size - (v - lo) / span * size

    merged: dict[tuple[float, float], list[str]] = {}
    for p in points:
        merged.setdefault((round(p.x, 6), round(p.y, 6)), []).append(p.label)
    total = size + pad * 1.5
    parts = [
        f'<svg class="chart scatter" viewBox="0 0 {_num(total)} {_num(total)}" '
        f'width="{_num(total)}" height="{_num(total)}" role="img" '
        f'aria-label="{escape(x_label)} vs {escape(y_label)}">'
    ]
    for i in range(5):
        v = lo + span * i / 4
        parts.append(
            f'<line x1="{_num(sx(v))}" y1="{_num(sy(lo))}" x2="{_num(sx(v))}" y2="{_num(sy(hi))}" '
            'class="chart-grid"/>'
            f'<line x1="{_num(sx(lo))}" y1="{_num(sy(v))}" x2="{_num(sx(hi))}" y2="{_num(sy(v))}" '
            'class="chart-grid"/>'
        )
        parts.append(_text(sx(v), sy(lo) + 14, f"{v:g}", "chart-tick", "middle"))
        parts.append(_text(sx(lo) - 6, sy(v) + 4, f"{v:g}", "chart-tick", "end"))
    parts.append(
        f'<line x1="{_num(sx(lo))}" y1="{_num(sy(lo))}" x2="{_num(sx(hi))}" y2="{_num(sy(hi))}" '
        'class="chart-diagonal"/>'
    )
    for (x, y), labels in sorted(merged.items()):
        radius = min(4.0 + 1.5 * (len(labels) - 1), 14.0)
        shown = ", ".join(labels[:12]) + (f" … (+{len(labels) - 12})" if len(labels) > 12 else "")
        parts.append(
            f'<circle cx="{_num(sx(x))}" cy="{_num(sy(y))}" r="{_num(radius)}" class="chart-dot">'
            f"<title>{escape(shown)}: {x:.3f} vs {y:.3f}</title></circle>"
        )
    parts.append(_text(sx((lo + hi) / 2), total - 4, x_label, "chart-axis-label", "middle"))
    parts.append(
        f'<text x="12" y="{_num(sy((lo + hi) / 2))}" class="chart-axis-label" '
        f'text-anchor="middle" transform="rotate(-90 12 {_num(sy((lo + hi) / 2))})">'
        f"{escape(y_label)}</text>"
    )
    parts.append("</svg>")
    return Markup("".join(parts))
