"""Stored run configs of earlier versions load as what they were played with."""

from __future__ import annotations

from toolplay.runs import CONFIG_VERSION, RunConfig


def test_a_version_2_config_keeps_the_prompts_it_was_played_with() -> None:
    stored = {
        "version": 2,
        "suite": "quick",
        "assistant": "oracle",
        "play": {"system_prompt": "Be brief.", "max_calls_per_turn": 3},
    }
    config = RunConfig.model_validate(stored)
    assert config.version == CONFIG_VERSION == 7
    assert config.presentation == "toolplay"  # what runs of those versions were shown
    assert config.suite_version is None  # version 6: no errata, the original suite
    assert config.play.prompt_context is True and config.play.user_simulator == "toolplay"
    assert config.play.system_prompt == "Be brief." and config.play.max_calls_per_turn == 3


def test_a_version_3_config_too() -> None:
    stored = {"version": 3, "suite": "quick", "assistant": "oracle", "play": {}}
    config = RunConfig.model_validate(stored)
    assert config.play.prompt_context is True and config.play.user_simulator == "toolplay"


def test_a_version_1_config_too() -> None:
    config = RunConfig.model_validate(
        {"suite": "quick", "assistant": "oracle", "options": {}, "system_prompt": "Hi."}
    )
    assert config.play.system_prompt == "Hi." and config.play.prompt_context is True


def test_a_new_config_has_the_reference_defaults() -> None:
    config = RunConfig.model_validate({"suite": "quick", "assistant": "oracle"})
    assert config.play.prompt_context is False and config.play.user_simulator == "toolsandbox"


def test_a_version_6_config_chose_no_categories() -> None:
    stored = {"version": 6, "suite": "quick", "presentation": "toolplay", "play": {}}
    config = RunConfig.model_validate(stored)
    assert config.version == 7 and config.categories == []
