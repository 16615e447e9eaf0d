"""The files `toolplay audit` writes: `audit.json`, `audit.csv`, `audit.html` and, when the
evidence supports corrections, `errata.proposed.yaml`.

`audit.html` is a static page (no script): the flags with their rules, every scenario with its
numbers, and per scenario its runs' trials and parts, each trial and each flag's evidence
linked to the trajectory viewer of its run's report (`RUN/report.html#scenario=ID&trial=T`).
A run without a report gets one written (`toolplay report` would write the same file), so the
links work; the links are relative, so the audit folder and the runs can move together.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import yaml

from toolplay.analysis import Audit, ScenarioAudit
from toolplay.report._html import REPORT_FILE, write_report
from toolplay.report._page import render_page
from toolplay.scenarios import ERRATA_FORMAT, ErrataFile
from toolplay.store import write_atomic

__all__ = [
    "AUDIT_CSV",
    "AUDIT_HTML",
    "AUDIT_JSON",
    "PROPOSED_ERRATA",
    "audit_csv",
    "build_audit_page",
    "proposed_errata_text",
    "write_audit",
]

AUDIT_JSON = "audit.json"
AUDIT_CSV = "audit.csv"
AUDIT_HTML = "audit.html"
PROPOSED_ERRATA = "errata.proposed.yaml"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def audit_csv(audit: Audit) -> str:
    """One row per scenario (most suspect first), every number at full precision."""
    tested = [r.label for r in audit.runs if r.role == "run"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        [
            "rank",
            "scenario",
            "suspicion",
            "flags",
            "solve_rate",
            "mean",
            "floor",
            "ceiling",
            "trial_disagreement",
            "discrimination",
            "discrimination_low",
            "discrimination_high",
            *(f"score:{label}" for label in tested),
        ]
    )
    for rank, item in enumerate(audit.items, 1):
        by_run = {r.run: r.mean for r in item.runs}
        found = item.discrimination
        writer.writerow(
            [
                rank,
                item.id,
                item.suspicion,
                ";".join(f.code for f in item.flags),
                *(
                    "" if v is None else repr(v)
                    for v in (
                        item.solve_rate,
                        item.mean,
                        item.floor,
                        item.ceiling,
                        item.trial_disagreement,
                        found.r,
                        found.low,
                        found.high,
                        *(by_run.get(label) for label in tested),
                    )
                ),
            ]
        )
    return buffer.getvalue()


def _link(report: str | None, scenario: str, trial: int) -> str | None:
    if report is None:
        return None
    return f"{report}#{urlencode({'scenario': scenario, 'trial': trial})}"


def _item(item: ScenarioAudit, reports: Mapping[str, str | None]) -> dict[str, Any]:
    found = item.discrimination
    interval = f" [{_num(found.low)}, {_num(found.high)}]" if found.low is not None else ""
    return {
        "id": item.id,
        "description": item.description,
        "categories": item.categories,
        "suspicion": item.suspicion,
        "codes": [f.code for f in item.flags],
        "solve": _num(item.solve_rate),
        "mean": _num(item.mean),
        "floor": _num(item.floor),
        "ceiling": _num(item.ceiling),
        "trial": _num(item.trial_disagreement),
        "discrimination": f"{_num(found.r)}{interval} (n={found.n})",
        "flags": [
            {
                "code": flag.code,
                "detail": flag.detail,
                "refs": [
                    {
                        "run": ref.run,
                        "trial": ref.trial,
                        "score": _num(ref.score),
                        "href": _link(reports.get(ref.run), item.id, ref.trial),
                    }
                    for ref in flag.evidence
                ],
            }
            for flag in item.flags
        ],
        "runs": [
            {
                "run": run.run,
                "cells": [
                    {"value": _num(v), "href": _link(reports.get(run.run), item.id, t)}
                    for t, v in enumerate(run.scores)
                ],
                "mean": _num(run.mean),
                "solved": run.solved,
                "disagreement": _num(run.disagreement),
            }
            for run in item.runs
        ],
        "milestones": [
            {
                "id": m.id,
                "best": _num(m.best),
                "runs_reaching": m.runs_reaching,
                "ceiling": _num(m.ceiling),
            }
            for m in item.milestones
        ],
        "slots": [
            {
                "slot": s.slot,
                "gold": repr(s.gold),
                "correct": s.correct,
                "wrong": s.wrong,
                "missing": s.missing,
                "runs_filling": s.runs_filling,
                "common": f"{s.common!r} x{s.common_count} ({s.common_runs} run(s))"
                if s.common_count
                else "-",
            }
            for s in item.slots
        ],
    }


def build_audit_page(audit: Audit, reports: Mapping[str, str | None]) -> str:
    """The audit page's HTML; `reports` maps a run label to its report's relative URL."""
    return render_page(
        "audit.html.jinja",
        title=f"toolplay audit · {audit.suite}",
        suite=audit.suite,
        suite_version=audit.suite_version,
        scenarios=audit.scenarios,
        flagged=audit.flagged,
        level=f"{audit.settings.level:.0%}",
        notes=audit.notes,
        runs=[
            {
                "role": r.role,
                "label": r.label,
                "mode": r.mode,
                "trials": r.trials,
                "mean": _num(r.mean),
                "played": r.played,
                "report": reports.get(r.label),
            }
            for r in audit.runs
        ],
        rules=[
            {**rule.model_dump(), "count": audit.flag_counts.get(rule.code, 0)}
            for rule in audit.rules
        ],
        items=[_item(item, reports) for item in audit.items],
        proposals=[e.model_dump() for e in audit.proposed_errata],
        proposals_file=PROPOSED_ERRATA,
    )


def proposed_errata_text(audit: Audit) -> str:
    """The proposals as an errata file (valid as it stands, meant to be reviewed first)."""
    draft = ErrataFile(
        errata_format=ERRATA_FORMAT,
        suite=audit.suite,
        description="Drafted by toolplay audit from the runs' evidence: review every entry "
        "(drop or edit it) before scoring against it.",
        entries=audit.proposed_errata,
    )
    data = draft.model_dump(mode="json", exclude_defaults=False)
    for entry in data["entries"]:
        for key in ("set", "unset"):
            if not entry[key]:
                del entry[key]
        if not entry["withdraw"]:
            del entry["withdraw"]
    text: str = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    return "# toolplay audit: proposed errata (review before use; see docs/audit.md)\n" + text


def _report_url(run_dir: Path, out: Path) -> str:
    return quote(Path(os.path.relpath(run_dir / REPORT_FILE, out)).as_posix())


def write_audit(audit: Audit, out: Path) -> list[Path]:
    """Write the audit's files into `out` (created if needed); missing run reports are
    written so the trajectory links work.

    Returns:
        The files written, the run reports included.
    """
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    reports: dict[str, str | None] = {}
    for run in audit.runs:
        run_dir = Path(run.path)
        if not (run_dir / REPORT_FILE).exists():
            written.append(write_report(run_dir))
        reports[run.label] = _report_url(run_dir, out)
    files = {
        AUDIT_JSON: audit.model_dump_json(indent=2) + "\n",
        AUDIT_CSV: audit_csv(audit),
        AUDIT_HTML: build_audit_page(audit, reports),
    }
    if audit.proposed_errata:
        files[PROPOSED_ERRATA] = proposed_errata_text(audit)
    for name, text in files.items():
        write_atomic(out / name, text)
        (out / name).chmod(0o644)
        written.append(out / name)
    return written
