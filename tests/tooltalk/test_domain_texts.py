"""The ToolTalk tools' refusal texts are the reference's, read from data, never literals.

`domains/tooltalk/data/texts.json` is written by `scripts/tooltalk_export` beside the method's
`presentation.json`; here its texts are checked against that export site by site, every raise
site of the domain is checked to name a key the file has (with the placeholders the text
needs), and the domain's source is scanned for any of the reference's texts as a literal.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import json
import string
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from toolplay.domains.tooltalk._texts import FILE, parse_texts, refusal, texts
from toolplay.methods.tooltalk._texts import FOLDER as METHOD_DATA

EXPORTER = Path(__file__).resolve().parents[2] / "scripts" / "tooltalk_export"
sys.path.insert(0, str(EXPORTER))
import _domain_texts  # noqa: E402

sys.path.remove(str(EXPORTER))

DOMAIN_SRC = Path(__file__).resolve().parents[2] / "src" / "toolplay" / "domains" / "tooltalk"
DOMAIN_DATA = Path(str(resources.files("toolplay.domains.tooltalk").joinpath("data")))
HOLE = "\x00"
"""Stands for a template's placeholder and an f-string's expression."""


def _exported() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((METHOD_DATA / "presentation.json").read_text())
    return data


def _texts_file() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DOMAIN_DATA / "texts.json").read_text())
    return data


def reference_texts() -> dict[str, str]:
    """Every text the reference raises or its executor writes, keyed by where, as exported."""
    data = _exported()
    found = {f"executor.{k}": v["text"] for k, v in data["executor_messages"].items()}
    found["session_check"] = data["session_check"]["text"]
    for api, sites in data["tool_exceptions"].items():
        found.update({f"{api}.{site['source']}": site["text"] for site in sites})
    return found


def shape(template: str) -> str:
    """A template's text with each placeholder as HOLE (`{{` and `}}` unescaped)."""
    parts = string.Formatter().parse(template)
    return "".join(text + (HOLE if name is not None else "") for text, name, _, _ in parts)


def literals(source: str) -> list[str]:
    """Every string literal of `source` (docstrings too); an f-string with HOLE for its values."""
    tree = ast.parse(source)
    inside_fstrings = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in ast.walk(node)
        if part is not node
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            found.append(
                "".join(
                    str(part.value) if isinstance(part, ast.Constant) else HOLE
                    for part in node.values
                )
            )
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in inside_fstrings
        ):
            found.append(node.value)
    return found


def reference_literals_in(source: str) -> list[str]:
    """The reference's texts `source` holds within a literal of its own."""
    shapes = {shape(text) for text in reference_texts().values()}
    return sorted({s for s in shapes for lit in literals(source) if s in lit})


def _keys(node: ast.expr) -> list[str]:
    """The keys a `refusal` call names: a literal, or a choice between literals."""
    if isinstance(node, ast.IfExp):
        return _keys(node.body) + _keys(node.orelse)
    assert isinstance(node, ast.Constant) and isinstance(node.value, str), ast.unparse(node)
    return [node.value]


def refusal_calls(source: str) -> list[tuple[str, set[str], int]]:
    """(key, the names filled, line) of every `refusal(...)` call in `source`."""
    calls = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "refusal":
            filled = {k.arg or "**" for k in node.keywords}
            calls.extend((key, filled, node.lineno) for key in _keys(node.args[0]))
    return calls


def _sources() -> dict[str, str]:
    files = sorted(DOMAIN_SRC.glob("**/*.py"))
    assert len(files) >= 10
    return {str(path.relative_to(DOMAIN_SRC)): path.read_text(encoding="utf-8") for path in files}


def test_no_reference_text_is_a_literal_in_the_domain() -> None:
    for name, source in _sources().items():
        assert reference_literals_in(source) == [], name


def test_the_scan_finds_a_reference_text_however_it_is_written() -> None:
    assert reference_literals_in('raise X("The username does not exist.")') == [
        "The username does not exist."
    ]
    found = reference_literals_in('raise X(f"Alarm {alarm.id} not found.")')
    assert found == [f"Alarm {HOLE} not found."]
    assert reference_literals_in('"""Refuses with "User is not logged in" then."""') == [
        "User is not logged in"
    ]
    assert reference_literals_in('raise X(refusal("unknown_username"))') == []


def test_every_raise_site_names_a_known_key_with_its_placeholders() -> None:
    known = texts()
    used = set()
    for name, source in _sources().items():
        for key, filled, line in refusal_calls(source):
            assert key in known, f"{name}:{line}: no text {key!r}"
            assert filled == known[key].placeholders, f"{name}:{line}: {key} fills {filled}"
            used.add(key)
    assert used == set(known)  # every exported text is raised somewhere


