"""Analyses over stored runs: comparisons, agreement and significance, as typed results.

Everything here reads run folders (never plays a conversation) and hands typed results to
`toolplay.report`, which only renders them.
"""

from toolplay.analysis._audit import AuditInput, audit_runs, check_inputs, run_role
from toolplay.analysis._audit_baselines import play_missing_baselines
from toolplay.analysis._audit_model import (
    ANALYSIS_SCHEMAS,
    AUDIT_VERSION,
    FLAG_RULES,
    Audit,
    AuditRun,
    AuditSettings,
    Flag,
    FlagRule,
    ScenarioAudit,
)
from toolplay.analysis._compare import Comparison, PairAgreement, compare_runs, load_human_scores
from toolplay.analysis._run_data import ReportError, RunData, RunEntry, load_run

__all__ = [
    "ANALYSIS_SCHEMAS",
    "AUDIT_VERSION",
    "FLAG_RULES",
    "Audit",
    "AuditInput",
    "AuditRun",
    "AuditSettings",
    "Flag",
    "FlagRule",
    "ScenarioAudit",
    "audit_runs",
    "check_inputs",
    "play_missing_baselines",
    "run_role",
    "Comparison",
    "PairAgreement",
    "ReportError",
    "RunData",
    "RunEntry",
    "compare_runs",
    "load_human_scores",
    "load_run",
]
