"""Analyses over stored runs: comparisons, agreement and significance, as typed results.

Everything here reads run folders (never plays a conversation) and hands typed results to
`toolplay.report`, which only renders them: a summary's metrics, tables and breakdowns as each
method's scorer reads its section (`summary_view`), comparisons of runs (`compare_runs`) and
whether their differences are real (`significance`).
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
from toolplay.analysis._compare import (
    SYSTEM_METRICS,
    Comparison,
    PairAgreement,
    compare_runs,
    headline_metric,
    load_human_scores,
    spread,
)
from toolplay.analysis._metrics import (
    COUNT_KEYS,
    GROUP_SECTIONS,
    HEADLINE_ORDER,
    SummaryView,
    TrialRow,
    Value,
    chart_metric,
    group_table,
    ordered,
    summary_view,
    trial_rows,
)
from toolplay.analysis._run_data import (
    ReportError,
    RunData,
    RunEntry,
    load_run,
    run_scorers,
    run_user_checks,
)
from toolplay.analysis._significance import PairedRuns, RunRanking, Significance, significance
from toolplay.analysis._user_models import UserErrorRate, UserModelComparison

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
    "COUNT_KEYS",
    "GROUP_SECTIONS",
    "HEADLINE_ORDER",
    "SYSTEM_METRICS",
    "Comparison",
    "PairAgreement",
    "PairedRuns",
    "ReportError",
    "RunData",
    "RunEntry",
    "RunRanking",
    "Significance",
    "SummaryView",
    "TrialRow",
    "UserErrorRate",
    "UserModelComparison",
    "Value",
    "chart_metric",
    "compare_runs",
    "group_table",
    "headline_metric",
    "load_human_scores",
    "load_run",
    "ordered",
    "run_scorers",
    "run_user_checks",
    "significance",
    "spread",
    "summary_view",
    "trial_rows",
]
