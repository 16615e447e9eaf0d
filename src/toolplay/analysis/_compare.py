"""`toolplay compare`: runs side by side, and how well their scores agree.

Two kinds of agreement, labelled apart:

- **system level** (AutoDE's Table 2): runs of several assistants under two or more methods
  (e.g. human vs dynamic evaluation) give one point per assistant and method, its run's
  headline metric (`slot_f1` for AutoDE); Pearson's r and ICC(3,1) are computed over the
  assistants each pair of methods shares. A run's method and assistant are its mode and
  assistant spec, or are named on the command line as `METHOD:ASSISTANT=RUN_DIR` (needed for
  replayed files, whose method is not a mode). Shown once some pair of methods shares at
  least two assistants.
- **per dialogue**: scores compared per scenario id, averaged over a run's scored trials, so
  a static and a dynamic run of the same suite (or two assistants) pair up scenario by
  scenario. Only scenarios scored in both sides enter a pair's statistics (`n`). When runs
  are named `METHOD:ASSISTANT=RUN_DIR`, like is paired with like: each assistant's runs under
  every two methods (the paper's per-dialogue figures), never two different assistants (16
  runs of 8 assistants under 2 methods give 8 pairs, not 120); a named run is labelled by its
  name. Unnamed runs are paired every run with every run, as before.
Beside both, the runs' paired differences with intervals and p-values (`_significance`), and
for runs played with different simulated users what the user changes (`_user_models`).
Runs scored against different versions of their suite (`scenarios._errata`) are refused,
naming them, unless `mixed_versions` allows it (`_versions`).
Human scores come from a CSV of `scenario_id,score` rows (a header row is optional); they
should be on the same scale as the runs' scores (0–1) for ICC(3,1) to be meaningful, as
ICC's consistency form forgives a constant offset but not a different scale.
"""

from __future__ import annotations

import csv
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from toolplay.analysis._metrics import Value, chart_metric, group_table, summary_view, trial_rows
from toolplay.analysis._run_data import ReportError, RunData, load_run, run_scorers
from toolplay.analysis._significance import Significance, significance
from toolplay.analysis._user_models import UserModelComparison, compare_user_models
from toolplay.analysis._versions import check_versions
from toolplay.runs import RunSummary
from toolplay.scenarios import ORIGINAL
from toolplay.scoring import Scorer
from toolplay.stats import (
    Agreement,
    SystemAgreement,
    UncertaintySettings,
    agreement,
    system_agreement,
)

__all__ = [
    "Comparison",
    "PairAgreement",
    "SYSTEM_METRICS",
    "headline_metric",
    "compare_runs",
    "load_human_scores",
    "spread",
]

HUMAN = "human"
SYSTEM_METRICS = ("slot_f1", "similarity", "success_rate", "score")
"""The metric that stands for a whole run in system-level agreement: the first one present."""
_ID_HEADERS = ("scenario_id", "scenario", "id")
_SCORE_HEADERS = ("score", "human", "human_score", "rating")


@dataclass(frozen=True)
class PairAgreement:
    """Agreement of two score sources over the scenarios both scored."""

    left: str
    right: str
    stats: Agreement
    points: tuple[tuple[str, float, float], ...]
    only_left: int
    only_right: int


@dataclass(frozen=True)
class Comparison:
    """Everything `toolplay compare` prints or renders."""

    runs: tuple[RunData, ...]
    labels: tuple[str, ...]
    human: dict[str, float] | None
    metric_rows: tuple[tuple[str, tuple[Value | str, ...]], ...]
    """Side by side: provenance (text), counts, every metric, pass^k and tokens, per run."""
    category_rows: tuple[tuple[str, tuple[Value, ...]], ...]
    category_metric: str | None
    pairs: tuple[PairAgreement, ...]
    scenario_rows: tuple[tuple[str, tuple[float | None, ...]], ...]
    systems: tuple[SystemAgreement, ...] = ()
    """System-level agreement per pair of methods (empty when no pair shares 2 assistants)."""
    system_metric: str | None = None
    significance: Significance | None = None
    """Paired differences (two runs) or pairwise differences and a ranking (more)."""
    user_models: UserModelComparison | None = None
    """What changes with the simulated user, when the runs had two or more (`_user_models`)."""
    pairing: Literal["all", "within_assistant"] = "all"
    """How runs were paired for per-scenario agreement (see the module docstring)."""
    suite_version: str = ORIGINAL
    """The suite version the runs are scored against (several, `; `-joined, when mixed)."""

    @property
    def sources(self) -> tuple[str, ...]:
        """Column names of `scenario_rows`: the run labels, then `human` when given."""
        return self.labels + ((HUMAN,) if self.human is not None else ())


