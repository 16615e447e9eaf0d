"""A chat request's body bytes, with each conversation's tool list encoded once.

Every request of a conversation repeats its tool list (~5 kB of JSON schemas for a sandbox
scenario, four times the messages), so `json.dumps(request)` spent most of its time encoding
the same schemas again. `RequestBodies` keeps the JSON text of recently sent tool lists, keyed
by the identity of their schema objects (held, so an identity is never reused while cached),
and splices it into the body. The bytes are exactly `json.dumps(request)`'s: a dict's JSON is
its items' JSON joined by `, ` inside braces. Tool schemas are not changed once offered (a
conversation's presentation copies them when it starts), which the cache relies on.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

__all__ = ["RequestBodies"]


class RequestBodies:
    """Encodes request bodies; remembers the JSON of the last `size` distinct tool lists."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._tools: OrderedDict[tuple[int, ...], tuple[list[Any], str]] = OrderedDict()

    def encode(self, request: dict[str, Any]) -> bytes:
        """`json.dumps(request).encode("utf-8")`, byte for byte."""
        tools = request.get("tools")
        if not isinstance(tools, list) or not tools or not all(isinstance(k, str) for k in request):
            return json.dumps(request).encode("utf-8")
        text = self._tools_text(tools)
        items = (
            f"{json.dumps(key)}: {text if key == 'tools' else json.dumps(value)}"
            for key, value in request.items()
        )
        return ("{" + ", ".join(items) + "}").encode("utf-8")

    def _tools_text(self, tools: list[Any]) -> str:
        key = tuple(map(id, tools))
        found = self._tools.get(key)
        if found is not None:
            self._tools.move_to_end(key)
            return found[1]
        text = json.dumps(tools)
        self._tools[key] = (list(tools), text)  # the objects held: their ids stay theirs
        if len(self._tools) > self._size:
            self._tools.popitem(last=False)
        return text
