"""Analyses over stored runs: comparisons, agreement and significance, as typed results.

Everything here reads run folders (never plays a conversation) and hands typed results to
`toolplay.report`, which only renders them.
"""

from toolplay.analysis._compare import Comparison, PairAgreement, compare_runs, load_human_scores
from toolplay.analysis._run_data import ReportError, RunData, RunEntry, load_run

__all__ = [
    "Comparison",
    "PairAgreement",
    "ReportError",
    "RunData",
    "RunEntry",
    "compare_runs",
    "load_human_scores",
    "load_run",
]
