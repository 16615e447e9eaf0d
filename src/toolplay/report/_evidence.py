"""Read a score's evidence (`ScenarioScore.details`) into what the trajectory viewer shows.

Scorers own their detail keys; this module only recognises the shapes they use and turns
them into uniform lists: milestones (which message each matched, with what similarity),
minefields (and whether one fired), and call matching (ToolTalk: each predicted call, the
ground-truth call it matched or why not, the ground truth never matched, error types). Keys
it does not know are still shown raw by the viewer, so nothing is hidden.

Shapes recognised: the milestone scorer's `milestone_mapping` / `minefield_mapping` (lists of
`{id, index, similarity, constraints: [{kind, similarity}]}`, `index` being the message
index); lists under `milestones` / `minefields`; parallel `mapping` + `similarities` lists;
`matches` (a list of records or of pairs); and ToolTalk's `predictions` (turn, tool,
message_index, matches_ground_truth, incorrect_action, error), `ground_truth` (turn, tool,
matched_by) and `error_types` (turn, error_type, count).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["extract_evidence"]

_INDEX_KEYS = ("message_index", "index", "matched_index", "message")
_LABEL_KEYS = ("id", "name", "label", "description")
_SIM_KEYS = ("similarity", "score")


def _first(item: Mapping[str, Any], keys: Sequence[str]) -> Any:
    for key in keys:
        if item.get(key) is not None:
            return item[key]
    return None


def _as_float(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _as_index(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _items(details: Mapping[str, Any], kind: str) -> list[Any]:
    singular = kind[:-1]
    keys = [kind, f"{singular}_mapping", f"{kind}_mapping"]
    if kind == "milestones":
        keys.append("mapping")
    for key in keys:
        items = details.get(key)
        if isinstance(items, Mapping):
            items = [items[k] for k in sorted(items, key=str)]
        if isinstance(items, list) and items:
            return items
    return []


def _constraints(item: Mapping[str, Any]) -> str:
    parts = item.get("constraints")
    if not isinstance(parts, list):
        return ""
    shown = []
    for part in parts:
        if isinstance(part, Mapping):
            sim = _as_float(part.get("similarity"))
            shown.append(f"{part.get('kind', '?')} {'-' if sim is None else f'{sim:.2f}'}")
    return " · ".join(shown)


def _events(details: Mapping[str, Any], kind: str) -> list[dict[str, Any]]:
    """Milestones or minefields in one uniform shape: label, message_index, similarity."""
    singular = kind[:-1]
    items = _items(details, kind)
    sims = details.get(f"{singular}_similarities")
    if sims is None and kind == "milestones":
        sims = details.get("similarities")
    sims = sims if isinstance(sims, list) else []
    found: list[dict[str, Any]] = []
    for n, item in enumerate(items):
        event: dict[str, Any]
        if isinstance(item, Mapping):
            label = _first(item, _LABEL_KEYS)
            event = {
                "label": str(label) if label is not None else f"{singular} {n}",
                "message_index": _as_index(_first(item, _INDEX_KEYS)),
                "similarity": _as_float(_first(item, _SIM_KEYS)),
                "constraints": _constraints(item),
                "fired": item.get("fired"),
            }
        else:
            event = {
                "label": f"{singular} {n}",
                "message_index": _as_index(item),
                "similarity": _as_float(sims[n]) if n < len(sims) else None,
                "constraints": "",
                "fired": None,
            }
        if kind == "minefields":
            sim, fired = event["similarity"], event["fired"]
            event["fired"] = bool(fired) if fired is not None else sim is not None and sim > 0
        else:
            event.pop("fired")
        found.append(event)
    return found


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, str):
        return value
    if isinstance(value, float):
        return f"{value:.3f}"
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def _matches(details: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Call-matching evidence (ToolTalk) as a table: columns and string rows."""
    items = details.get("matches")
    if not isinstance(items, list) or not items:
        return [], []
    if all(isinstance(i, Mapping) for i in items):
        columns: list[str] = []
        for item in items:
            columns += [k for k in item if k not in columns]
        return columns, [[_cell(item.get(c)) for c in columns] for item in items]
    if all(isinstance(i, list | tuple) for i in items):
        width = max(len(i) for i in items)
        names = ["predicted", "ground truth"] if width == 2 else [f"#{n}" for n in range(width)]
        return names, [[_cell(v) for v in i] + [""] * (width - len(i)) for i in items]
    return ["match"], [[_cell(i)] for i in items]


def _predictions(details: Mapping[str, Any]) -> dict[str, Any]:
    """ToolTalk's per-prediction evidence: a table, marks on messages, missed ground truth."""
    predicted = details.get("predictions")
    truths = details.get("ground_truth")
    truths = truths if isinstance(truths, list) else []
    if not isinstance(predicted, list) or not all(isinstance(p, Mapping) for p in predicted):
        predicted = []

    def truth_label(g: Any) -> str:
        if not isinstance(g, int) or not 0 <= g < len(truths) or not isinstance(truths[g], Mapping):
            return "–" if g is None else f"#{g}"
        return f"#{g} {truths[g].get('tool', '?')} (turn {truths[g].get('turn', '?')})"

    rows: list[list[Any]] = []
    marks: list[dict[str, Any]] = []
    for p in predicted:
        g = p.get("matches_ground_truth")
        index = _as_index(p.get("message_index"))
        if g is not None:
            verdict, kind = f"matches {truth_label(g)}", "good"
        elif p.get("incorrect_action"):
            verdict, kind = "incorrect action", "bad"
        else:
            verdict, kind = "no match", "weak"
        rows.append(
            [_cell(p.get("turn")), _cell(p.get("tool")), index, verdict, _cell(p.get("error"))]
        )
        if index is not None and index >= 0:
            marks.append({"message_index": index, "label": verdict, "kind": kind})
    missed = [
        f"#{g} {t.get('tool', '?')} (turn {t.get('turn', '?')})"
        for g, t in enumerate(truths)
        if isinstance(t, Mapping) and t.get("matched_by") is None
    ]
    return {
        "call_columns": ["turn", "tool", "message", "verdict", "error"] if rows else [],
        "calls": rows,
        "call_marks": marks,
        "missed": missed,
    }


def _error_types(details: Mapping[str, Any]) -> list[str]:
    items = details.get("error_types")
    if isinstance(items, Mapping):
        return [f"{k}: {v}" for k, v in items.items() if v]
    if not isinstance(items, list):
        return []
    return [
        ("whole conversation" if i.get("turn", "?") is None else f"turn {i.get('turn', '?')}")
        + f": {str(i.get('error_type', '?')).replace('_', ' ')}"
        + (f" ×{i['count']}" if isinstance(i.get("count"), int) and i["count"] > 1 else "")
        for i in items
        if isinstance(i, Mapping)
    ]


def extract_evidence(details: Mapping[str, Any]) -> dict[str, Any]:
    """The viewer's evidence lists for one score's details (empty lists when absent).

    Args:
        details: `ScenarioScore.details` as stored.

    Returns:
        `milestones` and `minefields` (label, message_index, similarity, constraints, and
        `fired` for minefields); `matches` with its `match_columns`; ToolTalk's per-call
        table (`call_columns`, `calls`, `call_marks` for message badges, `missed` ground
        truth) and `error_types`.
    """
    columns, rows = _matches(details)
    return {
        "milestones": _events(details, "milestones"),
        "minefields": _events(details, "minefields"),
        "match_columns": columns,
        "matches": rows,
        **_predictions(details),
        "error_types": _error_types(details),
    }