def load_human_scores(path: Path) -> dict[str, float]:
    """Read human scores from a CSV file: one `scenario_id,score` row per scenario.

    A first row whose score column is not a number is taken as a header; a header may name
    its columns (`scenario_id`/`scenario`/`id` and `score`/`human`/`rating`) in any order.
    Blank lines and lines starting with `#` are skipped.

    Scores must be on the runs' 0-1 scale (ICC(3,1) forgives an offset, not a scale), and a
    row without a header has exactly two columns.

    Raises:
        ReportError: The file is unreadable, a row is malformed, a score is not a finite
            number in [0, 1], or a scenario id appears twice (naming file, line and reason).
    """
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ReportError(f"{path}: cannot read human scores ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise ReportError(f"{path}: not UTF-8 text (expected a CSV file)") from exc
    id_col, score_col = 0, 1
    scores: dict[str, float] = {}
    first, headerless = True, True
    for number, row in enumerate(csv.reader(text.splitlines()), 1):
        cells = [c.strip() for c in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if len(cells) < 2:
            raise ReportError(f"{path}: line {number}: expected 'scenario_id,score'")
        if first:
            first = False
            if _number(cells[score_col]) is None:
                names = [c.lower() for c in cells]
                id_col = next((names.index(h) for h in _ID_HEADERS if h in names), 0)
                score_col = next((names.index(h) for h in _SCORE_HEADERS if h in names), 1)
                headerless = False
                continue
        if max(id_col, score_col) >= len(cells):
            raise ReportError(f"{path}: line {number}: missing column")
        if len(cells) > 2 and headerless:
            raise ReportError(
                f"{path}: line {number}: {len(cells)} columns; expected 'scenario_id,score' "
                "(or a header naming the columns)"
            )
        scenario, value = cells[id_col], _number(cells[score_col])
        if not scenario:
            raise ReportError(f"{path}: line {number}: empty scenario id")
        if value is None:
            raise ReportError(
                f"{path}: line {number}: score {cells[score_col]!r} is not a finite number"
            )
        if not 0.0 <= value <= 1.0:
            raise ReportError(
                f"{path}: line {number}: score {cells[score_col]} is outside the runs' "
                "0-1 scale (rescale it, e.g. (rating - 1) / 4 for a 1-5 scale)"
            )
        if scenario in scores:
            raise ReportError(f"{path}: line {number}: scenario {scenario!r} appears twice")
        scores[scenario] = value
    if not scores:
        raise ReportError(f"{path}: no scores found")
    return scores


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _labels(
    runs: Sequence[RunData], keys: Sequence[tuple[str, str] | None] = ()
) -> tuple[str, ...]:
    """A named run's `METHOD:ASSISTANT`, else its folder's name (its path when two clash)."""
    names = [r.label for r in runs]
    if len(set(names)) != len(names):
        names = [str(r.path) for r in runs]
    return tuple(
        f"{key[0]}:{key[1]}" if key is not None else name
        for name, key in itertools.zip_longest(names, keys[: len(names)])
    )


def _like_pairs(
    runs: Sequence[RunData], keys: Sequence[tuple[str, str] | None]
) -> list[tuple[int, int]]:
    """Index pairs of one assistant's runs under two methods (order of the command line)."""
    found = [
        key or (run.describe("mode"), run.describe("assistant"))
        for run, key in zip(runs, keys, strict=True)
    ]
    return [
        (i, j)
        for i, j in itertools.combinations(range(len(runs)), 2)
        if found[i][1] == found[j][1] and found[i][0] != found[j][0]
    ]


def _pair(left: str, a: dict[str, float], right: str, b: dict[str, float]) -> PairAgreement:
    common = sorted(set(a) & set(b))
    return PairAgreement(
        left=left,
        right=right,
        stats=agreement([a[s] for s in common], [b[s] for s in common]),
        points=tuple((s, a[s], b[s]) for s in common),
        only_left=len(set(a) - set(b)),
        only_right=len(set(b) - set(a)),
    )


def _side_by_side(
    runs: Sequence[RunData], scorers: Mapping[str, Scorer]
) -> list[tuple[str, tuple[Value | str, ...]]]:
    """Configuration, counts, every metric, pass^k and tokens, one column per run.

    `scenarios` counts distinct scenarios and `scenario trials` (shown when a run has several
    trials) what was played, so 276 dialogues × 4 trials read as 276 and 1,104; a method's
    own count of the same thing (AutoDE's `trials`) is not repeated.
    """
    rows: list[tuple[str, tuple[Value | str, ...]]] = []
    for key in ("suite", "mode", "assistant", "user"):
        rows.append((key, tuple(r.describe(key) for r in runs)))
    rows.append(("trials", tuple(r.trials for r in runs)))
    summaries = [r.summary for r in runs]
    rows.append(("scenarios", tuple(len({e.id for e in r.entries}) for r in runs)))
    if any(r.trials > 1 for r in runs):
        rows.append(("scenario trials", tuple(getattr(s, "scenarios", None) for s in summaries)))
    for key, label in (("completed", "completed"), ("errors", "infrastructure errors")):
        rows.append((label, tuple(getattr(s, key, None) for s in summaries)))
    flat = [dict(summary_view(s, scorers).metrics) if s is not None else {} for s in summaries]
    keys: list[str] = []
    shown = {name for name, _ in rows}
    for metrics in flat:
        keys += [k for k in metrics if k not in keys and k not in shown]
    rows += [(k, tuple(m.get(k) for m in flat)) for k in keys]
    passes = [
        {r.k: r.pass_hat_k for r in trial_rows(s.trials if s is not None else None)}
        for s in summaries
    ]
    ks = sorted({k for p in passes for k in p}, key=lambda k: (len(k), k))
    rows += [(f"pass^{k}", tuple(p.get(k) for p in passes)) for k in ks]
    for key, label in (
        ("prompt_tokens", "prompt tokens"),
        ("completion_tokens", "completion tokens"),
    ):
        rows.append((label, tuple(getattr(s.usage, key) if s else None for s in summaries)))
    return rows


def _by_category(runs: Sequence[RunData]) -> tuple[str | None, list[tuple[str, tuple[Value, ...]]]]:
    tables = [
        group_table(
            {k: v.values() for k, v in (r.summary.by_category if r.summary else {}).items()}
        )
        for r in runs
    ]
    metric = next((m for cols, rows in tables if (m := chart_metric(cols, rows))), None)
    if metric is None:
        return None, []
    names = sorted({name for _, rows in tables for name, _ in rows})
    by_run = [dict(rows) for _, rows in tables]
    return metric, [(n, tuple(r.get(n, {}).get(metric) for r in by_run)) for n in names]


def compare_runs(
    run_dirs: Sequence[Path],
    human: Path | None = None,
    *,
    uncertainty: UncertaintySettings | None = None,
    plugins: Sequence[str] = (),
    mixed_versions: bool = False,
) -> Comparison:
    """Load runs (and optional human scores) and compute every pairwise agreement.

    Args:
        run_dirs: Two or more run directories (one is allowed when `human` is given).
        human: A CSV of human scores per scenario.
        uncertainty: Settings of the paired intervals and tests (default 95 %, 2,000
            resamples, seed 0).
        plugins: Plugin modules to load besides the runs' own (their scorers say how
            their metrics decompose for the paired tests).
        mixed_versions: Compare runs scored against different suite versions.

    Returns:
        The comparison: side-by-side metrics, per-category scores, pairwise agreement
        (every pair of runs, then every run against the human scores), per-scenario
        scores, and whether the runs' differences are significant (two or more runs).

    Raises:
        ReportError: Too few sources to compare, an unreadable run or CSV, human scores
            for a scenario none of the runs' suites has, or runs at different suite versions
            (without `mixed_versions`).
    """
    if len(run_dirs) + (human is not None) < 2:
        raise ReportError("compare needs two run directories, or one and --human")
    named = [_named_run(str(d)) for d in run_dirs]
    runs = tuple(load_run(path) for _, path in named)
    keys = [key for key, _ in named]
    labels = _labels(runs, keys)
    version = check_versions(labels, runs, mixed=mixed_versions)
    humans = None
    if human is not None:
        humans = load_human_scores(human)
        _check_human_ids(human, humans, runs)
    scorers = run_scorers(runs, plugins)
    scores = [r.scenario_scores() for r in runs]
    like = any(key is not None for key in keys)
    chosen = _like_pairs(runs, keys) if like else itertools.combinations(range(len(runs)), 2)
    pairs = [_pair(labels[i], scores[i], labels[j], scores[j]) for i, j in chosen]
    if humans is not None:
        pairs += [_pair(labels[i], scores[i], HUMAN, humans) for i in range(len(runs))]
    columns = scores + ([humans] if humans is not None else [])
    ids = sorted({s for column in columns for s in column})
    scenario_rows = tuple((s, tuple(c.get(s) for c in columns)) for s in ids)
    metric, category_rows = _by_category(runs)
    system_metric, systems = _systems(runs, keys)
    return Comparison(
        runs=runs,
        labels=labels,
        human=humans,
        metric_rows=tuple(_side_by_side(runs, scorers)),
        category_rows=tuple(category_rows),
        category_metric=metric,
        pairs=tuple(pairs),
        scenario_rows=scenario_rows,
        systems=systems,
        system_metric=system_metric,
        significance=significance(labels, runs, uncertainty or UncertaintySettings(), scorers)
        if len(runs) >= 2
        else None,
        user_models=compare_user_models(runs, labels),
        pairing="within_assistant" if like else "all",
        suite_version=version,
    )


def _named_run(text: str) -> tuple[tuple[str, str] | None, Path]:
    """`METHOD:ASSISTANT=DIR` → ((method, assistant), DIR); a plain directory → (None, DIR)."""
    label, sep, path = text.partition("=")
    if not sep or Path(text).exists():
        return None, Path(text)
    method, colon, assistant = label.partition(":")
    if not colon or not method or not assistant or not path:
        raise ReportError(f"{text}: name a run as METHOD:ASSISTANT=RUN_DIR (or give the dir)")
    return (method, assistant), Path(path)


def headline_metric(summary: RunSummary | None) -> tuple[str, float] | None:
    """The metric that stands for a whole run (`SYSTEM_METRICS`), if it has one."""
    if summary is None:
        return None
    for name in SYSTEM_METRICS:
        value = summary.metrics.get(name)
        if value is not None:
            return name, float(value)
    return None


def _systems(
    runs: Sequence[RunData], keys: Sequence[tuple[str, str] | None]
) -> tuple[str | None, tuple[SystemAgreement, ...]]:
    """System-level agreement between every two methods (see the module docstring)."""
    scores: dict[str, dict[str, float]] = {}
    metric: str | None = None
    for run, key in zip(runs, keys, strict=True):
        method, assistant = key or (run.describe("mode"), run.describe("assistant"))
        found = headline_metric(run.summary)
        if found is None:
            continue
        if metric not in (None, found[0]):
            return None, ()  # runs of different methods' metrics do not share a scale
        metric = found[0]
        if assistant in scores.setdefault(method, {}):
            if key is not None:
                raise ReportError(f"{method}:{assistant} names two runs")
            return None, ()  # unnamed runs that collide: the grouping is not clear
        scores[method][assistant] = found[1]
    methods = list(scores)
    out = [
        system_agreement(a, b, scores[a], scores[b])
        for i, a in enumerate(methods)
        for b in methods[i + 1 :]
        if len(set(scores[a]) & set(scores[b])) >= 2
    ]
    return (metric if out else None), tuple(out)


def _check_human_ids(path: Path, humans: dict[str, float], runs: Sequence[RunData]) -> None:
    """Refuse human scores for scenarios none of the runs has (a typo or the wrong file).

    A scenario the run's suite has but the run did not play (`--limit`) is fine.
    """
    known: set[str] = set()
    for run in runs:
        known |= run.suite_ids if run.suite_ids is not None else {e.id for e in run.entries}
    unknown = [scenario for scenario in humans if scenario not in known]
    if unknown:
        others = f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""
        raise ReportError(
            f"{path}: scenario {unknown[0]!r}{others} is in none of the compared runs' suites"
        )


def spread(values: Sequence[float | None]) -> float | None:
    """Largest minus smallest of the known scores of one scenario (None if fewer than two)."""
    known = [v for v in values if v is not None]
    return max(known) - min(known) if len(known) > 1 else None
