"""ToolTalk scoring of on-policy (dynamic) conversations that diverge from the recording.

Predictions are all the assistant's calls of the conversation, ground truth all recorded calls,
matched with the same rules as static mode. Every case is checked twice: against counts derived
by hand, and against `reference_counts`, a transcription of the reference evaluator's loop
(microsoft/ToolTalk `ToolExecutor.evaluate_predictions`: a deque of unmatched ground truth, the
first one a prediction matches is removed; an unmatched successful action is a bad action) run
on predictions read from the message list here, with the session token followed the way the
reference's executor does (login and registration set it, logout and account deletion clear
it). The per-tool rule itself (`calls_match`) is tested in `test_compare.py`.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import support
from support import play_dynamic, registry_for, score_tooltalk
from toolplay.domains.tooltalk import DOMAIN_NAMES
from toolplay.messages import (
    Message,
    ToolCall,
    Trajectory,
)
from toolplay.methods.tooltalk import Call, calls_match
from toolplay.roles import AssistantContext, AssistantTurn, ScriptedUser
from toolplay.scenarios import ReferenceCall, ReferenceTurn, Scenario, Suite, WorldSpec
from toolplay.scoring import ScenarioScore, ScoringContext

TOKEN = "tok-A"
ACTIONS = {name for name, spec in registry_for(DOMAIN_NAMES).tools.items() if spec.kind == "action"}


def exact_texts(a: Sequence[str], b: Sequence[str]) -> list[float]:
    return [1.0 if x == y else 0.0 for x, y in zip(a, b, strict=True)]


def exact(a: str, b: str) -> float:
    return 1.0 if a == b else 0.0


CONTEXT = ScoringContext(similarity_factory=lambda: exact_texts)

LOGIN = ReferenceCall(
    name="UserLogin",
    arguments={"username": "alice", "password": "pw"},
    result={"session_token": TOKEN},
)
ALARM = ReferenceCall(name="AddAlarm", arguments={"time": "07:00:00"}, result={"alarm_id": "a-1"})
REMIND = ReferenceCall(
    name="AddReminder",
    arguments={"task": "buy milk", "due_date": "2023-09-12 00:00:00"},
    result={"reminder_id": "r-1"},
)
FIND = ReferenceCall(
    name="FindAlarms", arguments={}, result={"alarms": [{"alarm_id": "a-1", "time": "07:00:00"}]}
)
UTTERANCES = (
    "I'm alice, password pw.",
    "Wake me at 7 and remind me to buy milk tomorrow.",
    "Which alarms do I have?",
    "Thanks, that's all.",
)


def scenario(
    turns: Sequence[Sequence[ReferenceCall]] = ((LOGIN,), (ALARM, REMIND), (FIND,), ()),
) -> Scenario:
    """By default: logged out; login, then an alarm and a reminder, then a read, goodbye."""
    return Scenario(
        id="hand",
        world=WorldSpec(
            domains=list(DOMAIN_NAMES),
            clock=datetime(2023, 9, 11, 9, 0, tzinfo=UTC),
            session={"session_token": None, "username": None},
        ),
        evaluation="tooltalk",
        split="hand",
        reference=[
            ReferenceTurn(user=text, calls=list(calls), reply="ok")
            for text, calls in zip(UTTERANCES, turns, strict=False)
        ],
    )


class Talk:
    """Builds a dynamic trajectory message by message (results given, nothing executed)."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self._post("system", "assistant", content="prompt")

    def _post(self, sender: Any, recipient: Any, **fields: Any) -> None:
        self.messages.append(
            Message(index=len(self.messages), sender=sender, recipient=recipient, **fields)
        )

    def user(self, text: str) -> Talk:
        self._post("user", "assistant", content=text)
        return self

    def say(self, text: str = "ok") -> Talk:
        self._post("assistant", "user", content=text)
        return self

    def call(self, ref: ReferenceCall, error: str | None = None, **override: Any) -> Talk:
        """The assistant calls `ref`'s tool (arguments overridable); its result comes back."""
        arguments = {**ref.arguments, **override}
        call_id = f"c{len(self.messages)}"
        self._post(
            "assistant",
            "environment",
            tool_calls=(ToolCall.from_args(call_id, ref.name, arguments),),
        )
        result = None if error is not None else ref.result
        self._post(
            "environment",
            "assistant",
            tool_call_id=call_id,
            tool_name=ref.name,
            result=result,
            error=error,
            error_type="tool_error" if error else None,
        )
        return self

    def trajectory(self) -> Trajectory:
        return Trajectory(scenario_id="hand", messages=self.messages, mode="dynamic")


