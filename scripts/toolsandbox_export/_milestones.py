"""Translate the reference's milestones and minefields into toolplay's milestone spec.

Runs under the reference's Python 3.9 (see `__main__`): standard library only, duck-typed
access to the reference's objects. Every construct the translation meets is either mapped
exactly or raises `Inexact` with a reason, so nothing is dropped silently.
"""

from __future__ import annotations

import json
import sys
from typing import Any

TABLES = {
    "SETTING": "settings",
    "CONTACT": "contacts",
    "MESSAGING": "messages",
    "REMINDER": "reminders",
}
"""Reference database -> toolplay table."""

ROLES = {
    "AGENT": "assistant",
    "USER": "user",
    "EXECUTION_ENVIRONMENT": "environment",
    "SYSTEM": "system",
}
"""Reference role -> toolplay role."""

ROUGE_DEFAULT = {("messages", "content"), ("reminders", "content"), ("contacts", "relationship")}
"""Columns toolplay (like the reference) compares by ROUGE-L unless told otherwise."""

BUS = "bus"
ROUGE_DEFAULT.add((BUS, "content"))

DROPPED_COLUMNS = {"device_id"}
"""Reference columns toolplay's tables do not have (one device per world)."""

EXTRACTORS: dict[str, dict[str, str]] = {
    "result_to_timestamp0_extractor": {"timestamp_0": ""},
    "result_to_timestamp1_extractor": {"timestamp_1": ""},
    "days_extractor": {"days": "days"},
    "lat_lon_dict_extractor": {"latitude": "latitude", "longitude": "longitude"},
    "current_temperature_extractor": {"amount": "current_temperature"},
    "min_temperature_amount_extractor": {"amount": "min_temperature"},
    "result_to_reminder_timestamp_lowerbound_extractor": {"reminder_timestamp_lowerbound": ""},
    "search_weather_around_lat_lon_temperature_extractor": {"temperature": "current_temperature"},
    "result_to_temperature_extractor": {"temperature": ""},
    "min_temperature_extractor": {"min_temperature": ""},
}
"""Reference extractor -> (the key it fills, the path of its value in the tool result)."""

NORMALISING = {
    "search_weather_around_lat_lon_temperature_extractor",
    "result_to_temperature_extractor",
    "min_temperature_extractor",
}
"""Extractors that write the (float) value in several surface forms, the best one counting
(the reference's `default_value_normalization`): exported as a flow with `formats`."""


def value_formats() -> list[str]:
    """The format specs of the reference's `default_value_normalization`, derived by running it.

    A float with many decimals is normalised; each form's count of decimals gives its spec
    (`.0f`, `.1f`, ...), checked by formatting the same float again.
    """
    from tool_sandbox.common.tool_trace_extractors import default_value_normalization

    sample = 2.0 / 3.0
    specs = []
    for form in default_value_normalization(sample):
        decimals = len(form.split(".")[1]) if "." in form else 0
        spec = f".{decimals}f"
        if format(sample, spec) != form:
            raise Inexact(f"a normalised form {form!r} that is no fixed-point format")
        specs.append(spec)
    return specs


class Inexact(Exception):
    """The construct has no exact toolplay form; the message says why."""


def _name(function: Any) -> str:
    inner = getattr(function, "func", function)
    return str(getattr(inner, "__name__", repr(inner)))


def _keywords(function: Any) -> dict[str, Any]:
    return dict(getattr(function, "keywords", {}) or {})


def _value(column: str, value: Any, measure: Any, table: str) -> Any:
    """A target value with the similarity the reference uses for it, when not the default."""
    kind = _name(measure)
    if kind == "column_exact_match_similarity":
        return value if (table, column) not in ROUGE_DEFAULT else {"exact": value}
    if kind == "column_rouge_l_similarity":
        return value if (table, column) in ROUGE_DEFAULT else {"rouge": value}
    if kind == "column_contains_similarity":
        return {"contains": value}
    if kind == "column_close_similarity":
        atol = _keywords(measure).get("atol_dict", {}).get(column)
        if atol is None:
            raise Inexact(f"close similarity on {column} without a tolerance")
        return {"close": value, "tolerance": atol}
    raise Inexact(f"column similarity {kind} on {column}")


