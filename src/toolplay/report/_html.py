"""`toolplay report RUN_DIR`: one self-contained HTML file a person reads to judge a run.

What it shows, top to bottom: the headline numbers, every metric, how conversations ended and
what they cost in tokens, charts (score by category / augmentation / split, score and
turn-count distributions), the breakdown tables, infrastructure errors, and a scenario
browser (filters: text, category, augmentation, failed only) with a trajectory viewer per
scenario: the conversation with each party's view, tool calls with arguments and results or
errors, world changes under the message that made them, and the milestone → message mapping,
minefields and call matches when the scorer recorded them.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from toolplay.report._data import RunData, load_run
from toolplay.report._evidence import extract_evidence
from toolplay.report._intervals import (
    ci_header,
    interval_text,
    summary_uncertainty,
    uncertainty_context,
    with_intervals,
)
from toolplay.report._metrics import (
    COUNT_KEYS,
    GROUP_SECTIONS,
    flatten,
    fmt,
    group_table,
    ordered_metrics,
    trial_count,
    trial_rows,
)
from toolplay.report._page import render_page
from toolplay.report._sections import (
    breakdowns,
    distribution_charts,
    error_items,
    group_chart,
    termination_chart,
)
from toolplay.store import write_atomic

__all__ = ["REPORT_FILE", "build_report", "write_report"]

REPORT_FILE = "report.html"

_NOT_PROVENANCE = frozenset(
    {"scenarios", "completed", "errors", "error_list", "termination", "usage", "metrics"}
)


def _provenance(run: RunData) -> list[tuple[str, str]]:
    chips = [
        (key, fmt(value))
        for key, value in sorted(run.summary.items())
        if key not in _NOT_PROVENANCE and isinstance(value, str | int | float | bool)
    ]
    trials = trial_count(run.summary, run.config)
    if not any(key == "trials" for key, _ in chips):
        chips.append(("trials", str(trials)))
    for key, value in sorted(run.summary.items()):
        # Role settings (model, endpoint, temperature, ...): provenance worth seeing.
        if key.endswith("_settings") and isinstance(value, dict):
            role = key.removesuffix("_settings")
            chips += [
                (f"{role}.{k}", fmt(v))
                for k, v in flatten(value).items()
                if not (k == "name" and v == run.summary.get(role))
            ]
    augment = run.config.get("augment")
    if isinstance(augment, list) and augment and "augment" not in run.summary:
        chips.append(("augment", ", ".join(str(a) for a in augment)))
    return chips


def _cards(run: RunData, metrics: list[tuple[str, Any]]) -> list[dict[str, str]]:
    summary = run.summary
    numeric = [
        (k, v)
        for k, v in metrics
        if isinstance(v, int | float | dict) and k.split(".")[-1] not in COUNT_KEYS
    ]
    cards = [
        {"key": k, "label": k.replace("_", " "), "value": fmt(v), "note": "", "cls": ""}
        for k, v in numeric[:3]
    ]
    scored = sum(e["score"] is not None for e in run.entries)
    if cards:
        cards[0]["cls"] = "primary"
        cards[0]["note"] = f"over {scored} scored conversation(s)"
        uncertainty = summary_uncertainty(summary)
        interval = uncertainty.metrics.get(cards[0]["key"]) if uncertainty else None
        if uncertainty and interval and interval.low is not None:
            cards[0]["note"] += f" · {ci_header(uncertainty)} {interval_text(interval)}"
    trials = trial_count(summary, run.config)
    total = summary.get("scenarios", len(run.entries))
    errors = summary.get("errors", sum(e["status"] == "error" for e in run.entries))
    completed = summary.get("completed", len(run.entries) - errors)
    cards += [
        {
            "key": "scenarios",
            "label": "scenario trials" if trials > 1 else "scenarios",
            "value": fmt(total),
            "note": f"{trials} trial(s) each" if trials > 1 else "",
            "cls": "",
        },
        {"key": "completed", "label": "scored", "value": fmt(completed), "note": "", "cls": ""},
        {
            "key": "errors",
            "label": "infrastructure errors",
            "value": fmt(errors),
            "note": "not scored",
            "cls": "warn" if errors else "",
        },
    ]
    passes = trial_rows(summary)
    if len(passes) > 1 and isinstance(passes[-1].pass_hat_k, int | float):
        cards.append(
            {
                "key": "pass_hat_k",
                "label": f"pass^{passes[-1].k}",
                "value": fmt(passes[-1].pass_hat_k),
                "note": "all k trials succeed",
                "cls": "",
            }
        )
    usage = _usage(run)
    if usage.get("calls"):
        tokens = usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)
        cards.append(
            {
                "key": "tokens",
                "label": "tokens",
                "value": fmt(tokens),
                "note": f"{fmt(usage['calls'])} model calls",
                "cls": "",
            }
        )
    return cards


def _usage(run: RunData) -> dict[str, int]:
    stored = run.summary.get("usage")
    if isinstance(stored, dict):
        return {k: int(v) for k, v in stored.items() if isinstance(v, int)}
    totals: Counter[str] = Counter()
    for entry in run.entries:
        totals.update({k: v for k, v in entry["usage"].items() if isinstance(v, int)})
    return dict(totals)


def _extra_tables(summary: dict[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Run-wide count records some methods add (ToolTalk: `counts`, `error_types`)."""
    tables = []
    for key in ("counts", "error_types"):
        value = summary.get(key)
        if isinstance(value, dict) and value:
            rows = [(k.replace("_", " "), fmt(v)) for k, v in flatten(value).items()]
            tables.append((key.replace("_", " ").capitalize(), rows))
    return tables


