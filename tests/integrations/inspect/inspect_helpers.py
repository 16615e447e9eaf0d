"""Shared pieces of the Inspect integration tests: skips, responders, and `toolplay run`.

Imported first by every test module of this folder: it skips the module without Inspect.

Every test here needs `inspect_ai` and toolplay installed with its `inspect_ai` entry point
(`pip install -e '.[inspect]'`, as `make test` does); without them the tests skip, saying so.

The same deterministic responder answers for both sides of each comparison: the test endpoint
(`ChatServer`) that `toolplay run --assistant openai:...` and Inspect's `openai-api` provider
call, and Inspect's `mockllm/model` (through `custom_outputs`). It plays the reference solution
of the scenario it recognises, with scenario-dependent mistakes (a wrong argument, or no call
at all) so that the scores compared are not all 1.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

inspect_ai = pytest.importorskip(
    "inspect_ai", reason="the inspect extra is not installed (pip install -e '.[inspect]')"
)

from support import CATALOG  # noqa: E402
from toolplay.clients import ModelOptions  # noqa: E402
from toolplay.runs import RunConfig, RunSummary, execute_run  # noqa: E402
from toolplay.scenarios import Scenario  # noqa: E402
from toolplay.testing import ReferenceResponder, is_user_request, text  # noqa: E402

if not any(ep.name == "toolplay" for ep in entry_points(group="inspect_ai")):
    pytest.skip(
        "toolplay's inspect_ai entry point is not installed (pip install -e '.[inspect]')",
        allow_module_level=True,
    )

TOOLTALK = Path(__file__).resolve().parents[3] / ".." / "shared" / "tooltalk"
MODEL = "ref"
DEFAULT_MOCK_OUTPUT = "Default output from mockllm/model"


def offline(tmp_path: Path) -> dict[str, str]:
    """Environment of an `inspect` process as on a fresh offline install.

    tiktoken's cache is an empty folder and every HTTPS download goes to a proxy that refuses
    it, so a run that needs tiktoken's download fails here even on a machine with a network.
    """
    refused = "http://127.0.0.1:9"
    return {
        "TIKTOKEN_CACHE_DIR": str(tmp_path / "tiktoken-cache"),
        "HTTPS_PROXY": refused,
        "https_proxy": refused,
    }


class FlawedResponder:
    """The reference solution with deterministic mistakes, chosen by the scenario's opening.

    A third of the scenarios are played right; in another third every call's first string
    argument is replaced by `"wrong"`; in the rest the assistant answers its first turn in text
    without calling anything. The user side (a simulator request) is the reference's.
    """

    def __init__(self, scenarios: Sequence[Scenario], *, parallel: bool = False) -> None:
        self.reference = ReferenceResponder(scenarios, parallel=parallel)

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = self.reference(request)
        if is_user_request(request):
            return answer
        messages = request.get("messages") or []
        users = [m for m in messages if m.get("role") == "user"]
        opening = str(users[0].get("content") if users else "")
        flaw = int(hashlib.sha256(opening.encode()).hexdigest(), 16) % 3
        if flaw == 1 and answer.get("tool_calls"):
            return {**answer, "tool_calls": [_wrong_argument(c) for c in answer["tool_calls"]]}
        if flaw == 2 and len(users) == 1:
            return text("Sorry, I cannot do that.")
        return answer


def _wrong_argument(call: dict[str, Any]) -> dict[str, Any]:
    arguments = json.loads(call["function"]["arguments"])
    for key, value in arguments.items():
        if isinstance(value, str):
            arguments[key] = "wrong"
            break
    return {**call, "function": {**call["function"], "arguments": json.dumps(arguments)}}


def mock_outputs(responder: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """`custom_outputs` for `mockllm/model`: the responder's answer to the same messages."""
    from inspect_ai.model import (
        ChatCompletionChoice,
        ChatMessageAssistant,
        ModelOutput,
        ModelUsage,
        messages_to_openai,
    )
    from inspect_ai.tool import ToolCall

    async def generate(input: Any, tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        messages = [dict(m) for m in await messages_to_openai(input)]
        request: dict[str, Any] = {"model": MODEL, "messages": messages}
        if tools:
            request["tools"] = [{"type": "function", "function": {"name": t.name}} for t in tools]
        answer = responder(request)
        calls = [
            ToolCall(
                id=c["id"],
                function=c["function"]["name"],
                arguments=json.loads(c["function"]["arguments"]),
            )
            for c in answer.get("tool_calls") or []
        ]
        message = ChatMessageAssistant(
            content=answer.get("content") or "", tool_calls=calls or None, model="mockllm"
        )
        return ModelOutput(
            model="mockllm",
            choices=[
                ChatCompletionChoice(message=message, stop_reason="tool_calls" if calls else "stop")
            ],
            usage=ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2),
        )

    return generate


def toolplay_run(
    out: Path,
    base_url: str,
    *,
    suite: str,
    mode: str | None = None,
    limit: int | None = None,
    augment: Sequence[str] = (),
    user: str = "scripted",
    trials: int = 1,
) -> RunSummary:
    """`toolplay run --assistant openai:ref --base-url URL` (the comparison's other side)."""
    fast = ModelOptions(base_url=base_url, max_retries=0, retry_initial=0.001, retry_jitter=0)
    config = RunConfig(
        suite=suite,
        mode=mode,
        assistant=f"openai:{MODEL}",
        user=user,
        limit=limit,
        out=out,
        trials=trials,
        augment=list(augment),
        assistant_model=fast,
    )
    return asyncio.run(execute_run(config, catalog=CATALOG))


def run_scores(out: Path) -> dict[tuple[str, int], float | None]:
    """(scenario id, trial) -> score of a run folder's stored results."""
    from toolplay.store import RunStore

    store = RunStore.in_dir(out)
    try:
        return {
            (r.scenario_id, r.trial): None if r.score is None else r.score["score"]
            for r in store.results()
        }
    finally:
        store.close()


def scenarios_of(suite: str, limit: int | None, augment: Sequence[str] = ()) -> list[Scenario]:
    """The scenarios a run of `suite` covers (the responders must know them)."""
    from toolplay.runs import select_scenarios

    return select_scenarios(CATALOG.load_suite(suite), limit, list(augment))


def require_tooltalk() -> Path:
    """The ToolTalk data folder, or skip."""
    if not (TOOLTALK / "databases").is_dir():
        pytest.skip(f"ToolTalk data not found at {TOOLTALK.resolve()} (../shared/tooltalk)")
    return TOOLTALK.resolve()