def test_each_text_is_the_one_the_reference_raises_at_each_of_its_sites() -> None:
    exported = _exported()
    by_source = {
        site["source"]: site for sites in exported["tool_exceptions"].values() for site in sites
    }
    executor = {e["source"]: e for e in exported["executor_messages"].values()}
    session = {exported["session_check"]["source"]: exported["session_check"]}
    entries = _texts_file()["texts"]
    sites = [(key, site) for key, entry in entries.items() for site in entry["sites"]]
    for key, site in sites:
        reference = {**by_source, **executor, **session}[site["source"]]
        assert entries[key]["text"] == reference["text"], key
        assert entries[key]["kind"] == reference["kind"], key
    # every raise site of every API is named once, plus the three session texts
    named = [site["source"] for _, site in sites]
    assert len(named) == len(set(named)) == len(by_source) + 3 == 51 + 3
    assert set(named) >= set(by_source)
    for key, entry in entries.items():
        names = [n for _, n, _, _ in string.Formatter().parse(entry["text"]) if n is not None]
        assert entry["placeholders"] == (list(dict.fromkeys(names)) if names else []), key


def test_refusal_fills_the_references_placeholders_as_its_f_strings_did() -> None:
    alarm_id, month = "0000-0001", "may"
    assert refusal("unknown_alarm", alarm_id=alarm_id) == f"Alarm {alarm_id} not found."
    assert refusal("no_month_data", location="x", month=month).endswith(f"month {month}")
    for value in (None, 3, ["a"], {"k": 1.5}):  # odd values, as the reference executor passes
        assert refusal("unknown_event", event_id=value) == f"Event {value} not found."
    assert (
        refusal("wrong_password")
        == reference_texts()["DeleteAccount.src/tooltalk/apis/account.py:105"]
    )
    with pytest.raises(TypeError, match="needs"):
        refusal("unknown_alarm")
    with pytest.raises(TypeError, match="needs"):
        refusal("wrong_password", username="x")
    with pytest.raises(KeyError):
        refusal("no_such_text")


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "expected an object"),
        ({"format_version": 2, "texts": {}}, "format_version 2"),
        ({"format_version": 1, "texts": []}, "texts: expected an object"),
        ({"format_version": 1, "texts": {"k": {"kind": "literal"}}}, "texts.k: expected"),
        (
            {"format_version": 1, "texts": {"k": {"text": "t", "kind": "x", "placeholders": []}}},
            "texts.k.kind",
        ),
        (
            {"format_version": 1, "texts": {"k": {"text": "t", "kind": "literal"}}},
            "texts.k.placeholders",
        ),
    ],
)
def test_a_bad_texts_file_is_refused_naming_the_field(data: Any, field: str) -> None:
    with pytest.raises(ValueError, match=field) as error:
        parse_texts(data)
    assert FILE in str(error.value)


def test_the_licence_and_provenance_come_with_the_texts() -> None:
    provenance = json.loads((DOMAIN_DATA / "PROVENANCE.json").read_text())
    assert provenance["commit"].startswith("e05f4ce") and provenance["licence"] == "MIT"
    assert _texts_file()["commit"] == provenance["commit"]
    assert "Copyright (c) Microsoft Corporation." in (DOMAIN_DATA / "LICENSE").read_text()
    assert (DOMAIN_DATA / "NOTICE").read_bytes() == (METHOD_DATA / "NOTICE").read_bytes()
    assert set(provenance["files_sha256"]) == {"texts.json", "LICENSE", "NOTICE"}
    for name, digest in provenance["files_sha256"].items():
        assert hashlib.sha256((DOMAIN_DATA / name).read_bytes()).hexdigest() == digest, name


def test_the_exporter_refuses_sites_its_keys_do_not_name_one_for_one() -> None:
    exported = _exported()
    assert _domain_texts.domain_texts(exported) == _texts_file()["texts"]
    fewer = copy.deepcopy(exported)
    fewer["tool_exceptions"]["UserLogin"].pop()
    with pytest.raises(SystemExit, match="UserLogin: 2 raise sites, 3 keys"):
        _domain_texts.domain_texts(fewer)
    reworded = copy.deepcopy(exported)
    reworded["tool_exceptions"]["UserLogin"][0]["text"] = "No such user."
    with pytest.raises(SystemExit, match="key 'unknown_username'"):
        _domain_texts.domain_texts(reworded)
    odd = copy.deepcopy(exported)
    odd["tool_exceptions"]["DeleteAlarm"][0]["text"] = "Alarm {alarm.id} not found."
    with pytest.raises(SystemExit, match="not a plain name"):
        _domain_texts.domain_texts(odd)
