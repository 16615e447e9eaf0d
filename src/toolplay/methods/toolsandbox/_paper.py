"""The setup of the paper's runs on ToolSandbox's scenarios, and a run's departures from it.

The paper (Lu et al., 2024, Table 5) ran every assistant against a simulated user that is
`gpt-4o-2024-05-13` briefed by the reference (`GPT_4_o_2024_05_13_User`), on-policy, with the
reference's requests: no sampling settings sent (the endpoint's defaults), the reference's
prompts, tool schemas and texts (toolplay's `toolsandbox` presentation), its 8 augmentation
settings, and its 30-message budget. `paper_setup` names each way a run's configuration
departs from that; the runner warns once per departure and records them in `summary.json`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PAPER_MODEL = "gpt-4o-2024-05-13"
"""The paper's user simulator (and its GPT-4o agent)."""
PAPER_USER = f"openai:{PAPER_MODEL}"
PRESENTATION = "toolsandbox"


def paper_setup(config: Mapping[str, Any]) -> list[str]:
    """Each way `config` (a `RunConfig` as JSON) departs from the paper's setup, as a sentence."""
    out: list[str] = []
    presentation = config.get("presentation")
    if presentation not in (None, PRESENTATION):
        out.append(
            f"presentation {presentation!r}: the paper's models were sent the reference's "
            f"requests (presentation {PRESENTATION!r})"
        )
    user = str(config.get("user", "scripted"))
    if user == "scripted":
        out.append(
            "the user is toolplay's scripted user (the reference's first message, then the "
            f"solution's lines); the paper's is simulated by {PAPER_MODEL} "
            f"(--user {PAPER_USER})"
        )
    elif user != PAPER_USER:
        out.append(f"the simulated user is {user}; the paper's is {PAPER_USER}")
    if config.get("mode") not in (None, "dynamic"):
        out.append(f"mode {config.get('mode')!r}: the paper plays on-policy (dynamic)")
    assistant = dict(config.get("assistant_model") or {})
    user_model = {
        **assistant,
        **{k: v for k, v in (config.get("user_model") or {}).items() if v is not None},
    }
    roles = [("assistant", assistant)] + ([("user", user_model)] if user != "scripted" else [])
    for role, options in roles:
        for key in ("temperature", "seed", "max_tokens"):
            if options.get(key) is not None:
                out.append(f"{role} {key} {options[key]} is sent; the paper's requests send none")
        if options.get("wire") not in (None, "tools"):
            out.append(f"{role} wire {options['wire']!r}: the paper's requests use tools")
    play = dict(config.get("play") or {})
    if play.get("system_prompt") is not None:
        out.append("the assistant's system prompt is replaced; the paper used the reference's")
    if play.get("prompt_context"):
        out.append("the scenario's context is appended to the system prompt; the paper's has none")
    if play.get("user_prompt") is not None or play.get("user_simulator") not in (
        None,
        "toolsandbox",
    ):
        out.append("the user simulator is briefed otherwise than by the reference")
    return out
