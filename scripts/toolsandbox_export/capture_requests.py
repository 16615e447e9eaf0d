"""Capture requests the reference's own agent and user simulator build, for toolplay's tests.

Runs in the reference's Python 3.9 venv, like the exporter:

    REF_VENV/bin/python scripts/toolsandbox_export/capture_requests.py \
        tests/toolsandbox/data/reference_requests.jsonl.gz

The reference's classes are used unchanged (`GPT_4_o_2024_05_13_Agent`,
`GPT_4_o_2024_05_13_User`, `ExecutionEnvironment`, `Scenario.play`); only each role's
`openai_client` is an `openai.OpenAI` client built as the reference builds it whose httpx
transport is an `httpx.MockTransport`: openai serialises every request exactly as for the
network, the transport records the bytes and answers with a canned completion. Nothing leaves
the machine. The canned answers are toolplay's reference solutions (`solutions.yaml`), played
in several ways (`PLANS`); scenarios are built and played at the exporter's pinned clock, and
the ids the tools create come from a counter kept on the execution context (as `_probes`).

Writes one JSON line per conversation: `{"base", "setting", "variant", "requests": [{"role",
"n", "body_raw", "reply"}], "exception"}`; `body_raw` is the exact request body.
"""

from __future__ import annotations

import copy
import gzip
import hashlib
import inspect
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENAI_API_KEY", "sk-never-sent")
os.environ.setdefault("TQDM_DISABLE", "1")
os.environ.pop("OPENAI_BASE_URL", None)

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _pinned import build_scenarios, pinned_clock  # noqa: E402
from _probes import patch_uuid4  # noqa: E402
from _scenario import SETTINGS  # noqa: E402

SOLUTIONS = (
    Path(__file__).resolve().parents[2] / "src/toolplay/methods/toolsandbox/data/solutions.yaml"
)
FALLBACK = "Is there anything else I can help you with?"
BESIDE = "Let me take care of that for you."
BYE = "Thanks, that's all."

BASES = [
    "send_message_with_contact_content_cellular_off",
    "add_reminder_content_and_date_and_time_multiple_user_turn",
    "search_message_with_recency_latest",
    "find_days_till_holiday",
]
"""Bases every setting is captured for (state dependency, several user turns, a search, a
holiday lookup with time arithmetic)."""
ALL_SETTINGS = list(SETTINGS)
SELECTION = [
    *[(s, v, b) for s in ALL_SETTINGS for v in ("solution", "parallel", "error") for b in BASES],
    *[
        ("none", v, b)
        for v in ("text_beside", "clarify", "rendering", "user_end_error", "nulls")
        for b in BASES
    ],
    *[
        (s, v, BASES[0])
        for s in ("none", "distractors_3+scrambled_names")
        for v in ("malformed_json", "unknown_tool", "long", "whole_parallel", "reversed_parallel")
    ],
    ("none", "long_parallel", BASES[0]),
    ("none", "long", BASES[1]),
]
"""(setting, variant, base) of every captured conversation."""


