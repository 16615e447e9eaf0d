"""The Inspect tasks toolplay registers: `inspect eval toolplay/<task>`.

- `toolplay/sandbox`: the ToolSandbox-style suite (milestones and minefields, mean similarity);
- `toolplay/tooltalk`: ToolTalk's static evaluation of a ToolTalk data folder (micro averages);
- `toolplay/autode`: AutoDE's user scripts, `mode=dynamic` (default) or `mode=static`, or any
  mode the `autode` suite or a plugin names (slot P/R/F1, macro per trial);
- `toolplay/suite`: any suite spec toolplay accepts (a name, `NAME:ARG`, a folder), any mode.

Every task takes `limit` and `user` (`scripted`, another toolplay user kind, or `model` for a
user played by Inspect's `user` model role: `--model-role user=PROVIDER/MODEL`), and the play
settings `system_prompt` and `max_calls_per_turn` of `toolplay run`. Epochs are trials.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai import Task, task

from toolplay.conversation import PlaySettings
from toolplay.integrations.inspect._offline import provide_tiktoken_encoding
from toolplay.integrations.inspect._plan import TaskPlan, build_plan
from toolplay.integrations.inspect._records import TASK_KEY
from toolplay.integrations.inspect._scorer import toolplay_metrics, toolplay_score
from toolplay.integrations.inspect._solver import toolplay_play

Names = str | Sequence[str] | None


def plan_task(plan: TaskPlan) -> Task:
    """The Inspect task playing `plan`'s scenarios.

    Inspect's token counting finds tiktoken's encoding offline (`_offline`).
    """
    provide_tiktoken_encoding()
    return Task(
        dataset=plan.samples(),
        solver=toolplay_play(plan),
        scorer=toolplay_score(plan),
        metrics=[toolplay_metrics(plan.catalog)],
        metadata={TASK_KEY: plan.selection.model_dump(mode="json")},
    )


def _settings(system_prompt: str | None, max_calls_per_turn: int | None) -> PlaySettings:
    return PlaySettings.model_validate(
        {"system_prompt": system_prompt, "max_calls_per_turn": max_calls_per_turn}
    )


@task
def sandbox(
    augmentation: Names = None,
    category: Names = None,
    limit: int | None = None,
    user: str = "scripted",
    system_prompt: str | None = None,
    plugins: Names = None,
) -> Task:
    """The sandbox suite: stateful scenarios scored by milestones and minefields.

    Args:
        augmentation: Tool augmentation settings to select (`none`, `distractors_3`,
            `scrambled_names`, ...; a list or comma-separated); default all eight.
        category: Only scenarios of these categories (e.g. `state_dependency`).
        limit: Only the first N scenarios chosen.
        user: `scripted`, a toolplay user kind, or `model` (Inspect's `user` model role).
        system_prompt: Replace the assistant's base system prompt.
        plugins: toolplay plugin modules to load besides the installed ones.
    """
    return plan_task(
        build_plan(
            "sandbox",
            augment=augmentation,
            category=category,
            limit=limit,
            user=user,
            settings=_settings(system_prompt, None),
            plugins=plugins,
        )
    )


@task
def tooltalk(
    data: str,
    mode: str = "static",
    limit: int | None = None,
    user: str = "scripted",
    system_prompt: str | None = None,
    max_calls_per_turn: int | None = None,
) -> Task:
    """ToolTalk's static evaluation (Algorithm 1) of a ToolTalk data folder.

    Args:
        data: The ToolTalk data folder (`databases/` and one folder per split).
        mode: `static` (ToolTalk's) or `dynamic` (the conversations as user scripts).
        limit: Only the first N conversations.
        user: The user of `dynamic` mode (see `sandbox`).
        system_prompt: Replace the assistant's base system prompt.
        max_calls_per_turn: Tool calls allowed per static turn.
    """
    return plan_task(
        build_plan(
            f"tooltalk:{data}",
            mode=mode,
            limit=limit,
            user=user,
            settings=_settings(system_prompt, max_calls_per_turn),
        )
    )


@task
def autode(
    mode: str = "dynamic",
    scripts: str | None = None,
    category: Names = None,
    limit: int | None = None,
    user: str = "scripted",
    system_prompt: str | None = None,
    max_calls_per_turn: int | None = None,
    plugins: Names = None,
) -> Task:
    """AutoDE's user scripts, scored by slot precision, recall and F1.

    Args:
        mode: `dynamic` or `static` (AutoDE's), or another mode the suite or a plugin names.
        scripts: A file or folder of user scripts (default: the built-in `autode` suite).
        category: Only scripts of these categories.
        limit: Only the first N scripts.
        user: `scripted`, a toolplay user kind, or `model` (Inspect's `user` model role).
        system_prompt: Replace the assistant's base system prompt.
        max_calls_per_turn: Tool calls allowed in the static mode's turn.
        plugins: toolplay plugin modules to load besides the installed ones.
    """
    return plan_task(
        build_plan(
            f"autode:{scripts}" if scripts else "autode",
            mode=mode,
            category=category,
            limit=limit,
            user=user,
            settings=_settings(system_prompt, max_calls_per_turn),
            plugins=plugins,
        )
    )


@task
def suite(
    suite: str,
    mode: str | None = None,
    augmentation: Names = None,
    category: Names = None,
    limit: int | None = None,
    user: str = "scripted",
    system_prompt: str | None = None,
    max_calls_per_turn: int | None = None,
    plugins: Names = None,
) -> Task:
    """Any suite toolplay can run (`--suite` of `toolplay run`), in any mode.

    Args:
        suite: A suite name, `NAME:ARGUMENT` (e.g. `tooltalk:DIR`) or a scenario folder.
        mode: The mode (default: the suite's).
        augmentation: Augmentation settings to select or apply (as `toolplay run --augment`).
        category: Only scenarios of these categories.
        limit: Only the first N scenarios chosen.
        user: `scripted`, a toolplay user kind, or `model` (Inspect's `user` model role).
        system_prompt: Replace the assistant's base system prompt.
        max_calls_per_turn: Tool calls allowed per static turn.
        plugins: toolplay plugin modules to load besides the installed ones.
    """
    return plan_task(
        build_plan(
            suite,
            mode=mode,
            augment=augmentation,
            category=category,
            limit=limit,
            user=user,
            settings=_settings(system_prompt, max_calls_per_turn),
            plugins=plugins,
        )
    )
