"""The HTML report of real runs, opened in headless Chromium: numbers shown, payloads inert."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from toolplay.analysis import load_run, ordered
from toolplay.cli import app
from toolplay.report import write_report
from toolplay.report._format import fmt
from toolplay.report._payload import unpack_payload
from toolplay.store import row_digest

SCRIPT_PAYLOAD = "<script>document.title='pwned-script'</script>"
IMG_PAYLOAD = "<img src=x onerror=\"document.title='pwned-img'\">"
CLOSE_PAYLOAD = "</script><script>document.title='pwned-json'</script>"

Browser = Callable[..., str]

# ---- a small DOM reader ----------------------------------------------------------------------

VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(self.parts)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.stack: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.elements.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        for element in self.stack:
            element.parts.append(data)


def parse(html: str) -> list[Element]:
    """Every element of `html`, in document order."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.elements


def find(
    elements: list[Element], tag: str | None = None, cls: str | None = None, **attrs: str
) -> list[Element]:
    """Elements matching a tag, a class and exact attribute values."""
    return [
        e
        for e in elements
        if (tag is None or e.tag == tag)
        and (cls is None or cls in e.classes)
        and all(e.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())
    ]


def by_id(elements: list[Element], ident: str) -> Element:
    """The element with this id (exactly one)."""
    found = [e for e in elements if e.attrs.get("id") == ident]
    assert len(found) == 1, f"{len(found)} elements with id {ident!r}"
    return found[0]


# ---- helpers ---------------------------------------------------------------------------------
def summary_of(run_dir: Path) -> dict[str, Any]:
    return dict(json.loads((run_dir / "summary.json").read_text(encoding="utf-8")))


def records(run_dir: Path, scenario_id: str, trial: int = 0) -> list[dict[str, Any]]:
    path = run_dir / "trajectories" / f"{scenario_id}.t{trial}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def outcomes(run_dir: Path) -> list[str]:
    """The outcome word the report should show per trajectory, from the stored scores."""
    words = []
    for path in sorted((run_dir / "trajectories").glob("*.jsonl")):
        last = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
        if last["type"] != "score":
            words.append("error")
        else:
            score = last["score"]
            words.append("pass" if score >= 1 else "partial" if score > 0 else "fail")
    return sorted(words)


def card_values(elements: list[Element]) -> dict[str, str]:
    values = {}
    for card in find(elements, "div", "card"):
        value = next(e for e in elements[elements.index(card) :] if "value" in e.classes)
        values[card.attrs["data-metric"]] = value.text.strip()
    return values


def viewer_texts(elements: list[Element], cls: str) -> list[str]:
    return [e.text for e in find(elements, cls=cls)]


# ---- the numbers -----------------------------------------------------------------------------
def test_oracle_report_shows_headline_numbers_table_and_conversation(
    runs: dict[str, Path], browser: Browser
) -> None:
    summary = summary_of(runs["oracle"])
    dom = parse(browser(runs["oracle"] / "report.html"))
    cards = card_values(dom)
    headline = ordered(list(summary["metrics"]))[0]
    value = summary["metrics"][headline]
    assert find(dom, "div", "primary")[0].attrs["data-metric"] == headline
    assert cards[headline] == fmt(value) == "1.000"
    assert cards["perfect_rate"] == "1.000"
    assert cards["scenarios"] == str(summary["scenarios"]) == "5"
    assert cards["errors"] == "0"
    rows = [e for e in dom if e.tag == "tr" and "data-key" in e.attrs]
    assert sorted(r.attrs["data-key"] for r in rows) == sorted(
        f"{p.name.split('.t')[0]}#0" for p in (runs["oracle"] / "trajectories").iterdir()
    )
    assert by_id(dom, "f-count").text == "5 of 5 shown"
    assert all(find([r], "tr") for r in rows)
    assert [p.text for p in find(dom, "span", "pill")].count("pass") >= 5
    # The first scenario's conversation: user words, the call, the world change, the reply.
    viewer = by_id(dom, "viewer").text
    assert "quick_add_contact" in viewer
    stored = records(runs["oracle"], "quick_add_contact")
    said = [
        r["content"]
        for r in stored
        if r["type"] == "message" and r["sender"] != "system" and r["content"]
    ]
    assert said and all(text in viewer_texts(dom, "text") for text in said)
    calls = [c["name"] for r in stored if r["type"] == "message" for c in r["tool_calls"]]
    assert "add_contact" in calls
    # Each call is shown twice: where the assistant makes it, and on its result.
    assert [e.text for e in find(dom, "span", "toolname")] == [n for c in calls for n in (c, c)]
    assert any("contacts · insert" in t and "Alice Chen" in t for t in viewer_texts(dom, "change"))
    # Category breakdown table and chart carry the numbers too.
    assert "multiple_tool_call" in "".join(e.text for e in find(dom, "svg"))


