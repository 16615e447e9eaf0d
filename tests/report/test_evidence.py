"""Each typed evidence model becomes the viewer's lists, chosen by its type (no key guessing)."""

from __future__ import annotations

from typing import Any

from support import CATALOG
from toolplay.methods.autode import SlotEvidence
from toolplay.methods.toolsandbox import MilestoneEvidence
from toolplay.methods.tooltalk import ToolTalkEvidence
from toolplay.report._evidence import extract_evidence as evidence_of
from toolplay.scoring import CustomEvidence, Evidence, EvidenceView, ScenarioScore, StateEvidence


def extract_evidence(evidence: Evidence | None) -> EvidenceView:
    """The viewer's lists of a score with this evidence, by its scorer's renderer."""
    kind = evidence.kind if evidence is not None else "state"
    score = ScenarioScore(scenario_id="s", evaluation=kind, score=1.0, evidence=evidence)
    return evidence_of(score, CATALOG.scorers)


def test_no_evidence_and_custom_evidence_give_empty_lists() -> None:
    for evidence in (None, CustomEvidence(kind="counter", milestone_mapping=[1, 2])):
        out = extract_evidence(evidence)
        assert all(value in ([], None) for value in out.values())
    assert set(extract_evidence(None)) == {
        "milestones",
        "minefields",
        "before_veto",
        "call_columns",
        "calls",
        "call_marks",
        "missed",
        "error_types",
        "slot_rows",
        "tables",
        "notes",
    }


def _tooltalk(**fields: Any) -> ToolTalkEvidence:
    base: dict[str, Any] = {
        "counts": {},
        "precision": None,
        "recall": 0.5,
        "incorrect_action_rate": 1.0,
        "success": False,
        "soft_success": 0.0,
        "split": "easy",
        "error_types": [],
        "predictions": [],
        "ground_truth": [],
        "similarities": [],
    }
    return ToolTalkEvidence.model_validate({**base, **fields})


def test_tooltalk_predictions() -> None:
    def prediction(turn: int, tool: str, index: int, **rest: Any) -> dict[str, Any]:
        return {
            "turn": turn,
            "tool": tool,
            "arguments": {},
            "error": None,
            "action": tool == "SendEmail",
            "matches_ground_truth": None,
            "incorrect_action": False,
            "message_index": index,
            **rest,
        }

    evidence = _tooltalk(
        predictions=[
            prediction(0, "SendEmail", 4, incorrect_action=True),
            prediction(1, "QueryUser", 9, error="NotFound", matches_ground_truth=0),
            prediction(1, "QueryUser", -1),
        ],
        ground_truth=[
            {"turn": 1, "tool": "QueryUser", "matched_by": 1},
            {"turn": 1, "tool": "DeleteAlarm", "matched_by": None},
        ],
        error_types=[
            {"turn": 0, "error_type": "premature_call", "count": 2},
            {"turn": None, "error_type": "faulty_planning", "count": 1},
        ],
    )
    out = extract_evidence(evidence)
    assert out["calls"] == [
        ["0", "SendEmail", 4, "incorrect action", "–"],
        ["1", "QueryUser", 9, "matches #0 QueryUser (turn 1)", "NotFound"],
        ["1", "QueryUser", -1, "no match", "–"],
    ]
    assert out["call_marks"] == [
        {"message_index": 4, "label": "incorrect action", "kind": "bad"},
        {"message_index": 9, "label": "matches #0 QueryUser (turn 1)", "kind": "good"},
    ]
    assert out["missed"] == ["#1 DeleteAlarm (turn 1)"]
    assert out["error_types"] == [
        "turn 0: premature call ×2",
        "whole conversation: faulty planning",
    ]


def test_milestones_minefields_and_the_score_before_the_veto() -> None:
    evidence = MilestoneEvidence.model_validate(
        {
            "milestone_similarity": 0.75,
            "minefield_similarity": 1.0,
            "milestone_mapping": [
                {
                    "id": "cellular_on",
                    "index": 3,
                    "similarity": 1.0,
                    "constraints": [{"kind": "state", "similarity": 1.0}],
                },
                {
                    "id": "sent",
                    "index": None,
                    "similarity": 0.5,
                    "constraints": [
                        {"kind": "added", "similarity": 0.5},
                        {"kind": "guardrail", "similarity": 1.0},
                    ],
                },
            ],
            "minefield_mapping": [
                {"id": "no_wifi", "index": 2, "similarity": 1.0},
                {"id": "quiet", "index": None, "similarity": 0.0},
            ],
            "turn_count": 6,
            "messages": 8,
        }
    )
    out = extract_evidence(evidence)
    assert out["milestones"][1] == {
        "label": "sent",
        "message_index": None,
        "similarity": 0.5,
        "constraints": "added 0.50 · guardrail 1.00",
    }
    assert [(m["label"], m["fired"]) for m in out["minefields"]] == [
        ("no_wifi", True),
        ("quiet", False),
    ]
    assert out["before_veto"] == 0.75


def test_slots_table_reads_label_prediction_and_verdicts() -> None:
    evidence = SlotEvidence.model_validate(
        {
            "slot_precision": 0.5,
            "slot_recall": 1 / 3,
            "slot_f1": 0.4,
            "failure": None,
            "correct": ["amount"],
            "wrong": ["to_unit"],
            "missing": ["from_unit"],
            "label": {
                "name": "unit_conversion",
                "arguments": {"amount": 5, "from_unit": "miles", "to_unit": "kilometers"},
            },
            "predicted": {
                "name": "unit_conversion",
                "arguments": {"amount": 5, "to_unit": "meters"},
                "slots": {"amount": 5, "to_unit": "meters"},
            },
        }
    )
    out = extract_evidence(evidence)
    assert out["slot_rows"] == [
        ["amount", "5", "5", "correct"],
        ["from_unit", "miles", "–", "missing"],
        ["to_unit", "kilometers", "meters", "wrong"],
    ]
    assert out["notes"] == [
        "label unit_conversion · scored call unit_conversion · slot P/R/F1 0.500 / 0.333 / "
        "0.400 (exact matching)"
    ]


def test_state_evidence_and_validation_problems_become_notes() -> None:
    evidence = StateEvidence(
        tables=["contacts", "settings"], differing=["settings"], validation_problems=["x"]
    )
    assert extract_evidence(evidence)["notes"] == [
        "tables unlike the reference's: settings",
        "validation: x",
    ]


def test_records_stored_with_untyped_details_are_read_as_typed_evidence() -> None:
    old = {
        "scenario_id": "s",
        "evaluation": "state",
        "score": 1.0,
        "details": {"tables": ["contacts"], "differing": []},
    }
    score = ScenarioScore.model_validate(old)
    assert extract_evidence(score.evidence)["notes"] == [
        "every changed table ends as the reference leaves it"
    ]
