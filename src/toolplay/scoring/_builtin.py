"""The core's own scorer (`state`), as the catalog registers it.

The published methods' scorers register themselves from `toolplay.methods`.
"""

from __future__ import annotations

from toolplay.scoring._decomposition import MEAN_PARTS
from toolplay.scoring._evidence import StateEvidence
from toolplay.scoring._scorer import Metric, Scorer, mean_score
from toolplay.scoring._state import score_state, show_state


def builtin_scorers() -> list[Scorer]:
    """The core's scoring methods."""
    return [
        Scorer(
            "state",
            score_state,
            mean_score,
            (
                Metric("score", "Share of changed tables that end as the reference leaves them."),
                Metric("perfect_rate", "Share of scenario trials scoring 1."),
            ),
            "Final world state compared with the reference solution's, table by table.",
            parts=MEAN_PARTS,
            evidence=StateEvidence,
            show_evidence=show_state,
        )
    ]