def test_no_call_report_shows_failures(runs: dict[str, Path], browser: Browser) -> None:
    summary = summary_of(runs["nocall"])
    dom = parse(browser(runs["nocall"] / "report.html"))
    cards = card_values(dom)
    headline = ordered(list(summary["metrics"]))[0]
    value = summary["metrics"][headline]
    assert cards[headline] == fmt(value)
    assert cards["perfect_rate"] == "0.000"
    rows = [i for i, e in enumerate(dom) if e.tag == "tr" and "data-key" in e.attrs]
    table_pills = sorted(next(e.text for e in dom[i:] if "pill" in e.classes) for i in rows)
    assert table_pills == outcomes(runs["nocall"])
    assert "pass" not in table_pills
    assert "I can't help with that." in viewer_texts(dom, "text")


def test_filters_and_selection_follow_the_link(runs: dict[str, Path], browser: Browser) -> None:
    dom = parse(browser(runs["oracle"] / "report.html", "failed=1"))
    assert by_id(dom, "f-count").text == "0 of 5 shown"
    dom = parse(browser(runs["nocall"] / "report.html", "category=state_dependency"))
    assert by_id(dom, "f-count").text == "1 of 5 shown"
    keys = [e.attrs["data-key"] for e in dom if e.tag == "tr" and "data-key" in e.attrs]
    assert keys == ["quick_send_with_cellular_off#0"]
    dom = parse(browser(runs["nocall"] / "report.html", "scenario=quick_update_number&trial=0"))
    assert (
        "quick_update_number" in find(dom, "h2")[-1].text
        or "quick_update_number" in by_id(dom, "viewer").text
    )
    assert "Bob Rivera. His new number is +14155550177." in viewer_texts(dom, "text")


def test_user_and_assistant_views(runs: dict[str, Path], browser: Browser) -> None:
    page = runs["oracle"] / "report.html"
    stored = [r for r in records(runs["oracle"], "quick_add_contact") if r["type"] == "message"]
    for role in ("user", "assistant"):
        dom = parse(browser(page, f"scenario=quick_add_contact&trial=0&view={role}"))
        on = next(e for e in find(dom, "button") if "on" in e.classes)
        assert on.text == f"As the {role} saw it"
        dimmed = {e.attrs["id"] for e in dom if "hidden-here" in e.classes}
        expected = {f"msg-{m['index']}" for m in stored if role not in m["visible_to"]}
        assert dimmed == expected
        if role == "user":  # the user never sees the system prompt or the tool traffic
            assert len(expected) >= 3


def test_run_with_infrastructure_errors(runs: dict[str, Path], browser: Browser) -> None:
    summary = summary_of(runs["flaky"])
    failed = sorted(e["scenario_id"] for e in summary["error_list"])
    assert 0 < summary["errors"] == len(failed) < 5
    page = runs["flaky"] / "report.html"
    dom = parse(browser(page))
    assert card_values(dom)["errors"] == str(summary["errors"])
    section = next(e for e in find(dom, "ul", "errors"))
    for scenario_id in failed:
        assert scenario_id in section.text
    # The error text (with markup in it) is shown as text, not as elements.
    assert "<b>bold</b>" in section.text
    assert not [e for e in dom if e.tag == "b" and e.text == "bold"]
    dom = parse(browser(page, f"scenario={failed[0]}&trial=0"))
    viewer = by_id(dom, "viewer").text
    assert "Not scored: infrastructure error" in viewer
    assert "endpoint down after 3 retries" in viewer
    assert "error" in [p.text for p in find(dom, "span", "pill")]