def read_predictions(trajectory: Trajectory) -> list[tuple[Call, bool]]:
    """(call, is action) of every assistant call, in order, with the reference's session."""
    results = {m.tool_call_id: m for m in trajectory.messages if m.is_tool_result}
    token: str | None = None
    found: list[tuple[Call, bool]] = []
    for message in trajectory.messages:
        if message.sender != "assistant" or message.from_reference:
            continue
        for call in message.tool_calls:
            answer = results[call.id]
            found.append(
                (
                    Call(call.name, json.loads(call.arguments), answer.result, answer.error, token),
                    call.name in ACTIONS,
                )
            )
            if answer.error is None and call.name in ("UserLogin", "RegisterUser"):
                token = answer.result["session_token"]
            elif answer.error is None and call.name in ("LogoutUser", "DeleteAccount"):
                token = None
    return found


def reference_counts(scenario: Scenario, trajectory: Trajectory) -> dict[str, int]:
    """The reference evaluator's counting loop over this conversation's calls."""
    token: str | None = scenario.world.session.get("session_token")
    truths: list[Call] = []
    for turn in scenario.reference:
        for ref in turn.calls:
            truths.append(Call(ref.name, ref.arguments, ref.result, ref.exception, token))
            if ref.exception is None and ref.name in ("UserLogin", "RegisterUser"):
                token = ref.result["session_token"]
    remaining = deque(truths)
    matches = actions = bad = 0
    predicted = read_predictions(trajectory)
    for prediction, action in predicted:
        kept: deque[Call] = deque()
        is_match = False
        while remaining:
            truth = remaining.popleft()
            if calls_match(prediction, truth, exact):
                is_match = True
                break
            kept.append(truth)
        kept.extend(remaining)
        remaining = kept
        matches += is_match
        actions += action
        bad += not is_match and action and prediction.error is None
    return {
        "predictions": len(predicted),
        "ground_truth": len(truths),
        "matches": matches,
        "actions": actions,
        "incorrect_actions": bad,
        "successes": int(matches == len(truths) and bad == 0),
    }


def scored(talk: Talk, target: Scenario | None = None) -> ScenarioScore:
    target = target or scenario()
    result = score_tooltalk(target, talk.trajectory(), CONTEXT)
    assert support.details(result)["counts"] == reference_counts(target, talk.trajectory())
    return result


def counts(p: int, m: int, a: int, bad: int = 0, gt: int = 4) -> dict[str, int]:
    success = int(m == gt and bad == 0)
    return {
        "predictions": p,
        "ground_truth": gt,
        "matches": m,
        "actions": a,
        "incorrect_actions": bad,
        "successes": success,
    }


def test_the_recorded_conversation_scores_perfectly() -> None:
    talk = Talk().user(UTTERANCES[0]).call(LOGIN).say().user(UTTERANCES[1])
    talk.call(ALARM).call(REMIND).say().user(UTTERANCES[2]).call(FIND).say()
    result = scored(talk.user(UTTERANCES[3]).say())
    assert result.score == 1.0 and support.details(result)["counts"] == counts(4, 4, 3)


def test_a_clarifying_question_first_shifts_turns_not_counts() -> None:
    """The assistant asks before acting; the scripted user moves on; it catches up later."""
    talk = Talk().user(UTTERANCES[0]).say("Do you want me to log you in?")
    talk.user(UTTERANCES[1]).call(LOGIN).call(ALARM).call(REMIND).say()
    talk.user(UTTERANCES[2]).call(FIND).say().user(UTTERANCES[3]).say()
    result = scored(talk)
    assert result.score == 1.0 and support.details(result)["counts"] == counts(4, 4, 3)
    assert [p["turn"] for p in support.details(result)["predictions"]] == [1, 1, 1, 2]


def test_calls_in_another_order_still_match() -> None:
    talk = Talk().user(UTTERANCES[0]).call(LOGIN).say().user(UTTERANCES[1])
    talk.call(REMIND).call(ALARM).call(FIND).say().user(UTTERANCES[2]).say()
    result = scored(talk.user(UTTERANCES[3]).say())
    assert result.score == 1.0 and support.details(result)["counts"] == counts(4, 4, 3)


def test_an_extra_failing_call_costs_precision_not_success() -> None:
    talk = Talk().user(UTTERANCES[0]).call(LOGIN).say().user(UTTERANCES[1])
    talk.call(ALARM, error="Alarm nope not found", time="25:00:00")
    talk.call(ALARM).call(REMIND).say().user(UTTERANCES[2]).call(FIND).say()
    result = scored(talk.user(UTTERANCES[3]).say())
    assert result.score == 1.0 and support.details(result)["counts"] == counts(5, 4, 4)
    assert support.details(result)["precision"] == 0.8


