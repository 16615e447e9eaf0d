"""The ToolTalk reference's texts and facts, as exported from its code (`data/`).

`data/presentation.json` is written by `scripts/tooltalk_export` from microsoft/ToolTalk at
e05f4ce (MIT; `data/LICENSE`, `data/NOTICE`, `data/PROVENANCE.json`): the 28 function docs as
the reference sends them (and as its documentation ablation sends them), the orders it offers
them in, its system prompt template, the result texts its executor writes itself, and per API
whether it needs a login and its `call` signature. Nothing of it is retyped in code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).resolve().parent / "data"
SESSION_ARGUMENT = "session_token"
"""The argument the reference's executor writes into the calls of tools that need a login."""


@dataclass(frozen=True)
class ApiFacts:
    """What decides how the reference's executor runs one API."""

    name: str
    requires_auth: bool
    is_action: bool
    signature: tuple[tuple[str, bool], ...]
    """The parameters of the API's `call` in order (`session_token` first for the APIs that
    need a login), each with whether it is required."""


@dataclass(frozen=True)
class ReferenceTexts:
    """Everything `data/presentation.json` holds, typed."""

    system_template: str
    """`str.format` template over `location`, `timestamp`, `username`."""
    functions: Mapping[str, dict[str, Any]]
    """API name -> its function doc, exactly as sent (`to_openai_doc()`)."""
    functions_without_documentation: Mapping[str, dict[str, Any]]
    """API name -> its doc under the documentation ablation (`to_openai_doc(True)`)."""
    order: tuple[str, ...]
    """The 28 APIs in the order `--api_mode all` (the default) offers them."""
    suites: Mapping[str, tuple[str, ...]]
    """Suite (plugin) name -> its APIs in the order `--api_mode suite` offers them."""
    executor: Mapping[str, str]
    """`unknown_api`, `not_logged_in`, `second_login`, `parse_failure`: the executor's texts
    (`str.format` templates over `api_name`, `username`)."""
    apis: Mapping[str, ApiFacts]
    opens_session: frozenset[str]
    closes_session: frozenset[str]


@cache
def reference_texts(folder: Path = FOLDER) -> ReferenceTexts:
    """The exported texts (read once)."""
    data = json.loads((folder / "presentation.json").read_text(encoding="utf-8"))
    facts = data["api_facts"]
    return ReferenceTexts(
        system_template=data["system_prompt"]["template"],
        functions=data["functions"],
        functions_without_documentation=data["functions_without_documentation"],
        order=tuple(data["orders"]["all"]),
        suites={name: tuple(apis) for name, apis in data["orders"]["suites"].items()},
        executor={name: entry["text"] for name, entry in data["executor_messages"].items()},
        apis={
            name: ApiFacts(
                name,
                bool(entry["requires_auth"]),
                bool(entry["is_action"]),
                tuple((p["name"], bool(p["required"])) for p in entry["call_signature"]),
            )
            for name, entry in facts["apis"].items()
        },
        opens_session=frozenset(facts["opens_session"]),
        closes_session=frozenset(facts["closes_session"]),
    )