def test_run_where_a_minefield_fires(runs: dict[str, Path], browser: Browser) -> None:
    summary = summary_of(runs["minefield"])
    assert summary["metrics"]["similarity"] == 0.0
    assert summary["metrics"]["milestone_similarity"] == 1.0
    dom = parse(browser(runs["minefield"] / "report.html"))
    cards = card_values(dom)
    assert cards["similarity"] == "0.000" and cards["milestone_similarity"] == "1.000"
    messages = {e.attrs["id"]: e.text for e in dom if e.attrs.get("id", "").startswith("msg-")}
    score = json.loads(
        (runs["minefield"] / "trajectories" / "ms_wifi_on.t0.jsonl").read_text().splitlines()[-1]
    )
    milestone = score["evidence"]["milestone_mapping"][0]
    minefield = score["evidence"]["minefield_mapping"][0]
    assert minefield["similarity"] > 0
    # The badges sit on the messages the scorer mapped them to.
    assert "◆ wifi_on · 1.000" in messages[f"msg-{milestone['index']}"]
    assert "✖ minefield fired: cellular_off" in messages[f"msg-{minefield['index']}"]
    tables = [e.text for e in find(dom, "div", "evidence")]
    assert any("Milestones → messages" in t and "wifi_on" in t for t in tables)
    assert any("Minefields" in t and "cellular_off" in t and "FIRED" in t for t in tables)
    assert any("set_cellular_service_status" in t for t in viewer_texts(dom, "toolname"))


def test_static_tooltalk_run(runs: dict[str, Path], browser: Browser) -> None:
    summary = summary_of(runs["static"])
    assert summary["mode"] == "static" and "hard" in summary["sections"]["tooltalk"]["splits"]
    dom = parse(browser(runs["static"] / "report.html"))
    headings = [e.text for e in dom if e.tag == "h2"]
    assert "Score by split" in headings and "By split" in headings
    details = records(runs["static"], "tt_update")[-1]["evidence"]
    table = next(e.text for e in find(dom, "div", "evidence") if "Predicted calls" in e.text)
    for prediction in details["predictions"]:
        assert prediction["tool"] in table
        if prediction["matches_ground_truth"] is not None:
            assert f"matches #{prediction['matches_ground_truth']}" in table
    tags = [e.text for e in find(dom, "span", "tag")]
    assert "replayed from the reference" in tags and "turn 1" in tags


# ---- escaping --------------------------------------------------------------------------------
def test_script_payloads_in_model_and_user_text_stay_text(
    runs: dict[str, Path], browser: Browser
) -> None:
    page = runs["xss"] / "report.html"
    source = page.read_text(encoding="utf-8")
    for payload in (SCRIPT_PAYLOAD, IMG_PAYLOAD, CLOSE_PAYLOAD, "<b>cat</b>"):
        assert payload not in source
    assert "<img" not in source
    title = re.search(r"<title>(.*?)</title>", source).group(1)  # type: ignore[union-attr]

    dom_text = browser(page, "scenario=xss_probe&trial=0")
    dom = parse(dom_text)
    # Nothing ran: the title is untouched, no image element, exactly our two script elements.
    assert [e.text for e in dom if e.tag == "title"][0] == title.replace("&amp;", "&")
    assert "pwned" not in title
    assert not [e for e in dom if e.tag == "img"]
    assert not [e for e in dom if any(k.startswith("on") for k in e.attrs)]
    scripts = [e for e in dom if e.tag == "script"]
    assert len(scripts) == 2 and scripts[0].attrs.get("type") == "application/json"
    assert not [e for e in dom if e.tag == "b" and e.text == "cat"]
    # ... and every payload is on the page as readable text.
    texts = viewer_texts(dom, "text")
    assert f"{SCRIPT_PAYLOAD} please add {IMG_PAYLOAD}" in texts
    assert f"{IMG_PAYLOAD} done {SCRIPT_PAYLOAD}" in texts
    assert any(CLOSE_PAYLOAD in e.text for e in dom if e.tag == "pre")
    assert f"Escaping probe {IMG_PAYLOAD}" in by_id(dom, "viewer").text
    assert "</script><b>cat</b>" in [e.text for e in find(dom, "span", "cat")]


