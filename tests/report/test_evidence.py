"""Score evidence of the shapes scorers write becomes the viewer's uniform lists."""

from __future__ import annotations

from toolplay.report._evidence import extract_evidence


def test_no_evidence() -> None:
    evidence = extract_evidence({"tables": ["contacts"]})
    assert all(value == [] for value in evidence.values())
    assert set(evidence) == {
        "milestones",
        "minefields",
        "match_columns",
        "matches",
        "call_columns",
        "calls",
        "call_marks",
        "missed",
        "error_types",
    }


def test_tooltalk_predictions() -> None:
    details = {
        "predictions": [
            {
                "turn": 0,
                "tool": "SendEmail",
                "arguments": {},
                "error": None,
                "action": True,
                "matches_ground_truth": None,
                "incorrect_action": True,
                "message_index": 4,
            },
            {
                "turn": 1,
                "tool": "QueryUser",
                "arguments": {},
                "error": "NotFound",
                "action": False,
                "matches_ground_truth": 0,
                "incorrect_action": False,
                "message_index": 9,
            },
            {
                "turn": 1,
                "tool": "QueryUser",
                "arguments": {},
                "error": None,
                "action": False,
                "matches_ground_truth": None,
                "incorrect_action": False,
                "message_index": -1,
            },
        ],
        "ground_truth": [
            {"turn": 1, "tool": "QueryUser", "matched_by": 1},
            {"turn": 1, "tool": "DeleteAlarm", "matched_by": None},
        ],
        "error_types": [{"turn": 0, "error_type": "premature_call", "count": 2}],
    }
    evidence = extract_evidence(details)
    assert evidence["calls"] == [
        ["0", "SendEmail", 4, "incorrect action", "–"],
        ["1", "QueryUser", 9, "matches #0 QueryUser (turn 1)", "NotFound"],
        ["1", "QueryUser", -1, "no match", "–"],
    ]
    assert evidence["call_marks"] == [
        {"message_index": 4, "label": "incorrect action", "kind": "bad"},
        {"message_index": 9, "label": "matches #0 QueryUser (turn 1)", "kind": "good"},
    ]
    assert evidence["missed"] == ["#1 DeleteAlarm (turn 1)"]
    assert evidence["error_types"] == ["turn 0: premature call ×2"]


def test_milestone_and_minefield_records() -> None:
    details = {
        "milestones": [
            {"name": "wifi on", "message_index": 3, "similarity": 1.0},
            {"description": "text sent", "index": None, "similarity": 0.4},
        ],
        "minefields": [{"message_index": 5, "similarity": 0.9}, {"similarity": 0.0}],
    }
    evidence = extract_evidence(details)
    assert evidence["milestones"] == [
        {"label": "wifi on", "message_index": 3, "similarity": 1.0, "constraints": ""},
        {"label": "text sent", "message_index": None, "similarity": 0.4, "constraints": ""},
    ]
    assert [m["fired"] for m in evidence["minefields"]] == [True, False]
    assert evidence["minefields"][0]["label"] == "minefield 0"


def test_mapping_lists() -> None:
    evidence = extract_evidence({"mapping": [2, 4], "similarities": [1.0, 0.5]})
    assert evidence["milestones"] == [
        {"label": "milestone 0", "message_index": 2, "similarity": 1.0, "constraints": ""},
        {"label": "milestone 1", "message_index": 4, "similarity": 0.5, "constraints": ""},
    ]


def test_milestone_scorer_shape() -> None:
    details = {
        "milestone_mapping": [
            {
                "id": "cellular_on",
                "index": 3,
                "similarity": 1.0,
                "constraints": [{"kind": "state", "similarity": 1.0}],
            },
            {
                "id": "sent",
                "index": 5,
                "similarity": 0.5,
                "constraints": [
                    {"kind": "added", "similarity": 0.5},
                    {"kind": "guardrail", "similarity": 1.0},
                ],
            },
        ],
        "minefield_mapping": [{"id": "no_wifi", "index": 2, "similarity": 1.0, "constraints": []}],
        "minefield_similarity": 1.0,
    }
    evidence = extract_evidence(details)
    assert evidence["milestones"][1] == {
        "label": "sent",
        "message_index": 5,
        "similarity": 0.5,
        "constraints": "added 0.50 · guardrail 1.00",
    }
    assert evidence["minefields"] == [
        {
            "label": "no_wifi",
            "message_index": 2,
            "similarity": 1.0,
            "constraints": "",
            "fired": True,
        }
    ]


def test_call_matches() -> None:
    evidence = extract_evidence(
        {"matches": [{"predicted": "call_1", "ground_truth": 0, "similarity": 0.95}]}
    )
    assert evidence["match_columns"] == ["predicted", "ground_truth", "similarity"]
    assert evidence["matches"] == [["call_1", "0", "0.950"]]
    pairs = extract_evidence({"matches": [["p1", "g1"], ["p2", None]]})
    assert pairs["match_columns"] == ["predicted", "ground truth"]
    assert pairs["matches"] == [["p1", "g1"], ["p2", "–"]]
