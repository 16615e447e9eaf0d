"""The texts the ToolTalk tools refuse with: the reference's, read from `data/texts.json`.

The tools give microsoft/ToolTalk's own refusal texts byte for byte (the dataset records them,
the reference presentation shows them, scoring compares them). They are the reference's prose,
so they are data: `scripts/tooltalk_export` reads them from the reference's code (e05f4ce, MIT:
`data/LICENSE`, `data/NOTICE`, `data/PROVENANCE.json`) and names each by a key; every raise
site here names its key, and fills a template's placeholders (the reference's f-string
expressions: `username`, `alarm_id`, ...) with its own values, formatted as the f-string did.
Texts toolplay words itself (what a `KeyError` of the reference was about) stay in the code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

FILE = "data/texts.json"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class Text:
    """One of the reference's texts."""

    text: str
    template: bool
    """A `str.format` template (else a literal, used as is: it may hold braces)."""
    placeholders: frozenset[str]


def _entry(key: str, entry: Any) -> Text:
    where = f"{FILE}: texts.{key}"
    if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
        raise ValueError(f"{where}: expected an object with a string 'text'")
    kind = entry.get("kind")
    if kind not in ("literal", "template"):
        raise ValueError(f"{where}.kind: expected 'literal' or 'template', got {kind!r}")
    placeholders = entry.get("placeholders")
    if not isinstance(placeholders, list) or not all(isinstance(p, str) for p in placeholders):
        raise ValueError(f"{where}.placeholders: expected a list of names")
    return Text(entry["text"], kind == "template", frozenset(placeholders))


@cache
def texts() -> dict[str, Text]:
    """Key -> text, as exported (read once)."""
    file = resources.files("toolplay.domains.tooltalk").joinpath(FILE)
    return parse_texts(json.loads(file.read_text(encoding="utf-8")))


def parse_texts(data: Any) -> dict[str, Text]:
    """Key -> text of a texts file's content.

    Raises:
        ValueError: `data` is not a texts file of this format, naming the field.
    """
    if not isinstance(data, dict):
        raise ValueError(f"{FILE}: expected an object")
    if data.get("format_version") != FORMAT_VERSION:
        found = data.get("format_version")
        raise ValueError(f"{FILE}: format_version {found!r}, expected {FORMAT_VERSION}")
    if not isinstance(data.get("texts"), dict):
        raise ValueError(f"{FILE}: texts: expected an object")
    return {key: _entry(key, entry) for key, entry in data["texts"].items()}


def refusal(key: str, **values: Any) -> str:
    """The reference's text `key`, its placeholders filled with `values`.

    Each value is formatted as the reference's f-string formatted it (`format(value, "")`).

    Raises:
        KeyError: no text has that key.
        TypeError: `values` are not exactly the text's placeholders.
    """
    entry = texts()[key]
    if set(values) != entry.placeholders:
        expected = sorted(entry.placeholders)
        raise TypeError(f"text {key!r} needs {expected}, given {sorted(values)}")
    return entry.text.format(**values) if entry.template else entry.text
