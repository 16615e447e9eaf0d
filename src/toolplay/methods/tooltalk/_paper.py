"""The setup of the ToolTalk paper's runs, and how a run's configuration departs from it.

The paper (Farn & Shin, 2023; README of microsoft/ToolTalk) evaluated `gpt-3.5-turbo-0613` and
`gpt-4-0613` with the reference's `evaluate_openai.py` as its scripts call it: static evaluation
(Algorithm 1) of every conversation, `--api_mode all` (all 28 function docs), documentation on
(its ablation: `--disable_documentation`, toolplay's `--augment no_docs`), no sampling settings
sent (the endpoint's defaults), no cap on calls per turn, the legacy `functions` format. In
toolplay that is `--suite tooltalk:DIR` as it comes: static mode, the `tooltalk` presentation,
no temperature. The cap toolplay keeps on calls per turn (a safety net: the reference's loop
had none) changes nothing until a turn reaches it, and a turn that does is recorded
(`call_limit`), so it is not a departure of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolplay.scenarios import departure

PAPER_MODELS = ("gpt-4-0613", "gpt-3.5-turbo-0613")
"""The model snapshots of the paper's runs."""
PAPER_PRESENTATION = "tooltalk"
PAPER_AUGMENTATIONS = ((), ("no_docs",))
"""The paper's settings: documentation on, and its documentation-removed ablation."""


def paper_departures(config: Mapping[str, Any]) -> list[str]:
    """Each way a run's configuration (`RunConfig` as JSON) departs from the paper's setup."""
    departures = departure(
        config,
        "presentation",
        [PAPER_PRESENTATION],
        f"the paper's runs sent the reference's requests with all 28 function docs "
        f"({PAPER_PRESENTATION!r})",
    )
    departures += departure(
        config, "mode", ["static"], "the paper evaluated statically (Algorithm 1)"
    )
    augment = tuple(config.get("augment") or ())
    if augment not in PAPER_AUGMENTATIONS:
        departures.append(
            f"augmentation {'+'.join(augment)!r}: the paper's settings are none and its "
            "documentation ablation (no_docs)"
        )
    model = config.get("assistant_model") or {}
    for key in ("temperature", "seed", "max_tokens"):
        if model.get(key) is not None:
            departures.append(
                f"{key} {model[key]} sent: the paper's runs sent none (the endpoint's default)"
            )
    if model.get("wire") == "tools":
        departures.append(
            "the tools wire format: the paper's runs used the legacy functions format (the "
            "content is the same)"
        )
    play = config.get("play") or {}
    if play.get("system_prompt") is not None:
        departures.append("a system prompt of the run's own: the paper's runs used ToolTalk's")
    return departures