def _calls(turn: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": c["name"], "arguments": c.get("arguments") or {}} for c in turn["calls"]]


def _solution(turns: list[dict[str, Any]], beside: str | None = None, parallel: bool = False):
    agent: list[dict[str, Any]] = []
    user: list[dict[str, Any]] = []
    for i, turn in enumerate(turns):
        calls = _calls(turn)
        if parallel and calls:
            agent.append({"calls": calls * 2 if len(calls) == 1 else calls, "content": beside})
        else:
            agent += [{"calls": [call], "content": beside} for call in calls]
        agent.append({"say": turn["reply"]})
        if i + 1 < len(turns):
            user.append({"say": turns[i + 1]["user"]})
    user.append({"end": True, "content": BYE if beside else None})
    return agent, user


def _wrong(value: Any) -> Any:
    if isinstance(value, str):
        return 12345
    return "abc" if isinstance(value, (bool, int, float)) else None


def plan(variant: str, turns: list[dict[str, Any]], scenario: Any) -> Any:
    """(agent steps, user steps) for `variant` (see `PLANS`)."""
    calls = [c for t in turns for c in _calls(t)]
    signature = scenario.starting_context.name_to_tool
    if variant == "solution":
        return _solution(turns)
    if variant == "parallel":
        return _solution(turns, parallel=True)
    if variant == "text_beside":
        return _solution(turns, beside=BESIDE)
    if variant == "clarify":
        agent, user = _solution(turns)
        return [{"say": "Could you confirm what you want?"}, *agent], [{"say": "Yes, go."}, *user]
    if variant == "error":
        agent, user = _solution(turns)
        first = calls[0]
        params = inspect.signature(signature[first["name"]]).parameters.values()
        required = [p for p in params if p.default is inspect.Parameter.empty]
        bad = [{"calls": [{**first, "arguments": {} if required else {"unexpected": 1}}]}]
        for call in calls:
            for key, value in call["arguments"].items():
                if _wrong(value) is not None:
                    bad.append(
                        {
                            "calls": [
                                {**call, "arguments": {**call["arguments"], key: _wrong(value)}}
                            ]
                        }
                    )
                    return bad + agent, user
        return bad + agent, user
    if variant == "rendering":
        agent, user = _solution(turns)
        for step in agent:
            for call in step.get("calls", []):
                arguments = dict(reversed(list(call.pop("arguments").items())))
                call["raw"] = json.dumps(arguments, indent=2, ensure_ascii=False)
            if "say" in step:
                step["say"] += " \u2713 (caf\u00e9)"
        return agent, user
    if variant == "user_end_error":
        agent, user = _solution(turns)
        end = {"end": True, "content": None}
        return agent, [*user[:-1], {**end, "arguments": '{"reason":"done"}'}, {"say": BYE}, end]
    if variant == "nulls":
        agent, user = _solution(turns)
        for step in agent:
            for call in step.get("calls", []):
                for p in inspect.signature(signature[call["name"]]).parameters.values():
                    if p.default is not inspect.Parameter.empty and p.name not in call["arguments"]:
                        call["arguments"] = {**call["arguments"], p.name: None}
                        break
        return agent, user
    if variant == "malformed_json":
        return [{"calls": [{**calls[0], "raw": '{"content": "unterminated'}]}], []
    if variant == "unknown_tool":
        return [{"calls": [{"name": "not_a_real_tool", "arguments": {}, "as_is": True}]}], []
    if variant == "long":
        return [{"calls": [calls[0]]} for _ in range(17)] + [{"say": "Done."}], []
    if variant == "long_parallel":
        return [{"calls": [calls[0]] * 3} for _ in range(8)] + [{"say": "Done."}], []
    if variant in ("whole_parallel", "reversed_parallel"):
        ordered = calls if variant == "whole_parallel" else list(reversed(calls))
        return [{"calls": ordered}, {"say": turns[-1]["reply"]}], []
    raise KeyError(variant)


PLANS = (
    "solution, parallel (each turn's calls in one answer, a single call twice), error (a missing "
    "or unexpected argument, then a wrongly typed one, then the solution), text_beside, clarify, "
    "rendering (argument text pretty-printed, keys reversed; non-ASCII replies), user_end_error "
    "(the user's end_conversation with an argument), nulls (an explicit null for an absent "
    "optional argument), malformed_json, unknown_tool, long (17 calls: the 30-message budget), "
    "long_parallel, whole_parallel and reversed_parallel (every call in one answer)"
)


class Recorder:
    """Answers one conversation's requests from its plan and records their bytes."""

    def __init__(self, agent: list[dict[str, Any]], user: list[dict[str, Any]], key: str) -> None:
        self.steps = {"agent": agent, "user": user}
        self.key = key
        self.requests: list[dict[str, Any]] = []
        self.counts = {"agent": 0, "user": 0}
        self.ids = 0

    def call_id(self) -> str:
        self.ids += 1
        return "call_" + hashlib.sha256(f"{self.key}#{self.ids}".encode()).hexdigest()[:24]

    def reply(self, role: str) -> dict[str, Any]:
        from tool_sandbox.common.execution_context import get_current_context

        n = self.counts[role]
        self.counts[role] += 1
        steps = self.steps[role]
        step = steps[n] if n < len(steps) else None
        if step is None:
            step = {"say": FALLBACK} if role == "agent" else {"end": True, "content": None}
        if "say" in step:
            return {"role": "assistant", "content": step["say"]}
        if role == "user":
            function = {"name": "end_conversation", "arguments": step.get("arguments", "{}")}
            call = {"id": self.call_id(), "type": "function", "function": function}
            return {"role": "assistant", "content": step.get("content"), "tool_calls": [call]}
        context = get_current_context()
        calls = []
        for call in step["calls"]:
            name = (
                call["name"]
                if call.get("as_is")
                else context.get_agent_facing_tool_name(call["name"])
            )
            text = call.get("raw") or json.dumps(
                call["arguments"], separators=(",", ":"), ensure_ascii=False
            )
            function = {"name": name, "arguments": text}
            calls.append({"id": self.call_id(), "type": "function", "function": function})
        return {"role": "assistant", "content": step.get("content"), "tool_calls": calls}

    def client(self, role: str) -> Any:
        import httpx
        from openai import OpenAI

        def handler(request: httpx.Request) -> httpx.Response:
            raw = request.content.decode("utf-8")
            n = self.counts[role]
            message = self.reply(role)
            self.requests.append({"role": role, "n": n, "body_raw": raw, "reply": message})
            finish = "tool_calls" if message.get("tool_calls") else "stop"
            body = {
                "id": "chatcmpl-capture",
                "object": "chat.completion",
                "created": 1723629600,
                "model": "gpt-4o-2024-05-13",
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }
            return httpx.Response(200, json=body)

        transport = httpx.MockTransport(handler)
        return OpenAI(
            base_url="https://api.openai.com/v1",
            http_client=httpx.Client(transport=transport),
            max_retries=0,
        )


def play(name: str, scenario: Any, recorder: Recorder) -> dict[str, str] | None:
    """Play one scenario with the reference's roles; the exception it ended with, if any."""
    from tool_sandbox.common.execution_context import RoleType
    from tool_sandbox.roles.execution_environment import ExecutionEnvironment
    from tool_sandbox.roles.openai_api_agent import GPT_4_o_2024_05_13_Agent
    from tool_sandbox.roles.openai_api_user import GPT_4_o_2024_05_13_User

    agent, user = GPT_4_o_2024_05_13_Agent(), GPT_4_o_2024_05_13_User()
    agent.openai_client = recorder.client("agent")
    user.openai_client = recorder.client("user")
    roles = {
        RoleType.USER: user,
        RoleType.EXECUTION_ENVIRONMENT: ExecutionEnvironment(),
        RoleType.AGENT: agent,
    }
    with pinned_clock():
        try:
            scenario.play(roles=roles, scenario_name=name)
        except Exception as exc:  # the reference's run_scenario catches the same way
            return {
                "type": type(exc).__name__,
                "last": traceback.format_exc().rstrip().split("\n")[-1],
            }
    return None


def main() -> None:
    import yaml

    out = Path(sys.argv[1])
    solutions = yaml.safe_load(SOLUTIONS.read_text(encoding="utf-8"))
    scenarios = build_scenarios()
    patch_uuid4()
    lines = []
    for setting, variant, base in SELECTION:
        name = base + SETTINGS[setting]
        scenario = scenarios[name]
        agent, user = plan(variant, copy.deepcopy(solutions[base]), scenario)
        recorder = Recorder(agent, user, f"{setting}/{variant}/{base}")
        exception = play(name, scenario, recorder)
        lines.append(
            {
                "base": base,
                "setting": setting,
                "variant": variant,
                "requests": recorder.requests,
                "exception": exception,
            }
        )
    with gzip.open(out, "wt", encoding="utf-8") as f:
        f.write(
            json.dumps(
                {
                    "licence": "requests built by apple/ToolSandbox 165848b: Apple's, under "
                    "the LICENSE beside the suite's data",
                    "plans": PLANS,
                }
            )
            + "\n"
        )
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
    print(
        json.dumps(
            {"conversations": len(lines), "requests": sum(len(x["requests"]) for x in lines)}
        )
    )


if __name__ == "__main__":
    main()
