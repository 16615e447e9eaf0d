"""The AutoDE reference's own texts, read from the data exported from its code.

`data/reference.json` is written by `scripts/autode_export.py` from the reference's code
(hlmu/AutoDE: `evaluators/eval.py` at 952086b, `utils/` at 565bcaa; MIT, `data/LICENSE`; the
file and line of every text in the JSON, the files' SHA-256 in `data/PROVENANCE.json`). Nothing
here is typed: the importer, the protocol, the scorer and the reference presentation read these
values. The prompt files are not among them: they are the user's AutoDE checkout's
(`prompts/`), read from there; only their SHA-256 is shipped, to recognise them.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

DATA = Path(str(resources.files("toolplay.methods.autode") / "data"))
REFERENCE_FILE = DATA / "reference.json"


@dataclass(frozen=True)
class ReferenceTexts:
    """The reference's texts (see the module docstring; the JSON says where each was read)."""

    user_agent_opener: str
    """The user agent's first chat turn (role `user`), after its system message."""
    user_briefing_before_api: str
    """Joins the user script to the API's name in the user agent's system message."""
    user_briefing_before_slots: str
    """Joins the API's name to the gold slots (JSON) in the user agent's system message."""
    question_placeholder: str
    """Replaced by the first query in the prompts that have no system message (Claude)."""
    family_tags: Mapping[str, str]
    """The tag a prompt file starts with, by model family (`gpt`, `llama`, ...)."""
    round_limit_reason: str
    parse_failure_prefix: str
    annotator_failure_reason: str
    api_sheet: str
    """The sheet of `API_list.xlsx` the functions are built from."""
    submit_suffix: str
    """Appended to the last user message when a text-calling model must call (static mode)."""
    api_doc_placeholder: str
    """Replaced by the API's documentation (JSON) in the prompts that document it."""
    call_pattern: re.Pattern[str]
    """A call written as text: the first match's group, stripped, is its argument text."""
    call_marker: str
    """A reply holding it is a call (checked before the stop marker)."""
    stop_marker: str
    """Ends the dialogue without a call (assistant); cut from a user agent's reply."""
    unclosed_call_arguments: str
    """The argument text of a reply with the call marker but no complete call."""
    parameter_types: Mapping[str, str]
    """Parameters that are not strings, and their JSON Schema type."""
    enums: Mapping[str, tuple[str, ...]]
    required_mark: str
    optional_mark: str
    optional_slots_sentence: str
    """Follows an API's description (its final `.` removed) when it has optional slots."""
    optional_slots_separator: str
    openai_models: Mapping[str, str]
    """The reference's gpt deployments and the model snapshot each one names."""
    prompt_files: Mapping[str, str]
    """SHA-256 of each of the reference's prompt files (`prompts/NAME.txt`)."""

    def prompt_file(self, text: str) -> str | None:
        """Which of the reference's prompt files `text` is (byte for byte), or None."""
        digest = sha256_text(text)
        return next((name for name, sha in self.prompt_files.items() if sha == digest), None)


def sha256_text(text: str) -> str:
    """The SHA-256 of `text` as UTF-8 (how the prompt files are recognised)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _value(section: Mapping[str, Any], key: str) -> Any:
    return section[key]["value"]


def parse_reference(data: Mapping[str, Any]) -> ReferenceTexts:
    """The texts of an exported `reference.json` object.

    Raises:
        KeyError: A text is missing (the file was not written by the exporter).
    """
    chats, clients, api_list = data["eval"], data["clients"], data["api_list"]
    pattern = clients["call_pattern"]
    flags = 0
    for name in pattern.get("flags", []):
        flags |= getattr(re, name)
    return ReferenceTexts(
        user_agent_opener=_value(chats, "user_agent_opener"),
        user_briefing_before_api=_value(chats, "user_briefing_before_api"),
        user_briefing_before_slots=_value(chats, "user_briefing_before_slots"),
        question_placeholder=_value(chats, "question_placeholder"),
        family_tags={family: entry["value"] for family, entry in chats["family_tags"].items()},
        round_limit_reason=_value(chats, "round_limit_reason"),
        parse_failure_prefix=_value(chats, "parse_failure_prefix"),
        annotator_failure_reason=_value(chats, "annotator_failure_reason"),
        api_sheet=_value(chats, "api_sheet"),
        submit_suffix=_value(clients, "submit_suffix"),
        api_doc_placeholder=_value(clients, "api_doc_placeholder"),
        call_pattern=re.compile(pattern["value"], flags),
        call_marker=_value(clients, "call_marker"),
        stop_marker=_value(clients, "stop_marker"),
        unclosed_call_arguments=_value(clients, "unclosed_call_arguments"),
        parameter_types=dict(_value(api_list, "parameter_types")),
        enums={k: tuple(v) for k, v in _value(api_list, "enums").items()},
        required_mark=_value(api_list, "required_mark"),
        optional_mark=_value(api_list, "optional_mark"),
        optional_slots_sentence=_value(api_list, "optional_slots_sentence"),
        optional_slots_separator=_value(api_list, "optional_slots_separator"),
        openai_models=dict(_value(api_list, "openai_models")),
        prompt_files=dict(data["prompt_files"]),
    )


@lru_cache(maxsize=1)
def reference_texts() -> ReferenceTexts:
    """The shipped export (`data/reference.json`), read once."""
    return parse_reference(json.loads(REFERENCE_FILE.read_text(encoding="utf-8")))
