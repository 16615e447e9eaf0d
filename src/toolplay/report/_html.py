"""`toolplay report RUN_DIR`: one self-contained HTML file a person reads to judge a run.

What it shows, top to bottom: the headline numbers, the run between its floor and ceiling
(when `toolplay baselines` kept them in the run directory; else the command that does), every
metric, how conversations ended and
what they cost in tokens, charts (score by category / augmentation / split, score and
turn-count distributions), the breakdown tables, infrastructure errors, and a scenario
browser (filters: text, category, augmentation, failed only) with a trajectory viewer per
scenario: the conversation with each party's view, tool calls with arguments and results or
errors, world changes under the message that made them, and the milestone → message mapping,
minefields and call matches when the scorer recorded them. With a simulated user, a panel
counts its errors per kind and sets each headline metric beside its value without the trials
that have one; the viewer marks each flagged user message with the check's evidence.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolplay.analysis import (
    COUNT_KEYS,
    ReportError,
    RunData,
    RunEntry,
    SummaryView,
    Value,
    group_table,
    load_run,
    run_scorers,
    run_user_checks,
    summary_view,
    trial_rows,
)
from toolplay.messages import Usage
from toolplay.report._baselines import baseline_rows, baseline_sentence
from toolplay.report._evidence import extract_evidence
from toolplay.report._format import fmt, plural
from toolplay.report._glossary import GlossaryRow, glossary
from toolplay.report._intervals import (
    ci_header,
    interval_text,
    summary_uncertainty,
    uncertainty_context,
    with_intervals,
)
from toolplay.report._page import render_page
from toolplay.report._payload import pack_entries
from toolplay.report._sections import (
    distribution_charts,
    error_items,
    group_chart,
    termination_chart,
)
from toolplay.report._user_errors import (
    judged_by_trial,
    review_context,
    user_error_context,
)
from toolplay.runs import CEILING, FLOOR, RunSummary, load_baselines
from toolplay.scoring import Scorer
from toolplay.store import write_atomic

__all__ = ["REPORT_FILE", "build_report", "write_report"]

REPORT_FILE = "report.html"

_PROVENANCE = (
    "suite",
    "suite_name",
    "mode",
    "assistant",
    "user",
    "toolplay_version",
    "embedding_model",
    "summary_version",
)
"""Summary fields shown as chips at the top (what produced the results)."""


def _settings_chips(role: str, settings: dict[str, Any], name: str) -> list[tuple[str, str]]:
    """A role's public settings (model, endpoint, temperature, ...) as chips."""
    chips: list[tuple[str, str]] = []
    for key, value in sorted(settings.items()):
        if key == "name" and value == name:
            continue
        if isinstance(value, dict):
            chips += _settings_chips(f"{role}.{key}", value, "")
        elif not isinstance(value, list):
            chips.append((f"{role}.{key}", fmt(value)))
    return chips


def _provenance(run: RunData) -> list[tuple[str, str]]:
    summary, config = run.summary, run.config
    chips: list[tuple[str, str]] = []
    if summary is not None:
        chips += [(k, fmt(getattr(summary, k))) for k in _PROVENANCE if getattr(summary, k)]
        chips += [(k, fmt(v)) for k, v in sorted((summary.scoring or {}).items())]
        if summary.plugins:
            chips.append(("plugins", ", ".join(summary.plugins)))
    chips.append(("trials", str(run.trials)))
    if summary is not None:
        chips += _settings_chips("assistant", summary.assistant_settings, summary.assistant)
        chips += _settings_chips("user", summary.user_settings, summary.user)
    if config is not None and config.augment:
        chips.append(("augment", ", ".join(config.augment)))
    return chips


