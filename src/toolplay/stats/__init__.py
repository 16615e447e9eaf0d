"""Pure statistics over numbers, with no knowledge of runs or methods.

Seeded bootstrap intervals, paired differences and permutation tests, Holm's correction and a
cautious ranking, trial power, pass^k, item analysis (discrimination, trial
disagreement), and agreement (Pearson, Spearman, ICC(3,1); system level as in AutoDE's
Table 2; Kendall's tau between rankings). `toolplay.analysis` applies them to run folders.
"""

from toolplay.stats._agreement import Agreement, agreement, icc_3_1, pearson, spearman
from toolplay.stats._bootstrap import (
    CiMethod,
    ConfidenceInterval,
    Ratio,
    UncertaintySettings,
    bootstrap_intervals,
    ratio_value,
)
from toolplay.stats._items import (
    Discrimination,
    correlation_interval,
    discrimination,
    trial_disagreement,
)
from toolplay.stats._kendall import kendall_tau
from toolplay.stats._multiple import RankedRun, holm, significance_ranking
from toolplay.stats._paired import PairedDifference, paired_difference
from toolplay.stats._pass_k import pass_hat_k
from toolplay.stats._system_agreement import SystemAgreement, system_agreement
from toolplay.stats._trial_power import (
    DetectableDifference,
    ScenarioSpread,
    TrialPower,
    scenario_spreads,
    trial_power,
)

__all__ = [
    "Agreement",
    "CiMethod",
    "ConfidenceInterval",
    "DetectableDifference",
    "Discrimination",
    "PairedDifference",
    "RankedRun",
    "Ratio",
    "ScenarioSpread",
    "SystemAgreement",
    "TrialPower",
    "UncertaintySettings",
    "agreement",
    "bootstrap_intervals",
    "correlation_interval",
    "discrimination",
    "holm",
    "icc_3_1",
    "kendall_tau",
    "paired_difference",
    "pass_hat_k",
    "pearson",
    "ratio_value",
    "scenario_spreads",
    "significance_ranking",
    "spearman",
    "system_agreement",
    "trial_disagreement",
    "trial_power",
]
