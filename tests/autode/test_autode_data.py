"""The official AutoDE benchmark: importer, API-only tools, and the oracle under the protocol."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from support import load_suite, setup
from toolplay.messages import ToolCall
from toolplay.methods.autode._data import load_api_list
from toolplay.scenarios import ScenarioError, Suite
from toolplay.tools import RECORDED, RegistryError, api_only_tool
from toolplay.validate import validate_suite


def test_the_benchmark_imports_276_dialogues_over_66_apis(autode_suite: Suite) -> None:
    assert len(autode_suite) == 276 and autode_suite.extra["apis"] == 66
    assert autode_suite.mode(None) == "autode-protocol"
    assert autode_suite.mode("static") == "autode-protocol-static"
    first = autode_suite.scenarios[0]
    assert first.id == "2b3a38aa-a19e-4900-bace-1331c86e2aae"
    assert first.tools.allow == ["TurnOnBluetooth"] and len(first.tools.api_only) == 1
    assert first.script == ["Can you turn on the Bluetooth on my watch?"]
    assert first.user.knowledge == 'API: TurnOnBluetooth\nParameters: {"deviceType": "watch"}'
    assert first.metadata["label"]["any_name"] is True
    assert first.metadata["label"]["cleaning"] == "strings"
    assert setup(first).registry.names() == ["TurnOnBluetooth"]  # only the gold API


def test_a_multi_turn_dialogue_is_the_reference_and_the_script(autode_suite: Suite) -> None:
    longest = max(autode_suite.scenarios, key=lambda s: len(s.reference))
    assert len(longest.reference) == 7  # 13 content turns: 7 user, 6 assistant
    assert all(t.reply for t in longest.reference[:-1]) and not longest.reference[-1].reply
    assert len(longest.script) == 7
    gold = longest.reference[-1].calls[0]
    assert gold.name == longest.metadata["label"]["name"]


def test_schemas_are_built_the_way_the_reference_builds_them(autode_dir: Path) -> None:
    apis = load_api_list(autode_dir / "API_list.xlsx")
    play = apis["PlayMedia"].function
    assert play["description"] == (
        "Play music using a certain application on a certain device. The call must contain at "
        "least one of the following parameters: mediaType, mediaName, artist"
    )
    properties = play["parameters"]["properties"]
    assert properties["mediaName"] == {"type": "string", "description": "Name of the media"}
    assert properties["deviceType"]["enum"] == ["mobile phone", "tablet", "TV", "speaker", "watch"]
    assert play["parameters"]["required"] == list(properties)  # the reference: all required
    navigate = apis["Navigate"].function["parameters"]
    assert navigate["properties"]["estimateTime"]["type"] == "boolean"
    assert navigate["properties"]["destination"]["description"] == "Destination"
    assert apis["BookTicket"].function["parameters"]["properties"]["ticketType"]["enum"] == [
        "plane",
        "train",
        "boat",
        "bus",
    ]
    assert "The call must" not in apis["TurnOnBluetooth"].function["description"]
    marked = load_api_list(autode_dir / "API_list.xlsx", "marked")
    assert marked["Navigate"].function["parameters"]["required"] == ["destination"]
    assert marked["PlayMedia"].function["parameters"]["required"] == []


def test_the_required_rule_is_part_of_the_suite_spec(autode_dir: Path) -> None:
    suite = load_suite(f"autode-data:{autode_dir}?required=marked")
    assert suite.extra["required"] == "marked"
    with pytest.raises(ScenarioError, match="unknown option 'required=some'"):
        load_suite(f"autode-data:{autode_dir}?required=some")


def test_a_call_to_an_api_only_tool_is_recorded_and_checked(autode_suite: Suite) -> None:
    scenario = autode_suite.scenarios[0]
    resolved = setup(scenario)
    registry, world = resolved.registry, resolved.new_world()
    ok = registry.execute(world, ToolCall.from_args("1", "TurnOnBluetooth", {"deviceType": "TV"}))
    assert ok.result == RECORDED and ok.error is None and world.changes == []
    bad = registry.execute(world, ToolCall.from_args("2", "TurnOnBluetooth", {"deviceType": "tv"}))
    assert bad.error_type == "invalid_arguments" and '"TV"' in (bad.error or "")
    extra = registry.execute(world, ToolCall.from_args("3", "TurnOnBluetooth", {"x": "1"}))
    assert "unexpected argument 'x'" in (extra.error or "")


def test_unusable_api_schemas_are_refused() -> None:
    with pytest.raises(RegistryError, match="type 'date'"):
        api_only_tool({"name": "A", "parameters": {"properties": {"d": {"type": "date"}}}})
    with pytest.raises(RegistryError, match="not declared"):
        api_only_tool({"name": "A", "parameters": {"properties": {}, "required": ["x"]}})
    with pytest.raises(RegistryError, match="not an identifier"):
        api_only_tool({"name": "no name"})


def checkout(tmp_path: Path, autode_dir: Path, lines: list[str]) -> Path:
    """A checkout with the real API list and the given data lines."""
    (tmp_path / "datasets").mkdir(parents=True)
    shutil.copy(autode_dir / "API_list.xlsx", tmp_path / "API_list.xlsx")
    (tmp_path / "datasets" / "data_v1_2.jsonl").write_text("\n".join(lines) + "\n")
    return tmp_path


GOOD = {
    "uuid": "u-1",
    "background": "Character: A\nBackground: B\nPurpose: C",
    "content": [{"role": "User", "message": "Turn on Bluetooth on my TV."}],
    "api": "TurnOnBluetooth",
    "slots": {"deviceType": "TV"},
}


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"api": "TurnOnWarpDrive"}, "unknown API 'TurnOnWarpDrive'"),
        ({"slots": {"deviceType": "TV", "speed": "9"}}, "slot 'speed' is not a parameter"),
        ({"slots": {"deviceType": "toaster"}}, "allowed: ['mobile phone'"),
        ({"slots": {"deviceType": True}}, "must be a string"),
        ({"content": [{"role": "Assistant", "message": "Hi"}]}, "alternate User/Assistant"),
        ({"uuid": 7}, "uuid: Input should be a valid string"),
        ({"extra": 1}, "extra: Extra inputs are not permitted"),
    ],
)
def test_a_bad_line_is_refused_with_file_line_and_reason(
    tmp_path: Path, autode_dir: Path, change: dict[str, object], reason: str
) -> None:
    lines = [json.dumps(GOOD), json.dumps({**GOOD, "uuid": "u-2", **change})]
    folder = checkout(tmp_path, autode_dir, lines)
    with pytest.raises(ScenarioError) as caught:
        load_suite(f"autode-data:{folder}")
    assert caught.value.source.endswith("data_v1_2.jsonl")
    assert caught.value.field == "line 2" and reason in caught.value.reason


def test_bad_json_and_duplicates_are_refused(tmp_path: Path, autode_dir: Path) -> None:
    folder = checkout(tmp_path / "a", autode_dir, [json.dumps(GOOD), "{not json"])
    with pytest.raises(ScenarioError, match="line 2.*invalid JSON"):
        load_suite(f"autode-data:{folder}")
    folder = checkout(tmp_path / "b", autode_dir, [json.dumps(GOOD), "", json.dumps(GOOD)])
    with pytest.raises(ScenarioError, match="line 3.*duplicate uuid 'u-1' \\(also line 1\\)"):
        load_suite(f"autode-data:{folder}")


def test_a_missing_checkout_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="no such folder"):
        load_suite(f"autode-data:{tmp_path / 'nowhere'}")
    (tmp_path / "datasets").mkdir()
    with pytest.raises(ScenarioError, match="API_list.xlsx: no such file"):
        load_suite(f"autode-data:{tmp_path}")


@pytest.mark.parametrize("mode", ["dynamic", "static"])
def test_the_oracle_making_the_gold_call_validates_all_276(autode_dir: Path, mode: str) -> None:
    report = validate_suite(f"autode-data:{autode_dir}", mode)
    assert report.checked == 276 and report.failures == []
