"""The audit's HTML page, opened in headless Chromium: the flags, every scenario, and links
that open the trajectory behind a flag in its run's report."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from typer.testing import CliRunner

from toolplay.cli import app

Browser = Callable[..., str]
AGENT = Path(__file__).parents[1] / "analysis" / "agents.py"


def cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    return result.output


def audit(runs: dict[str, Path], out: Path) -> dict:
    """An audit of quick: `flaky` (errors on some scenarios), a python assistant that fails
    every quick scenario, and the oracle and no-call as ceiling and floor."""
    failing = out.parent / "failing"
    if not failing.exists():
        cli("run", "--suite", "quick", "--assistant", f"python:{AGENT}:weak", "--out", str(failing))
    run_dirs = [runs["flaky"], failing, runs["oracle"], runs["nocall"]]
    cli("audit", *map(str, run_dirs), "--out", str(out), "--no-baselines")
    data: dict = json.loads((out / "audit.json").read_text())
    return data


def test_the_page_lists_every_scenario_with_links_to_its_trajectories(
    runs: dict[str, Path], browser: Browser, tmp_path: Path
) -> None:
    out = tmp_path / "audit"
    data = audit(runs, out)
    page = out / "audit.html"
    html = page.read_text()
    assert "<script" not in html  # a static page: no script at all
    dom = browser(page)
    assert "Flags" in dom and "Per scenario" in dom
    for item in data["items"]:
        assert item["id"] in dom
    for rule in data["rules"]:
        assert rule["code"] in dom and rule["rule"] in dom
    hrefs = re.findall(r'href="([^"#]*report\.html#[^"]+)"', html)
    assert hrefs, "no trajectory link"
    # every link opens an existing report at a scenario and trial the run holds
    for href in set(hrefs):
        parts = urlsplit(href.replace("&amp;", "&"))
        target = (out / unquote(parts.path)).resolve()
        assert target.is_file(), href
        query = parse_qs(parts.fragment)
        trial = int(query["trial"][0])
        assert (target.parent / "trajectories" / f"{query['scenario'][0]}.t{trial}.jsonl").is_file()
    # following one: the run's report opens that trajectory in its viewer
    flagged = next(i for i in data["items"] if i["flags"] and i["flags"][0]["evidence"])
    ref = flagged["flags"][0]["evidence"][0]
    link = next(h for h in hrefs if f"scenario={flagged['id']}&amp;trial={ref['trial']}" in h)
    report = (out / unquote(urlsplit(link).path)).resolve()
    viewer = browser(report, urlsplit(link.replace("&amp;", "&")).fragment)
    assert flagged["id"] in viewer


def test_the_page_is_deterministic(runs: dict[str, Path], tmp_path: Path) -> None:
    audit(runs, tmp_path / "a")
    audit(runs, tmp_path / "b")
    for name in ("audit.html", "audit.json", "audit.csv"):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