def _trial_spread(summary: dict[str, Any]) -> str | None:
    section = summary.get("trials")
    if not isinstance(section, dict) or section.get("score_mean") is None:
        return None
    return fmt({"mean": section["score_mean"], "std": section.get("score_std")})


def build_report(run: RunData) -> str:
    """The report page for a loaded run (see the module docstring for its contents)."""
    summary = run.summary
    metrics = ordered_metrics(summary.get("metrics") or {})
    groups = breakdowns(run)
    titles = dict(GROUP_SECTIONS)
    charts = [
        chart
        for key, group in groups.items()
        if (chart := group_chart(f"Score {titles[key].lower()}", group)) is not None
    ] + distribution_charts(run)
    group_tables = []
    uncertainty = summary_uncertainty(summary)
    for key, group in groups.items():
        columns, rows = group_table(group)
        if uncertainty is not None:
            intervals = uncertainty.breakdowns.get(key)
            columns, rows = with_intervals(columns, rows, intervals, ci_header(uncertainty))
        group_tables.append(
            {
                "title": titles[key],
                "name_header": key.removeprefix("by_").rstrip("s"),
                "columns": columns,
                "rows": [(n, [fmt(v.get(c)) for c in columns]) for n, v in rows],
            }
        )
    usage = _usage(run)
    suite = summary.get("suite_name") or summary.get("suite") or run.config.get("suite") or "?"
    assistant = summary.get("assistant") or run.config.get("assistant") or "?"
    entries = [{**e, "evidence": extract_evidence(e["details"])} for e in run.entries]
    return render_page(
        "report.html.jinja",
        script="report.js",
        payload={
            "entries": entries,
            "trials": trial_count(summary, run.config),
            "categories": sorted({c for e in entries for c in e["categories"]}),
            "augmentations": sorted({e["augmentation"] for e in entries if e["augmentation"]}),
        },
        title=f"toolplay report · {suite} · {assistant}",
        subtitle=(
            f"{summary.get('mode', run.config.get('mode') or '?')} mode · user "
            f"{summary.get('user', run.config.get('user', '?'))} · {len(entries)} conversation(s)"
        ),
        run_path=str(run.path),
        provenance=_provenance(run),
        notes=run.notes,
        cards=_cards(run, metrics),
        metrics=[(k, fmt(v)) for k, v in metrics],
        extra_tables=_extra_tables(summary),
        trial_rows=[(r.k, fmt(r.pass_hat_k), fmt(r.scenarios)) for r in trial_rows(summary)],
        trial_spread=_trial_spread(summary),
        uncertainty=uncertainty_context(run),
        usage=[
            ("prompt", fmt(usage.get("prompt_tokens", 0))),
            ("completion", fmt(usage.get("completion_tokens", 0))),
            ("model calls", fmt(usage.get("calls", 0))),
        ],
        termination_chart=termination_chart(run),
        charts=charts,
        groups=group_tables,
        errors=error_items(run),
    )


def write_report(run_dir: Path, out: Path | None = None) -> Path:
    """Write the HTML report of the run in `run_dir`.

    Args:
        run_dir: A run directory.
        out: Where to write; default `RUN_DIR/report.html`.

    Returns:
        The path written.

    Raises:
        ReportError: The run directory cannot be read.
    """
    target = out or run_dir / REPORT_FILE
    write_atomic(target, build_report(load_run(run_dir)))
    target.chmod(0o644)  # a report is meant to be shared; mkstemp would leave it 0600
    return target
