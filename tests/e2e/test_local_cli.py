"""`toolplay run --assistant local`: the packaged GGUF model through the whole CLI pipeline."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from typer.testing import CliRunner

from toolplay.cli import app

WIFI_OFF = {
    "cellular": True,
    "wifi": False,
    "location_service": True,
    "low_battery_mode": False,
    "latitude": 37.3349,
    "longitude": -122.009,
}
"""The device with wifi off, so turning it on is a real change."""

# Two tools and four messages keep this real-model run short on a shared 2-core machine.
SCENARIO = {
    "scenarios": [
        {
            "id": "local_cli_wifi",
            "categories": ["single_tool_call"],
            "world": {
                "domains": ["settings"],
                "tables": {"settings": [WIFI_OFF]},
            },
            "tools": {"allow": ["get_wifi_status", "set_wifi_status"]},
            "user": {"script": ["Turn on wifi please."]},
            "reference": [
                {
                    "user": "Turn on wifi please.",
                    "calls": [{"name": "set_wifi_status", "arguments": {"on": True}}],
                    "reply": "Wifi is on.",
                }
            ],
            "max_turns": 4,
        }
    ]
}


def test_the_packaged_model_is_evaluated_end_to_end(tmp_path: Path) -> None:
    suite = tmp_path / "wifi.yaml"
    suite.write_text(yaml.safe_dump(SCENARIO))
    out = tmp_path / "run"
    args = ["run", "--suite", str(suite), "--assistant", "local", "--max-tokens", "48"]
    result = CliRunner().invoke(app, [*args, "--out", str(out)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["completed"] == 1 and summary["errors"] == 0
    assert summary["assistant_settings"]["kind"] == "local"
    assert summary["assistant_settings"]["model"] == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert summary["usage"]["calls"] >= 1 and summary["usage"]["prompt_tokens"] > 0
    assert set(summary["termination"]) <= {"script_exhausted", "turn_limit", "assistant_error"}
    lines = (out / "trajectories" / "local_cli_wifi.t0.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    assert header["assistant"] == "local" and header["roles"]["assistant"]["kind"] == "local"