def _rows(table: str, target: Any, measures: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for row in target.to_dicts():
        out = {}
        for column, value in row.items():
            if column in DROPPED_COLUMNS or column == "sandbox_message_index":
                continue
            if _name(measures[column]) == "column_one_similarity":
                continue
            out[column] = _value(column, value, measures[column], table)
        rows.append(out)
    return rows


def _traces(text: str) -> list[dict[str, Any]]:
    trace = json.loads(text)
    return trace if isinstance(trace, list) else [trace]


def _arguments(
    arguments: dict[str, Any], atol: dict[str, float], renames: dict[str, str], tool: str
) -> dict[str, Any]:
    out = {}
    for name, value in arguments.items():
        key = renames.get(f"{tool}.{name}", name)
        if name in atol and isinstance(value, (int, float)) and not isinstance(value, bool):
            out[key] = {"close": value, "tolerance": _finite(atol[name])}
        else:
            out[key] = {"exact": value} if isinstance(value, dict) else value
    return out


def _finite(tolerance: float) -> float:
    """The reference's infinite tolerance ("any number") as the largest float: the same test
    for every finite number, and JSON and toolplay's spec hold only finite ones."""
    return min(float(tolerance), sys.float_info.max)


def _tool_call(
    traces: list[dict[str, Any]], atol: dict[str, float], renames: dict[str, str]
) -> dict[str, Any]:
    options = [
        {
            "tool": t["tool_name"],
            "arguments": _arguments(t.get("arguments", {}), atol, renames, t["tool_name"]),
        }
        for t in traces
    ]
    if len(options) == 1:
        return {"kind": "tool_call", **options[0]}
    return {"kind": "tool_call", "alternatives": options}


def _check_roles(row: dict[str, Any], sender: str, recipient: str) -> None:
    if row.get("sender") != sender or row.get("recipient") != recipient:
        raise Inexact(f"message row {row.get('sender')}->{row.get('recipient')}")


def _sandbox(
    constraint: Any, reference: str | None, renames: dict[str, str]
) -> list[dict[str, Any]]:
    """A constraint on the message bus: a tool call, a reply, or a value flowing on."""
    target = constraint.target_dataframe
    measures = constraint.column_similarity_measure
    if target.height != 1:
        raise Inexact("a bus constraint with several target rows")
    row = target.to_dicts()[0]
    function = constraint.snapshot_constraint
    kind = _name(function)
    extra = set(row) - {"sender", "recipient", "content", "tool_trace"}
    if extra:
        raise Inexact(f"bus constraint on column(s) {sorted(extra)}")
    atol = _keywords(measures.get("tool_trace")).get("atol_dict", {}) or {}
    if kind == "snapshot_similarity":
        if row.get("tool_trace") is not None:
            _check_roles(row, "EXECUTION_ENVIRONMENT", "AGENT")
            return [_tool_call(_traces(row["tool_trace"]), atol, renames)]
        return [
            {
                "kind": "message",
                "sender": ROLES[row["sender"]],
                "recipient": ROLES[row["recipient"]],
                "content": _value("content", row["content"], measures["content"], BUS),
            }
        ]
    if kind != "tool_trace_dependant_similarity":
        raise Inexact(f"bus constraint {kind}")
    keywords = _keywords(function)
    extractor = _name(keywords["extractor"])
    if extractor not in EXTRACTORS:
        raise Inexact(f"extractor {extractor}")
    if reference is None:
        raise Inexact("a tool-trace dependent constraint without a reference milestone")
    paths = EXTRACTORS[extractor]
    if keywords["fill_to"] == "tool_trace":
        if extractor in NORMALISING:
            raise Inexact(f"extractor {extractor} filling a tool trace (several forms)")
        _check_roles(row, "EXECUTION_ENVIRONMENT", "AGENT")
        traces = _traces(row["tool_trace"])
        tools = {t["tool_name"] for t in traces}
        if len(tools) != 1:
            raise Inexact("a filled tool trace with alternatives of several tools")
        tool = traces[0]["tool_name"]
        if any(set(t.get("arguments", {})) & set(paths) for t in traces):
            # the reference also tries the trace's own value there: no single toolplay form
            raise Inexact("a filled tool trace that already holds the filled argument")
        # Alternatives differing in fixed arguments, the extracted value filled into each: a
        # call matching one alternative (0/1) and the value flowing into it (0/1) together.
        out = [_tool_call(traces, atol, renames)]
        for key, path in paths.items():
            flow: dict[str, Any] = {
                "kind": "flow",
                "from": reference,
                "path": path,
                "tool": tool,
                "argument": renames.get(f"{tool}.{key}", key),
            }
            if key in atol:
                flow.update(similarity="close", tolerance=_finite(atol[key]))
            out.append(flow)
        return out
    _check_roles(row, "AGENT", "USER")
    template = row["content"]
    used = [key for key in paths if "{" + key + "}" in template]
    if len(used) != 1:
        raise Inexact(f"a reply template with {len(used)} extracted values")
    similarity = {
        "column_rouge_l_similarity": "rouge",
        "column_contains_similarity": "contains",
        "column_exact_match_similarity": "exact",
    }.get(_name(measures["content"]))
    if similarity is None:
        raise Inexact(f"reply template compared by {_name(measures['content'])}")
    flow = {
        "kind": "flow",
        "from": reference,
        "path": paths[used[0]],
        "template": template.replace("{" + used[0] + "}", "{value}"),
        "similarity": similarity,
    }
    if extractor in NORMALISING:
        flow["formats"] = value_formats()
    return [flow]


CHANGES = {
    "addition_similarity": "added",
    "removal_similarity": "removed",
    "update_similarity": "updated",
    "snapshot_similarity": "state",
}


def constraint(constraint: Any, ids: list[str], renames: dict[str, str]) -> list[dict[str, Any]]:
    """The toolplay constraints equivalent to one reference snapshot constraint."""
    index = constraint.reference_milestone_node_index
    reference = None if index is None or index == -1 else ids[index]
    namespace = str(getattr(constraint.database_namespace, "value", constraint.database_namespace))
    if namespace == "SANDBOX":
        return _sandbox(constraint, reference, renames)
    table = TABLES[namespace]
    kind = CHANGES.get(_name(constraint.snapshot_constraint))
    if kind is None:
        raise Inexact(f"{_name(constraint.snapshot_constraint)} on {table}")
    rows = _rows(table, constraint.target_dataframe, constraint.column_similarity_measure)
    out: dict[str, Any] = {"kind": kind, "table": table, "rows": rows}
    if kind != "state":
        out["reference"] = reference or "start"
    return [out]


GUARDRAIL = "guardrail_similarity"

RESULT_PATHS: dict[str, str] = {}
"""Where toolplay's tool keeps what the reference's returns as its whole result, for a tool
whose result toolplay shapes otherwise (none now: `search_holiday` returns the holiday's
timestamp, as the reference's does). A flow reading the whole result of such a tool reads
this path."""


def _result_paths(items: list[dict[str, Any]]) -> None:
    """Point flows from a milestone calling a tool of `RESULT_PATHS` at its value."""
    tools = {
        item["id"]: {
            option.get("tool")
            for c in item["constraints"]
            if c["kind"] == "tool_call"
            for option in (c.get("alternatives") or [c])
        }
        for item in items
    }
    for item in items:
        for c in item["constraints"]:
            if c["kind"] == "flow" and c.get("path") == "":
                found = {RESULT_PATHS[t] for t in tools.get(c["from"], ()) if t in RESULT_PATHS}
                if len(found) == 1:
                    c["path"] = found.pop()


def milestones(matcher: Any, renames: dict[str, str]) -> list[dict[str, Any]]:
    """Every milestone of a reference matcher, with `after` edges and guardrail narrowing.

    The reference adds implicit guardrails to its milestones when it builds them; they are
    left out here (toolplay derives them by the same rule) and only a milestone's narrowing
    of them (`guardrail_exclude`) is kept.
    """
    items = list(matcher.milestones)
    ids = [str(i) for i in range(len(items))]
    edges = list(matcher.edge_list or [])
    out = []
    all_tables = set(TABLES)
    for i, milestone in enumerate(items):
        constraints: list[dict[str, Any]] = []
        for c in milestone.snapshot_constraints:
            if _name(c.snapshot_constraint) == GUARDRAIL:
                continue
            constraints.extend(constraint(c, ids, renames))
        entry: dict[str, Any] = {
            "id": ids[i],
            "after": [ids[a] for a, b in edges if b == i],
            "constraints": constraints,
        }
        listed = milestone.guardrail_database_list  # None: every table (the reference's default)
        guarded = all_tables if listed is None else {str(getattr(n, "value", n)) for n in listed}
        excluded = sorted(TABLES[n] for n in all_tables - guarded)
        if excluded:
            entry["guardrail_exclude"] = excluded
        out.append(entry)
    _result_paths(out)
    return out
