"""Reports: the terminal summary, the HTML report of a run, and comparisons of runs."""

from toolplay.report._audit_files import (
    AUDIT_CSV,
    AUDIT_HTML,
    AUDIT_JSON,
    PROPOSED_ERRATA,
    audit_csv,
    build_audit_page,
    write_audit,
)
from toolplay.report._audit_terminal import render_audit
from toolplay.report._baselines import render_baselines
from toolplay.report._compare_html import build_comparison, write_comparison
from toolplay.report._glossary import RUN_METRICS, GlossaryRow, glossary, glossary_markdown
from toolplay.report._html import REPORT_FILE, build_report, write_report
from toolplay.report._terminal import render_comparison, render_summary

__all__ = [
    "AUDIT_CSV",
    "AUDIT_HTML",
    "AUDIT_JSON",
    "PROPOSED_ERRATA",
    "audit_csv",
    "build_audit_page",
    "render_audit",
    "write_audit",
    "REPORT_FILE",
    "GlossaryRow",
    "RUN_METRICS",
    "build_comparison",
    "build_report",
    "glossary",
    "glossary_markdown",
    "render_baselines",
    "render_comparison",
    "render_summary",
    "write_comparison",
    "write_report",
]