def test_an_extra_successful_action_and_a_missed_read_fail() -> None:
    talk = Talk().user(UTTERANCES[0]).call(LOGIN).say().user(UTTERANCES[1])
    talk.call(ALARM).call(REMIND).say().user(UTTERANCES[2]).say("You have some alarms.")
    talk.user(UTTERANCES[3]).call(ALARM, time="08:00:00").say()
    result = scored(talk)
    assert result.score == 0.0 and support.details(result)["counts"] == counts(4, 3, 4, bad=1)
    # the scripted user said the recorded utterances: error types per reference turn
    assert support.details(result)["error_types"] == [
        {"turn": 2, "error_type": "faulty_planning", "count": 1},
        {"turn": 3, "error_type": "premature_call", "count": 1},
    ]


def test_with_a_model_driven_user_error_types_are_conversation_wide() -> None:
    talk = Talk().user(UTTERANCES[0]).call(LOGIN).say().user("Set an alarm for 7, and milk.")
    talk.call(ALARM).call(REMIND).say().user("What alarms are set?").say("Some.")
    talk.user("Great, bye.").call(ALARM, time="08:00:00").say()
    result = scored(talk)
    assert support.details(result)["counts"] == counts(4, 3, 4, bad=1)
    assert support.details(result)["error_types"] == [
        {"turn": None, "error_type": "faulty_planning", "count": 1}
    ]


def test_a_new_session_breaks_every_later_match() -> None:
    logout = ReferenceCall(name="LogoutUser", arguments={}, result={"status": "success"})
    again = ReferenceCall(
        name="UserLogin", arguments=LOGIN.arguments, result={"session_token": "tok-B"}
    )
    talk = Talk().user(UTTERANCES[0]).call(LOGIN).call(logout).call(again).say()
    talk.user(UTTERANCES[1]).call(ALARM).call(REMIND).say().user(UTTERANCES[2]).call(FIND)
    result = scored(talk.say().user(UTTERANCES[3]).say())
    # only the first login matches: the rest ran under tok-B, the ground truth under tok-A
    assert support.details(result)["counts"] == counts(6, 1, 5, bad=4)


def test_matching_is_greedy_in_the_references_order() -> None:
    """A read that fits both recorded reads takes the first; the next read then finds none
    left that it fits, although a better pairing exists (as in the reference)."""
    early = ReferenceCall(name="FindAlarms", arguments={}, result={"alarms": [{"alarm_id": "a-0"}]})
    both = {"alarms": [{"alarm_id": "a-0"}, {"alarm_id": "a-1"}]}
    late = ReferenceCall(name="FindAlarms", arguments={}, result=both)
    target = scenario([[early], [ALARM, late]])
    target.world.session.update(session_token=None)
    talk = Talk().user(UTTERANCES[0]).call(ALARM).call(late)
    talk.call(ReferenceCall(name="DeleteAlarm", arguments={"alarm_id": "a-1"}, result={}))
    result = scored(talk.call(early).say(), target)
    # AddAlarm matches; the first read matches `early`; the delete and the second read
    # (which only fits `early`, taken) match nothing
    assert support.details(result)["counts"] == counts(4, 2, 2, bad=1, gt=3)


def test_summary_has_the_static_structure() -> None:
    good = Talk().user(UTTERANCES[0]).call(LOGIN).say().user(UTTERANCES[1]).call(ALARM)
    records = [(scenario(), scored(good.call(REMIND).say()))]
    summary = support.summarise(records)
    assert set(summary) == {"metrics", "sections"}
    assert set(summary["sections"]["tooltalk"]) == {"counts", "error_types", "splits"}
    assert set(summary["sections"]["tooltalk"]["splits"]) == {"hand"}
    assert set(summary["sections"]["tooltalk"]["splits"]["hand"]) == {
        "counts",
        "metrics",
        "error_types",
    }
    assert summary["sections"]["tooltalk"]["splits"]["hand"]["counts"]["matches"] == 3


# --- random divergent conversations ---------------------------------------------------------

EXTRA = [
    (ALARM, "not found", {"time": "25:00:00"}),  # a failed action
    (ALARM, None, {"time": "08:00:00"}),  # a wrong successful action
    (FIND, None, {}),  # a repeated read
    (REMIND, None, {"task": "sell milk"}),  # a wrong text
]


