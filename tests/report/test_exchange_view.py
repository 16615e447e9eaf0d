"""The real local model's exact prompt and raw output are recorded and shown in the viewer.

The system prompt toolplay writes is not what a local model reads: the tool list, the JSON
answer format and the tool results are rendered into its chat template. The trajectory keeps
that exact text and the raw output, and the viewer shows both under each answer.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from support import load_suite
from toolplay.cli import app

pytest.importorskip("llama_cpp", reason="the local model needs the `local` extra")


def test_local_answers_keep_the_exact_prompt_and_raw_output(
    tmp_path: Path, browser: Callable[..., str]
) -> None:
    out = tmp_path / "local"
    scenario = load_suite("quick").scenarios[0].model_dump(mode="json", exclude_defaults=True)
    suite = tmp_path / "short.yaml"  # a few answers are enough (and keep the test quick)
    suite.write_text(yaml.safe_dump({"scenarios": [{**scenario, "max_turns": 5}]}))
    args = ["run", "--suite", str(suite), "--assistant", "local", "--max-tokens", "48"]
    result = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    path = next((out / "trajectories").glob("*.jsonl"))
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    answers = [m for m in lines if m["type"] == "message" and m["sender"] == "assistant"]
    assert answers
    tools = [t["function"]["name"] for t in answers[0]["exchange"]["request"]["tools"]]
    for answer in answers:
        exchange = answer["exchange"]
        prompt, output = exchange["prompt"], exchange["output"]
        # The tool list and the answer format are in the prompt, not in the system message.
        assert all(name in prompt for name in tools)
        assert '"tool_calls"' in prompt and "<|im_start|>" in prompt
        assert output.lstrip().startswith("{")  # the grammar-constrained JSON, unparsed
    system = next(m for m in lines if m["type"] == "message" and m["sender"] == "system")
    assert tools[0] not in system["content"]
    if len(answers) > 1 and answers[0]["tool_calls"]:  # a later prompt carries the tool result
        result_line = next(m for m in lines if m["type"] == "message" and m["tool_call_id"])
        assert result_line["tool_name"] and json.dumps(result_line["result"])[:20]
    assert CliRunner().invoke(app, ["report", str(out)]).exit_code == 0
    dom = html.unescape(browser(out / "report.html"))
    assert "<summary>Exact prompt and raw output</summary>" in dom
    assert answers[0]["exchange"]["output"].strip()[:30] in dom
    assert "what the model really read is under each of its answers" in dom
