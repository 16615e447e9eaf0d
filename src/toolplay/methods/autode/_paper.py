"""The setup of the paper's runs on the official data, and how a run departs from it.

What the reference's scripts ran (hlmu/AutoDE `scripts/*.sh`, with `evaluators/eval.py`): the
assistant asked what `evaluators/eval.py` sends (the `autode` presentation), with the prompt
file of its model family (dynamic: `prompt_eng_system_v1.txt` for gpt,
`prompt_eng_system_llama_v2.txt`, `..._zephyr_v2.txt`, `..._claude_v1.txt`; static: the
family's `*_static*.txt`, since eval.py refuses a static run with any other); a user agent
briefed with `prompt_eng_user_v3.txt` (dynamic); at most 8 assistant answers; no sampling
setting sent (the endpoint's defaults); no cue of our own. `paper_departures` names every way a
run's configuration differs, as sentences the runner warns about once and records in
`summary.json` (`departures`). The assistant's model is the one under test and is not checked;
the user agent's is: the paper's were the reference's gpt deployment (its model snapshot is in
the exported data) and Llama-2-7b-chat.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolplay.methods.autode._presentation import ASSISTANT_PROMPT, PRESENTATION, USER_PROMPT
from toolplay.methods.autode._reference import reference_texts
from toolplay.scenarios import departure

PROTOCOL = ("dynamic", "static", "autode-protocol", "autode-protocol-static")
"""The suite's modes (`--mode dynamic|static`, or the protocol modes they mean)."""
MAX_ROUNDS = 8
"""The reference's round limit (`--max_rounds`' default, which every script keeps)."""
LLAMA_USERS = ("llama-2-7b-chat", "llama-7b-chat")
"""The paper's other user agent, Llama-2-7b-chat (`llama-7b-chat` in the scripts), as matched
in model names."""
USER_KINDS = ("openai", "local")
"""User kinds driven by a model (a user agent); `scripted` says the recorded turns."""


def _section(config: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = config.get(key)
    return value if isinstance(value, Mapping) else {}


def _sampling(options: Mapping[str, Any]) -> list[str]:
    return [
        f"{key}={options[key]!r}"
        for key in ("temperature", "seed", "max_tokens")
        if options.get(key) is not None
    ]


def _checkout_prompts(config: Mapping[str, Any]) -> Path | None:
    """The prompt folder of the run's checkout (`autode-data:DIR[?...]`), None for another."""
    kind, _, argument = str(config.get("suite") or "").partition(":")
    if kind != "autode-data":
        return None
    return Path(argument.partition("?")[0] or ".").expanduser() / "prompts"


def _missing_defaults(
    config: Mapping[str, Any], play: Mapping[str, Any], static: bool
) -> list[str]:
    folder = _checkout_prompts(config)
    if folder is None or config.get("presentation") not in (None, PRESENTATION):
        return []
    wanted = [("system_prompt", ASSISTANT_PROMPT, "assistant")]
    if not static:
        wanted.append(("user_prompt", USER_PROMPT, "user agent"))
    return [
        f"the checkout has no prompts/{name}: the {who} is briefed with toolplay's own prompt"
        for key, name, who in wanted
        if play.get(key) is None and not (folder / name).is_file()
    ]


def _prompt_departures(play: Mapping[str, Any], static: bool) -> list[str]:
    texts = reference_texts()
    out: list[str] = []
    system = play.get("system_prompt")
    if isinstance(system, str):
        name = texts.prompt_file(system)
        if name is None or not name.startswith("prompts/prompt_eng_system_"):
            out.append("the assistant prompt is not one of the reference's prompt files")
        elif "mistral" in name:
            out.append(f"{name}: the reference cannot run its Mistral prompts")
        elif ("static" in name) != static:
            kind = "static" if static else "dynamic"
            out.append(f"{name} in a {kind} run: the reference's {kind} runs use the other kind")
    user = play.get("user_prompt")
    if isinstance(user, str) and texts.prompt_file(user) != f"prompts/{USER_PROMPT}":
        out.append(f"the user agent prompt is not the reference's prompts/{USER_PROMPT}")
    return out


def _user_departures(config: Mapping[str, Any]) -> list[str]:
    spec = str(config.get("user") or "scripted")
    kind, _, model = spec.partition(":")
    if kind not in USER_KINDS:
        return [
            f"the user is {spec!r}, not a user agent: the paper's dynamic runs used a model "
            "(--user openai:MODEL)"
        ]
    deployments = reference_texts().openai_models
    if model in {*deployments, *deployments.values()} or any(
        name in model.lower() for name in LLAMA_USERS
    ):
        return []
    named = ", ".join(sorted(deployments.values()))
    return [f"the user agent is {spec!r}: the paper's were {named} and Llama-2-7b-chat"]


def paper_departures(config: Mapping[str, Any]) -> list[str]:
    """How a run's configuration (`RunConfig` as JSON) departs from the paper's setup."""
    texts = reference_texts()
    out: list[str] = []
    out += departure(
        config,
        "presentation",
        [PRESENTATION],
        f"the paper's models were asked what the reference's eval.py sends (presentation "
        f"{PRESENTATION!r})",
    )
    static = config.get("mode") in ("static", "autode-protocol-static")
    out += departure(
        config, "mode", PROTOCOL, "the paper played AutoDE's protocol (dynamic or static)"
    )
    assistant = _section(config, "assistant_model")
    own = _section(config, "user_model")
    user = {**assistant, **{k: v for k, v in own.items() if v is not None}}
    sent = _sampling(assistant)
    if sent:
        out.append(f"the assistant is sent {', '.join(sent)}: the reference sent none")
    if assistant.get("wire") == "tools":
        out.append("the tools wire: the reference's gpt runs used the legacy functions format")
    play = _section(config, "play")
    out += _prompt_departures(play, static) + _missing_defaults(config, play, static)
    if not static:
        out += _user_departures(config)
        sent = _sampling(user)
        if sent:
            out.append(f"the user agent is sent {', '.join(sent)}: the reference sent none")
    rounds = play.get("max_rounds")
    if rounds is not None and rounds != MAX_ROUNDS:
        out.append(f"max_rounds={rounds}: the reference allows {MAX_ROUNDS} answers")
    marker = play.get("stop_marker")
    if marker is not None and marker != texts.stop_marker:
        out.append(f"stop_marker={marker!r}: the reference's is {texts.stop_marker!r}")
    if play.get("submit_text"):
        out.append(
            "submit_text adds a cue of its own to the last user turn (the reference "
            "presentation already sends the reference's, where the prompt asks for one)"
        )
    return out