@settings(max_examples=150, deadline=None)
@given(
    order=st.permutations([LOGIN, ALARM, REMIND, FIND]),
    keep=st.lists(st.booleans(), min_size=4, max_size=4),
    extras=st.lists(st.tuples(st.integers(0, 5), st.sampled_from(EXTRA)), max_size=3),
    breaks=st.lists(st.integers(0, 8), max_size=3),
    scripted=st.booleans(),
)
def test_random_divergence_gives_the_reference_counts(
    order: list[ReferenceCall],
    keep: list[bool],
    extras: list[tuple[int, tuple[ReferenceCall, str | None, dict[str, Any]]]],
    breaks: list[int],
    scripted: bool,
) -> None:
    """Any order, omissions, extra calls and user turns: the reference's counts, and the
    counts do not depend on where the user's messages fall."""
    steps: list[tuple[ReferenceCall, str | None, dict[str, Any]]] = [
        (ref, None, {}) for ref, k in zip(order, keep, strict=True) if k
    ]
    for position, extra in sorted(extras, key=lambda e: e[0], reverse=True):
        steps.insert(min(position, len(steps)), extra)
    lines = list(UTTERANCES) if scripted else [f"paraphrase {n}" for n in range(4)]

    def build(cuts: Sequence[int]) -> Trajectory:
        talk = Talk().user(lines[0])
        said = 1
        for n, (ref, error, override) in enumerate(steps):
            if n in cuts and said < len(lines):
                talk.say("Anything else?").user(lines[said])
                said += 1
            talk.call(ref, error, **override)
        return talk.say().trajectory()

    trajectory = build(breaks)
    result = score_tooltalk(scenario(), trajectory, CONTEXT)
    assert support.details(result)["counts"] == reference_counts(scenario(), trajectory)
    assert (
        support.details(result)["counts"]
        == support.details(score_tooltalk(scenario(), build([]), CONTEXT))["counts"]
    )
    assert result.score == float(support.details(result)["success"])


# --- played on the official data with the real tools ---------------------------------------

FIND_ALARM = "tooltalk.AccountTools-Alarm-Messages-FindAlarm-0"


class Divergent:
    """Plays the reference with a twist, on-policy (the scripted user says the recording)."""

    sees_reference = True

    def __init__(self, twist: str) -> None:
        self.name = f"divergent-{twist}"
        self.twist = twist

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        turn = sum(1 for m in context.messages if m.sender == "user" and m.content) - 1
        assert context.reference is not None
        reference = context.reference.scenario.reference
        last = turn == len(reference) - 1
        upto = turn if self.twist != "ask_first" or last else turn - 1
        due = [c for t in range(upto + 1) for c in self._order(reference[t].calls)]
        done = [c for m in context.messages for c in m.tool_calls if not c.id.startswith("x")]
        tried = {c.id for m in context.messages for c in m.tool_calls}
        if self.twist == "fumble" and len(done) < len(due) and f"x{turn}" not in tried:
            return AssistantTurn(
                tool_calls=(ToolCall.from_args(f"x{turn}", "DeleteAlarm", {"alarm_id": "no"}),)
            )
        if len(done) < len(due):
            ref = due[len(done)]
            call = ToolCall.from_args(f"c{len(tried)}", ref.name, ref.arguments)
            return AssistantTurn(tool_calls=(call,))
        return AssistantTurn(content="Could you tell me more?" if upto < turn else "Done.")

    def _order(self, calls: Sequence[ReferenceCall]) -> list[ReferenceCall]:
        return list(reversed(calls)) if self.twist == "reverse" else list(calls)


def play(suite: Suite, twist: str) -> ScenarioScore:
    target = next(s for s in suite.scenarios if s.id == FIND_ALARM)
    trajectory = asyncio.run(play_dynamic(target, Divergent(twist), ScriptedUser()))
    assert trajectory.termination == "script_exhausted"
    result = score_tooltalk(target, trajectory, CONTEXT)
    assert support.details(result)["counts"] == reference_counts(target, trajectory)
    return result


def test_real_conversation_asked_first_then_caught_up(tooltalk_suite: Suite) -> None:
    result = play(tooltalk_suite, "ask_first")
    assert result.score == 1.0
    assert support.details(result)["counts"] == counts(7, 7, 6, gt=7)
    # every call came one user message late: login and alarm at 2, the read at 3, the rest at 4
    assert [p["turn"] for p in support.details(result)["predictions"]] == [2, 2, 3, 4, 4, 4, 4]


def test_real_conversation_with_failing_extra_calls(tooltalk_suite: Suite) -> None:
    result = play(tooltalk_suite, "fumble")
    assert result.score == 1.0
    # one failed DeleteAlarm before each of the three turns with calls (the first one
    # fails as nobody is logged in yet, the others as the id does not exist)
    assert support.details(result)["counts"] == counts(10, 7, 9, gt=7)
    predictions = support.details(result)["predictions"]
    errors = [p["error"] for p in predictions if p["tool"] == "DeleteAlarm"]
    assert errors[0] is not None and sum(e is not None for e in errors) == 3


def test_real_conversation_in_reverse_order_fails_on_policy(tooltalk_suite: Suite) -> None:
    result = play(tooltalk_suite, "reverse")
    # the alarm is set before logging in and fails; so the world differs from the recording:
    # the read no longer lists the new alarm (no match), the deletions still match
    assert result.score == 0.0
    assert support.details(result)["counts"] == counts(7, 5, 6, gt=7)
    first = support.details(result)["predictions"][0]
    assert first["tool"] == "AddAlarm" and first["error"] is not None
