"""Reports: the terminal summary, the HTML report of a run, and comparisons of runs."""

from toolplay.report._baselines import render_baselines
from toolplay.report._compare import Comparison, PairAgreement, compare_runs, load_human_scores
from toolplay.report._compare_html import build_comparison, write_comparison
from toolplay.report._data import ReportError, RunData, RunEntry, load_run
from toolplay.report._glossary import RUN_METRICS, GlossaryRow, glossary, glossary_markdown
from toolplay.report._html import REPORT_FILE, build_report, write_report
from toolplay.report._terminal import render_comparison, render_summary

__all__ = [
    "REPORT_FILE",
    "Comparison",
    "GlossaryRow",
    "RUN_METRICS",
    "PairAgreement",
    "ReportError",
    "RunData",
    "RunEntry",
    "build_comparison",
    "build_report",
    "compare_runs",
    "glossary",
    "glossary_markdown",
    "load_human_scores",
    "load_run",
    "render_baselines",
    "render_comparison",
    "render_summary",
    "write_comparison",
    "write_report",
]
