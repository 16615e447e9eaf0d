"""Real runs made through the CLI, and headless Chromium to open their reports.

Runs are made once per session: the oracle and `no-call` on `quick`, a run whose assistant
hits infrastructure errors on some scenarios, a run of a scenario whose user and assistant
text carry HTML/script payloads, a milestone-scored run in which a minefield fires, and a
static-mode run scored the ToolTalk way.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from toolplay.cli import app

PLUGIN = str(Path(__file__).with_name("roles_plugin.py"))
SCRIPT_PAYLOAD = "<script>document.title='pwned-script'</script>"
IMG_PAYLOAD = "<img src=x onerror=\"document.title='pwned-img'\">"
CLOSE_PAYLOAD = "</script><script>document.title='pwned-json'</script>"
FLAKY_MESSAGE = "endpoint down after 3 retries <b>bold</b> " + SCRIPT_PAYLOAD


MINEFIELD_SCENARIO = {
    "id": "ms_wifi_on",
    "description": "Turn wifi on without touching cellular service.",
    "categories": ["single_tool_call", "state_dependency"],
    "world": {
        "domains": ["settings"],
        "tables": {
            "settings": [
                {
                    "cellular": True,
                    "wifi": False,
                    "location_service": True,
                    "low_battery_mode": False,
                    "latitude": 37.7749,
                    "longitude": -122.4194,
                }
            ]
        },
    },
    "user": {"script": ["Can you turn on wifi for me?"]},
    "reference": [
        {
            "user": "Can you turn on wifi for me?",
            "calls": [{"name": "set_wifi_status", "arguments": {"on": True}}],
            "reply": "Wifi is on now.",
        }
    ],
    "milestones": [
        {
            "id": "wifi_on",
            "constraints": [
                {"kind": "tool_call", "tool": "set_wifi_status", "arguments": {"on": True}},
                {"kind": "updated", "table": "settings", "rows": [{"wifi": True}]},
            ],
        }
    ],
    "minefields": [
        {
            "id": "cellular_off",
            "constraints": [
                {
                    "kind": "tool_call",
                    "tool": "set_cellular_service_status",
                    "arguments": {"on": False},
                },
            ],
        }
    ],
}


TOOLTALK_SCENARIO = {
    "id": "tt_update",
    "description": "Two turns, scored the ToolTalk way in static mode.",
    "categories": ["multiple_user_turn"],
    "split": "hard",
    "evaluation": "tooltalk",
    "world": {
        "domains": ["contacts"],
        "tables": {
            "contacts": [
                {
                    "person_id": "c-0002",
                    "name": "Bob Rivera",
                    "phone_number": "+14155550142",
                    "relationship": "friend",
                    "is_self": False,
                }
            ]
        },
    },
    "reference": [
        {
            "user": "I need to change someone's phone number.",
            "reply": "Sure, whose number should I change, and what is the new number?",
        },
        {
            "user": "Bob Rivera. His new number is +14155550177.",
            "calls": [
                {"name": "search_contacts", "arguments": {"name": "Bob Rivera"}},
                {
                    "name": "modify_contact",
                    "arguments": {"person_id": "c-0002", "phone_number": "+14155550177"},
                },
            ],
            "reply": "Bob Rivera's number is now +14155550177.",
        },
    ],
}


def invoke(*args: str, status: int = 0) -> str:
    """Run the CLI in-process; fail the test with its output unless it exits with `status`."""
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == status, result.output + repr(result.exception)
    return result.output


def xss_suite(folder: Path) -> Path:
    """A one-scenario suite whose every free-text field is an HTML/script payload."""
    user_text = f"{SCRIPT_PAYLOAD} please add {IMG_PAYLOAD}"
    scenario = {
        "id": "xss_probe",
        "description": f"Escaping probe {IMG_PAYLOAD}",
        "categories": ["</script><b>cat</b>"],
        "world": {"domains": ["contacts"]},
        "user": {"script": [user_text]},
        "reference": [
            {
                "user": user_text,
                "calls": [
                    {
                        "name": "add_contact",
                        "arguments": {"name": CLOSE_PAYLOAD, "phone_number": "+14155550123"},
                    }
                ],
                "reply": f"{IMG_PAYLOAD} done {SCRIPT_PAYLOAD}",
            }
        ],
    }
    path = folder / "xss.yaml"
    path.write_text(yaml.safe_dump({"scenarios": [scenario]}), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Run directories by name: oracle, nocall, flaky, xss, minefield, static."""
    root = tmp_path_factory.mktemp("runs")
    names = ("oracle", "nocall", "flaky", "xss", "minefield", "static")
    made = {name: root / name for name in names}
    invoke("run", "--suite", "quick", "--assistant", "oracle", "--out", str(made["oracle"]))
    invoke("run", "--suite", "quick", "--assistant", "no-call", "--out", str(made["nocall"]))
    minefield_suite = root / "minefield.yaml"
    minefield_suite.write_text(yaml.safe_dump({"scenarios": [MINEFIELD_SCENARIO]}))
    plugin = ("--plugin", PLUGIN)
    # infrastructure errors: the run exits 3 (see toolplay.errors.INFRASTRUCTURE)
    invoke(*plugin, "run", "--assistant", "flaky", "--out", str(made["flaky"]), status=3)
    invoke(
        *plugin,
        "run",
        "--suite",
        str(minefield_suite),
        "--assistant",
        "reckless",
        "--out",
        str(made["minefield"]),
    )
    static_suite = root / "tooltalk.yaml"
    static_suite.write_text(yaml.safe_dump({"scenarios": [TOOLTALK_SCENARIO]}))
    invoke("run", "--suite", str(static_suite), "--mode", "static", "--out", str(made["static"]))
    suite = xss_suite(root)
    invoke("run", "--suite", str(suite), "--assistant", "oracle", "--out", str(made["xss"]))
    for run_dir in made.values():
        invoke("report", str(run_dir))
    return made


def find_chromium() -> str | None:
    """Debian's chromium, or any chromium on PATH."""
    for candidate in (
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="session")
def chromium() -> str:
    """The browser binary; missing is a failure (`make test` installs it) unless opted out."""
    binary = find_chromium()
    if binary is None:
        if os.environ.get("TOOLPLAY_SKIP_BROWSER") == "1":
            pytest.skip("TOOLPLAY_SKIP_BROWSER=1 and no chromium installed")
        pytest.fail("headless chromium is missing: run scripts/ensure-chromium.sh (make test does)")
    return binary


@pytest.fixture
def browser(chromium: str, tmp_path: Path) -> Iterator[Callable[..., str]]:
    """`browser(file, fragment="", screenshot=None)`: the DOM after scripts ran."""

    def open_page(page: Path, fragment: str = "", screenshot: Path | None = None) -> str:
        base = [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--virtual-time-budget=3000",
        ]
        url = page.resolve().as_uri() + (f"#{fragment}" if fragment else "")
        if screenshot is not None:
            subprocess.run(
                [*base, "--window-size=1400,2400", f"--screenshot={screenshot}", url],
                check=True,
                capture_output=True,
                timeout=120,
            )
        done = subprocess.run(
            [*base, "--dump-dom", url], check=True, capture_output=True, timeout=120, text=True
        )
        return done.stdout

    yield open_page