def _cards(run: RunData, metrics: list[tuple[str, Value]]) -> list[dict[str, str]]:
    summary = run.summary
    numeric = [(k, v) for k, v in metrics if v is not None and k not in COUNT_KEYS]
    cards = [
        {"key": k, "label": k.replace("_", " "), "value": fmt(v), "note": "", "cls": ""}
        for k, v in numeric[:3]
    ]
    scored = sum(e.value is not None for e in run.entries)
    if cards:
        cards[0]["cls"] = "primary"
        cards[0]["note"] = f"over {plural(scored, 'scored conversation')}"
        uncertainty = summary_uncertainty(summary)
        interval = uncertainty.metrics.get(cards[0]["key"]) if uncertainty else None
        if uncertainty and interval and interval.low is not None:
            cards[0]["note"] += f" · {ci_header(uncertainty)} {interval_text(interval)}"
    trials = run.trials
    errors = sum(e.status == "error" for e in run.entries)
    total, completed = len(run.entries), len(run.entries) - errors
    if summary is not None:
        total, errors, completed = summary.scenarios, summary.errors, summary.completed
    cards += [
        {
            "key": "scenarios",
            "label": "scenario trials" if trials > 1 else "scenarios",
            "value": fmt(total),
            "note": f"{trials} trials each" if trials > 1 else "",
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
    passes = trial_rows(summary.trials if summary is not None else None)
    if len(passes) > 1 and passes[-1].pass_hat_k is not None:
        cards.append(
            {
                "key": "pass_hat_k",
                "label": f"pass^{passes[-1].k}",
                "value": fmt(passes[-1].pass_hat_k),
                "note": "all k trials succeed",
                "cls": "",
            }
        )
    section = summary.user_errors if summary is not None else None
    if section is not None and section.share_with_errors is not None:
        cards.append(
            {
                "key": "user_errors",
                "label": "trials with a user error",
                "value": f"{section.share_with_errors:.0%}",
                "note": f"{section.trials_with_errors} of {section.trials} (simulated user)",
                "cls": "warn" if section.trials_with_errors else "",
            }
        )
    usage = _usage(run)
    if usage.calls:
        cards.append(
            {
                "key": "tokens",
                "label": "tokens",
                "value": fmt(usage.prompt_tokens + usage.completion_tokens),
                "note": f"{fmt(usage.calls)} model calls",
                "cls": "",
            }
        )
    return cards


def _usage(run: RunData) -> Usage:
    if run.summary is not None:
        return run.summary.usage
    total = Usage()
    for entry in run.entries:
        total = total.add(entry.trajectory.usage)
    return total


def _extra_tables(view: SummaryView | None) -> list[tuple[str, list[tuple[str, str]]]]:
    """Run-wide records some methods add (ToolTalk: its counts and error types)."""
    return [
        (title, [(k.replace("_", " "), fmt(v)) for k, v in values.items()])
        for title, values in (view.tables if view is not None else [])
    ]


def _baselines(run: RunData, scorers: Mapping[str, Scorer]) -> dict[str, Any]:
    """The run between its floor and ceiling (`baselines.json`), or how to add them."""
    kept = load_baselines(run.path)
    if run.summary is None or kept is None:
        return {"rows": [], "hint": f"toolplay baselines {shlex.quote(str(run.path))}"}
    return {
        "rows": baseline_rows(run.summary, kept, scorers),
        "sentence": baseline_sentence(run.summary, kept, scorers),
        "floor": FLOOR,
        "ceiling": CEILING,
        "assistant": run.summary.assistant,
    }


def _trial_spread(summary: RunSummary | None) -> str | None:
    """The main score's mean ± std over trials; None with one trial (no spread)."""
    if summary is None or summary.trials.score_mean is None or summary.trials.score_std is None:
        return None
    return f"{fmt(summary.trials.score_mean)} ± {fmt(summary.trials.score_std)}"


def _entry(entry: RunEntry, scorers: Mapping[str, Scorer]) -> dict[str, Any]:
    """One scenario trial as the viewer's script reads it (JSON data)."""
    trajectory, info = entry.trajectory, entry.info
    score = entry.score
    return {
        "id": entry.id,
        "trial": entry.trial,
        "status": entry.status,
        "score": entry.value,
        "evaluation": entry.evaluation or None,
        "termination": trajectory.termination,
        "error": entry.error,
        "usage": trajectory.usage.model_dump(mode="json"),
        "turn_count": entry.turn_count,
        "categories": list(info.categories),
        "domain": info.domain,
        "description": info.description,
        "split": info.split,
        "augmentation": info.augmentation,
        "mode": trajectory.mode,
        "tool_names": trajectory.tool_names,
        "messages": [m.model_dump(mode="json") for m in trajectory.messages],
        "changes": [c.model_dump(mode="json") for c in trajectory.changes],
        "details": None
        if score is None or score.evidence is None
        else score.evidence.model_dump(mode="json"),
        "evidence": extract_evidence(score, scorers),
        "user_errors": []
        if score is None or score.user_errors is None
        else [e.model_dump(mode="json") for e in score.user_errors.errors],
        "user_error_count": 0
        if score is None or score.user_errors is None
        else len(score.user_errors.errors),
    }


def _scorers(run: RunData) -> Mapping[str, Scorer]:
    """The scorers of the run's catalog (its plugins' too, when they still load)."""
    try:
        return run_scorers([run])
    except ReportError:  # a plugin of the run no longer loads: the built-ins still explain
        return run_scorers([])


def _glossary(run: RunData, scorers: Mapping[str, Scorer]) -> list[GlossaryRow]:
    """The glossary rows of the methods this run used (and the figures every run has; the
    user-error checks' when the run has a simulated user).
    """
    checks = run_user_checks(run) if run.summary and run.summary.user_errors else ()
    return glossary(scorers, {e.evaluation for e in run.entries}, checks)


def build_report(run: RunData) -> str:
    """The report page for a loaded run (see the module docstring for its contents)."""
    summary = run.summary
    scorers = _scorers(run)
    view = summary_view(summary, scorers) if summary is not None else None
    metrics = view.metrics if view is not None else []
    groups = view.breakdowns if view is not None else {}
    charts = [
        chart
        for group in groups.values()
        if (chart := group_chart(f"Score {group.title.lower()}", group.rows)) is not None
    ] + distribution_charts(run)
    group_tables = []
    uncertainty = summary_uncertainty(summary)
    for key, group in groups.items():
        columns, rows = with_intervals(
            *group_table(group.rows),
            uncertainty.breakdowns.get(key) if uncertainty else None,
            ci_header(uncertainty) if uncertainty else "",
        )
        group_tables.append(
            {
                "title": group.title,
                "name_header": key.removeprefix("by_").rstrip("s"),
                "columns": columns,
                "rows": [(n, [fmt(v.get(c)) for c in columns]) for n, v in rows],
            }
        )
    usage = _usage(run)
    suite = summary.suite_name if summary is not None else run.describe("suite")
    judged = judged_by_trial(run)
    entries = [
        {**_entry(e, scorers), "judged": judged.get((e.id, e.trial), [])} for e in run.entries
    ]
    return render_page(
        "report.html.jinja",
        script="report.js",
        payload={
            **pack_entries(entries),
            "trials": run.trials,
            "categories": sorted({c for e in run.entries for c in e.info.categories}),
            "domains": sorted({e.info.domain for e in run.entries if e.info.domain}),
            "augmentations": sorted(
                {e.info.augmentation for e in run.entries if e.info.augmentation}
            ),
        },
        title=f"toolplay report · {suite} · {run.describe('assistant')}",
        subtitle=(
            f"{run.describe('mode')} mode · user {run.describe('user')} · "
            f"{plural(len(entries), 'conversation')}"
        ),
        run_path=str(run.path),
        provenance=_provenance(run),
        notes=run.notes,
        cards=_cards(run, metrics),
        metrics=[(k, fmt(v)) for k, v in metrics],
        extra_tables=_extra_tables(view),
        trial_rows=[  # with one trial pass^1 is the perfect rate: shown as a metric
            (r.k, fmt(r.pass_hat_k), fmt(r.scenarios))
            for r in trial_rows(summary.trials if summary is not None else None)
        ]
        if run.trials > 1
        else [],
        trial_spread=_trial_spread(summary),
        uncertainty=uncertainty_context(run),
        usage=[
            ("prompt", fmt(usage.prompt_tokens)),
            ("completion", fmt(usage.completion_tokens)),
            ("model calls", fmt(usage.calls)),
        ],
        baselines=_baselines(run, scorers),
        termination_chart=termination_chart(run),
        charts=charts,
        groups=group_tables,
        errors=error_items(run),
        glossary=_glossary(run, scorers),
        user_errors=user_error_context(summary),
        reviews=review_context(run),
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
