"""The ToolTalk scorer on trajectories played here: session tokens, pairing, dynamic mode."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from datetime import UTC, datetime

import support
from support import play_dynamic, play_static, score_tooltalk
from toolplay.domains.tooltalk import DOMAIN_NAMES
from toolplay.messages import ToolCall
from toolplay.roles import AssistantContext, AssistantTurn, OracleAssistant, ScriptedUser
from toolplay.scenarios import ReferenceCall, ReferenceTurn, Scenario, WorldSpec
from toolplay.scoring import ScenarioScore, ScoringContext


def first_token() -> str:
    generator = random.Random(489)
    return "-".join(f"{generator.randint(0, 16**w - 1):0{w}x}" for w in (8, 4, 4))


def login_scenario() -> Scenario:
    """Logged out; turn 0 logs alice in, turn 1 sets an alarm, turn 2 has no calls."""
    accounts = [
        {
            "username": "alice",
            "password": "pw",
            "session_token": None,
            "email": "a@x.com",
            "phone": "123-456-7890",
            "name": "Alice",
            "verification_code": None,
        }
    ]
    return Scenario(
        id="login",
        world=WorldSpec(
            domains=list(DOMAIN_NAMES),
            tables={"tooltalk_accounts": accounts},
            clock=datetime(2023, 9, 11, 13, 0, tzinfo=UTC),
            session={"session_token": None, "username": None},
        ),
        evaluation="tooltalk",
        reference=[
            ReferenceTurn(
                user="I'm alice, password pw.",
                calls=[
                    ReferenceCall(
                        name="UserLogin",
                        arguments={"username": "alice", "password": "pw"},
                        result={"session_token": first_token()},
                        check=True,
                    )
                ],
                reply="Logged in.",
            ),
            ReferenceTurn(
                user="Wake me at 7.",
                calls=[
                    ReferenceCall(
                        name="AddAlarm",
                        arguments={"time": "07:00:00"},
                        result={"alarm_id": "5bff-dd80"},
                        check=True,
                    )
                ],
                reply="Done.",
            ),
            ReferenceTurn(user="Thanks, that's all.", reply="Bye!"),
        ],
    )


class Policy:
    """A real assistant answering from a table of (turn, step) -> turn."""

    name = "policy"

    def __init__(self, plan: Callable[[int, int], AssistantTurn]) -> None:
        self.plan = plan

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        turn = max((m.turn for m in context.messages if m.turn is not None), default=0)
        step = sum(
            1
            for m in context.messages
            if m.turn == turn and not m.from_reference and m.sender == "assistant"
        )
        return self.plan(turn, step)


def calls(*items: tuple[str, dict[str, object]], same_id: bool = False) -> AssistantTurn:
    return AssistantTurn(
        tool_calls=tuple(
            ToolCall.from_args("x" if same_id else f"p{i}", name, dict(args))
            for i, (name, args) in enumerate(items)
        )
    )


def score(scenario: Scenario, plan: Callable[[int, int], AssistantTurn]) -> ScenarioScore:
    trajectory = asyncio.run(play_static(scenario, Policy(plan)))
    return score_tooltalk(scenario, trajectory, ScoringContext())


def test_calls_after_a_new_login_run_under_another_session() -> None:
    def plan(turn: int, step: int) -> AssistantTurn:
        script = {
            0: [calls(("UserLogin", {"username": "alice", "password": "pw"}))],
            1: [
                calls(("LogoutUser", {})),
                calls(("UserLogin", {"username": "alice", "password": "pw"})),
                calls(("AddAlarm", {"time": "07:00:00"})),
            ],
        }.get(turn, [])
        return script[step] if step < len(script) else AssistantTurn(content="ok")

    result = score(login_scenario(), plan)
    # the second login gets the generator's second token, so the alarm is set under another
    # session than the ground truth's: no match; the logout and re-login match nothing either
    assert support.details(result)["counts"] == {
        "predictions": 4,
        "ground_truth": 2,
        "matches": 1,
        "actions": 4,
        "incorrect_actions": 3,
        "successes": 0,
    }
    assert [p["incorrect_action"] for p in support.details(result)["predictions"]] == [
        False,
        True,
        True,
        True,
    ]


def test_each_static_turn_starts_from_the_reference_session() -> None:
    def plan(turn: int, step: int) -> AssistantTurn:
        script = {
            0: [calls(("LogoutUser", {}))],  # fails: nobody is logged in yet
            1: [calls(("AddAlarm", {"time": "07:00:00"}))],
        }.get(turn, [])
        return script[step] if step < len(script) else AssistantTurn(content="ok")

    result = score(login_scenario(), plan)
    # turn 1 runs logged in (the reference's turn 0 logged in), whatever turn 0 predicted
    assert support.details(result)["counts"]["matches"] == 1
    assert support.details(result)["predictions"][0]["error"] == "User is not logged in"
    assert support.details(result)["counts"]["incorrect_actions"] == 0
    assert support.details(result)["error_types"] == [
        {"turn": 0, "error_type": "faulty_planning", "count": 1}
    ]


def test_parallel_calls_sharing_an_id_are_all_scored() -> None:
    def plan(turn: int, step: int) -> AssistantTurn:
        if turn == 1 and step == 0:
            return calls(
                ("AddAlarm", {"time": "07:00:00"}), ("AddAlarm", {"time": "08:00:00"}), same_id=True
            )
        if turn == 0 and step == 0:
            return calls(("UserLogin", {"username": "alice", "password": "pw"}))
        return AssistantTurn(content="ok")

    result = score(login_scenario(), plan)
    assert support.details(result)["counts"]["predictions"] == 3
    assert support.details(result)["counts"]["incorrect_actions"] == 1
    premature = score(
        login_scenario(),
        lambda t, s: (
            calls(("AddAlarm", {"time": "09:00:00"}))
            if t == 2 and s == 0
            else AssistantTurn(content="ok")
        ),
    )
    assert {"turn": 2, "error_type": "premature_call", "count": 1} in support.details(premature)[
        "error_types"
    ]


def test_dynamic_trajectories_are_scored_by_user_turns() -> None:
    scenario = login_scenario()
    trajectory = asyncio.run(play_dynamic(scenario, OracleAssistant(), ScriptedUser()))
    result = score_tooltalk(scenario, trajectory, ScoringContext())
    assert result.score == 1.0
    assert [p["turn"] for p in support.details(result)["predictions"]] == [0, 1]


def reminders_scenario() -> Scenario:
    """alice logged in; turn 0 lists her reminders, turn 1 asks the weather."""
    scenario = login_scenario()
    world = scenario.world.model_copy(
        update={
            "tables": {
                "tooltalk_accounts": [
                    {**scenario.world.tables["tooltalk_accounts"][0], "session_token": "tok"}
                ]
            },
            "session": {"session_token": "tok", "username": "alice"},
        }
    )
    reference = [
        ReferenceTurn(
            user="My reminders?",
            calls=[ReferenceCall(name="GetReminders", result={"reminders": []}, check=True)],
            reply="None.",
        ),
        ReferenceTurn(user="Thanks.", reply="Bye!"),
    ]
    return scenario.model_copy(update={"id": "reminders", "world": world, "reference": reference})


def test_a_session_token_copied_into_a_call_is_what_the_reference_made_of_it() -> None:
    """Shown the reference's requests, a model copies `session_token` into its calls: the
    reference overwrote it for tools that need a login (so GetReminders, which compares whole
    requests, still matches) and failed the call for the others."""

    def plan(turn: int, step: int) -> AssistantTurn:
        script = {
            0: [
                calls(("CurrentWeather", {"location": "x", "session_token": "tok"})),
                calls(("GetReminders", {"session_token": "copied"})),
            ]
        }.get(turn, [])
        return script[step] if step < len(script) else AssistantTurn(content="ok")

    scenario = reminders_scenario()
    matched = {}
    for presentation in ("tooltalk", "toolplay"):
        trajectory = asyncio.run(
            support.play("static", scenario, Policy(plan), presentation=presentation)
        )
        predictions = support.details(score_tooltalk(scenario, trajectory, ScoringContext()))[
            "predictions"
        ]
        assert predictions[0]["error"] is not None
        assert predictions[1]["arguments"] == {}
        matched[presentation] = [p["matches_ground_truth"] for p in predictions]
    # toolplay's own tools refuse an argument they do not take
    assert matched == {"tooltalk": [None, 0], "toolplay": [None, None]}
