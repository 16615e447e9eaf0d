"""AutoDE (Mu et al., 2024): user scripts, the official data's protocol, slot scoring, replay.

See README.md beside this file.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from toolplay.conversation import Mode, StaticSettings
from toolplay.methods.autode._data import import_autode_data
from toolplay.methods.autode._evidence import CallRecord, SlotEvidence, SlotPrediction
from toolplay.methods.autode._loop import AutodeSettings, act_until_call, post_dialogue
from toolplay.methods.autode._paper import paper_departures
from toolplay.methods.autode._presentation import (
    AutodePresentation,
    call_style,
    read_text_call,
)
from toolplay.methods.autode._protocol import (
    autode_protocol_modes,
    play_autode_protocol,
    play_autode_protocol_static,
    protocol_prompt,
    without_tag,
)
from toolplay.methods.autode._reference import ReferenceTexts, reference_texts
from toolplay.methods.autode._replay import AutodeResultsReplay, build_results_replay
from toolplay.methods.autode._scorer import slots_scorer
from toolplay.methods.autode._scoring import SlotSettings, aggregate_slots, score_slots
from toolplay.methods.autode._scripts import autode_suite
from toolplay.methods.autode._section import SlotsSection
from toolplay.methods.autode._slot_label import SlotLabel, slot_label
from toolplay.methods.autode._slots import clean_prediction, slot_scores
from toolplay.methods.autode._static import play_autode_static
from toolplay.methods.autode._user_facts import AUTODE_FACTS, read_autode_facts
from toolplay.roles import ReplayFormat
from toolplay.scenarios import LoadContext, Suite

if TYPE_CHECKING:
    from toolplay.catalog import Catalog

__all__ = [
    "register",
    "CallRecord",
    "SlotEvidence",
    "SlotPrediction",
    "SlotsSection",
    "AutodePresentation",
    "AutodeResultsReplay",
    "AutodeSettings",
    "ReferenceTexts",
    "SlotSettings",
    "act_until_call",
    "post_dialogue",
    "build_results_replay",
    "SlotLabel",
    "aggregate_slots",
    "autode_protocol_modes",
    "autode_suite",
    "call_style",
    "clean_prediction",
    "import_autode_data",
    "paper_departures",
    "play_autode_protocol",
    "play_autode_protocol_static",
    "protocol_prompt",
    "read_autode_facts",
    "read_text_call",
    "reference_texts",
    "score_slots",
    "slot_label",
    "slot_scores",
    "without_tag",
]


AUTODE = "AutoDE-style user scripts over the sandbox tools, scored by slot precision/recall/F1."
AUTODE_DATA = (
    "An AutoDE checkout (datasets/data_v1_2.jsonl, API_list.xlsx): the official benchmark, "
    "played under AutoDE's protocol; ?required=marked for the sheet's own required slots."
)


def _autode_builtin(argument: str, context: LoadContext) -> Suite:
    return autode_suite(context)


def _autode_scripts(argument: str, context: LoadContext) -> Suite:
    return autode_suite(context, Path(argument))


def _results_file(path: Path) -> bool:
    return path.suffix == ".jsonl" and not path.is_dir()


RESULTS = ReplayFormat(
    "autode-results",
    build_results_replay,
    "a results file",
    "replay:FILE.jsonl",
    accepts=_results_file,
)
"""`replay:FILE.jsonl`: a published AutoDE results file, read as a recording."""


def register(catalog: Catalog) -> None:
    """Register AutoDE's scorer (`slots`), modes, presentation, `autode` suite and importers,
    and the slot values its users' scripts fix (for the user-error checks).
    """
    catalog.add_scorer(slots_scorer())
    catalog.add_presentation(AutodePresentation())
    catalog.add_user_facts(AUTODE_FACTS)
    catalog.add_mode(
        Mode(
            "autode-static",
            play_autode_static,
            "AutoDE's static evaluation: the reference dialogue, then one forced call.",
            StaticSettings,
        )
    )
    for mode in autode_protocol_modes():
        catalog.add_mode(mode)
    catalog.add_suite("autode", _autode_builtin, AUTODE)
    catalog.add_importer(
        "autode",
        _autode_scripts,
        "A file or folder of AutoDE-style user scripts (format: toolplay.methods.autode._scripts).",
        "PATH",
    )
    catalog.add_importer("autode-data", import_autode_data, AUTODE_DATA, "DIR")
    catalog.add_replay_format(RESULTS)