# ---- offline, deterministic, read-only -------------------------------------------------------
def test_report_is_self_contained_and_deterministic(runs: dict[str, Path], tmp_path: Path) -> None:
    first = (runs["oracle"] / "report.html").read_bytes()
    again = write_report(runs["oracle"], tmp_path / "again.html").read_bytes()
    assert first == again
    text = first.decode()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)
    assert "@import" not in text and "url(" not in text
    csp = find(parse(text), "meta", http_equiv="Content-Security-Policy")[0].attrs["content"]
    assert "default-src 'none'" in csp and "script-src 'sha256-" in csp


def test_report_from_trajectory_files_alone(runs: dict[str, Path], tmp_path: Path) -> None:
    copy = tmp_path / "copied"
    shutil.copytree(runs["flaky"], copy)
    (copy / "run.sqlite").unlink()
    for extra in copy.glob("run.sqlite-*"):
        extra.unlink()
    config = json.loads((copy / "config.json").read_text())
    config["suite"] = str(tmp_path / "gone.yaml")
    (copy / "config.json").write_text(json.dumps(config))
    summary = summary_of(copy)
    summary["suite"] = config["suite"]
    (copy / "summary.json").write_text(json.dumps(summary))
    html = write_report(copy).read_text()
    data = unpack_payload(
        json.loads(
            re.search(r'id="run-data">(.*?)</script>', html, re.S).group(1)  # type: ignore[union-attr]
        )
    )
    assert len(data["entries"]) == 5
    assert sum(e["status"] == "error" for e in data["entries"]) == summary["errors"]
    # The suite is gone and so is the store: the categories travel with the trajectories.
    assert all(e["categories"] for e in data["entries"])
    assert "not recorded" not in html


def test_a_run_that_predates_recorded_categories_gets_them_from_toolplay_score(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    """The report never loads the suite: a run stored without scenario info says how to get it,
    and `toolplay score` (which loads the suite to score) records it in the store."""
    copy = tmp_path / "old"
    shutil.copytree(runs["oracle"], copy)
    with closing(sqlite3.connect(copy / "run.sqlite")) as db, db:
        rows = db.execute("SELECT scenario_id, trial, trajectory, score FROM results").fetchall()
        for scenario_id, trial, text, score in rows:
            trajectory = json.loads(text)
            trajectory.pop("scenario")
            text = json.dumps(trajectory)
            digest = row_digest(scenario_id, trial, "done", text, score, None)
            db.execute(
                "UPDATE results SET trajectory = ?, digest = ? WHERE scenario_id = ? AND trial = ?",
                (text, digest, scenario_id, trial),
            )
        db.execute("DELETE FROM meta WHERE key = 'scenario_info'")
    shutil.rmtree(copy / "trajectories")
    run = load_run(copy)
    assert all(not e.info.categories for e in run.entries)
    assert any("toolplay score" in note for note in run.notes)
    result = CliRunner().invoke(app, ["score", str(copy)])
    assert result.exit_code == 0, result.output
    run = load_run(copy)
    assert all(e.info.categories for e in run.entries)
    assert not run.notes


def test_report_command_refuses_a_directory_without_a_run(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 2
    assert "no run here" in result.output


def test_the_browser_check_sees_markup_that_was_not_escaped(
    tmp_path: Path, browser: Browser
) -> None:
    """Control: the same checks on a page that inserts the payloads raw do see them run."""
    page = tmp_path / "unsafe.html"
    page.write_text(
        f"<html><head><title>safe</title></head><body>{IMG_PAYLOAD}</body></html>",
        encoding="utf-8",
    )
    dom = parse(browser(page))
    assert [e.text for e in dom if e.tag == "title"] == ["pwned-img"]
    assert [e for e in dom if e.tag == "img"]
