"""ToolTalk (Farn & Shin, 2023): its data importer, static play, call matching and replay.

The seven plugins' tools live in `toolplay.domains.tooltalk`; see README.md beside this file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolplay.methods.tooltalk._call_rules import Call, calls_match
from toolplay.methods.tooltalk._evidence import ToolTalkCounts, ToolTalkEvidence
from toolplay.methods.tooltalk._executor import ReferenceExecutor
from toolplay.methods.tooltalk._importer import import_tooltalk, load_databases, tooltalk_turns
from toolplay.methods.tooltalk._paper import paper_departures
from toolplay.methods.tooltalk._presentation import TooltalkPresentation, tooltalk_presentations
from toolplay.methods.tooltalk._replay import ReplayAssistant, build_replay_assistant
from toolplay.methods.tooltalk._scorer import tooltalk_scorer
from toolplay.methods.tooltalk._scoring import reproduces_reference, score_tooltalk
from toolplay.methods.tooltalk._summary import (
    DEFAULT_SPLIT,
    ToolTalkGroup,
    ToolTalkSection,
    ToolTalkTotals,
    aggregate_tooltalk,
)
from toolplay.roles import PromptTexts, ReplayFormat

if TYPE_CHECKING:
    from toolplay.catalog import Catalog

__all__ = [
    "register",
    "ToolTalkCounts",
    "ToolTalkEvidence",
    "ToolTalkGroup",
    "ToolTalkSection",
    "ToolTalkTotals",
    "Call",
    "DEFAULT_SPLIT",
    "ReferenceExecutor",
    "ReplayAssistant",
    "TooltalkPresentation",
    "aggregate_tooltalk",
    "build_replay_assistant",
    "calls_match",
    "import_tooltalk",
    "load_databases",
    "paper_departures",
    "reproduces_reference",
    "score_tooltalk",
    "tooltalk_turns",
]


TOOLTALK_DATA = "ToolTalk data folder (databases/ plus one folder of conversations per split)."


PREDICTIONS = ReplayFormat(
    "tooltalk",
    build_replay_assistant,
    "a folder of ToolTalk predictions",
    "replay:DIR",
)
"""`replay:DIR`: predictions saved in ToolTalk's output layout, executed again (any PATH no
other format takes: the folder is checked when it is read)."""


def register(catalog: Catalog) -> None:
    """Register ToolTalk's importer (`tooltalk:DIR`), scorer (`tooltalk`), replay of saved
    predictions (`replay:DIR`) and reference presentations (`tooltalk`, the default of
    `tooltalk:DIR`; `tooltalk-suite`, `tooltalk-exact`).
    """
    catalog.add_scorer(tooltalk_scorer())
    catalog.add_importer("tooltalk", import_tooltalk, TOOLTALK_DATA, "DIR")
    catalog.add_replay_format(PREDICTIONS)
    own = catalog.presentations.get("toolplay")
    for presentation in tooltalk_presentations(own.texts if own is not None else PromptTexts):
        catalog.add_presentation(presentation)
