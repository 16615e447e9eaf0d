"""How `suites` and `tools` lay out what they list: blocks of wrapped lines, not wide tables.

A table with five columns cuts every cell at 80 columns (`similari…`, `tooltalk:…`); a block
per item (a heading line, then indented `label: value · value` lines wrapped at words, their
continuations indented) reads at any width, and a name is never cut.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Console
from rich.text import Text


def _wrapped(console: Console, text: str, indent: int, hang: int, style: str = "") -> None:
    width = max(console.width, 40)
    lines = textwrap.wrap(
        text,
        width=width,
        initial_indent=" " * indent,
        subsequent_indent=" " * hang,
        break_long_words=False,
        break_on_hyphens=False,
    )
    for line in lines or [""]:
        console.print(Text(line, style=style), soft_wrap=True, highlight=False)


def heading(console: Console, name: str, *rest: str, indent: int = 0) -> None:
    """A name followed by its other parts, wrapped at words (continuations indented)."""
    text = "  ".join([name, *[part for part in rest if part]])
    _wrapped(console, " " * indent + text, 0, indent + 4)


def detail(console: Console, label: str, values: Iterable[str], indent: int = 2) -> None:
    """`label: a · b · c`, indented, wrapped at words with continuations indented further."""
    items = [v for v in values if v]
    if items:
        prefix = f"{label}: " if label else ""
        _wrapped(console, prefix + " · ".join(items), indent, indent + 4)


def paragraph(console: Console, text: str, indent: int) -> None:
    """Free text, wrapped at words, every line indented."""
    _wrapped(console, text, indent, indent)


def type_of(schema: Mapping[str, Any]) -> str:
    """A JSON Schema type in short: `string`, `integer|null`, `array[string]`, `enum(a|b)`."""
    if "enum" in schema:
        return "enum(" + "|".join(str(v) for v in schema["enum"]) + ")"
    if "anyOf" in schema:
        return "|".join(type_of(s) for s in schema["anyOf"])
    kind = schema.get("type", "any")
    if isinstance(kind, list):
        return "|".join(str(k) for k in kind)
    if kind == "array" and isinstance(schema.get("items"), Mapping):
        return f"array[{type_of(schema['items'])}]"
    return str(kind)


def signature(schema: Mapping[str, Any]) -> str:
    """`name(a: string, b?: integer)`: a tool's parameters, optional ones marked `?`."""
    function = schema["function"]
    parameters = function.get("parameters") or {}
    required = set(parameters.get("required") or [])
    parts = [
        f"{name}{'' if name in required else '?'}: {type_of(spec)}"
        for name, spec in (parameters.get("properties") or {}).items()
    ]
    return f"{function['name']}({', '.join(parts)})"
