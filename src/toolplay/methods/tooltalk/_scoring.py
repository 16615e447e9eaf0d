"""ToolTalk scoring (Algorithm 2): conversation-wide greedy call matching and its metrics.

Every predicted call of the conversation (in the order it ran) is matched against the
ground-truth calls not matched yet, in their order; the first one the tool's rule accepts
(`_tooltalk_compare`) is taken. A predicted call to an action tool that matches nothing and ran
without error is an incorrect action; a failed action call is not. The conversation succeeds
when every ground-truth call is matched and no action was incorrect.

Free-text arguments are compared with the context's text similarity; every text pair the
matching may need is collected first and embedded in one batch. Failing conversations get
ToolTalk's error type per turn: premature call, faulty planning, incorrect invocation.

Works on static trajectories (predictions are the messages not replayed from the reference,
each tagged with its turn) and on dynamic ones, where the predictions are all the assistant's
calls of the on-policy conversation and the ground truth is every recorded call: the counts and
the success do not depend on turns. Turns only place error types. In dynamic play a call
belongs to the user message it answers; when the user said the reference's utterances in order
(the scripted user) that message is a reference turn and error types are found per turn as in
static mode; otherwise (a model-driven user) the conversation has no turn-by-turn counterpart
in the reference, so its error type is found over the whole conversation (`turn` null).
In both modes a conversation's `score` is its success (1.0 or 0.0), so static and dynamic
runs of the same data compare like with like; `details.soft_success` is the graded version.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolplay.domains.tooltalk import AUTH_TOOLS
from toolplay.messages import Message, ToolCall, Trajectory
from toolplay.methods.tooltalk._call_rules import Call, Similarity, calls_match, next_session_token
from toolplay.methods.tooltalk._evidence import (
    ErrorTypeCount,
    GroundTruthCall,
    PredictedCall,
    TextSimilarity,
    ToolTalkCounts,
    ToolTalkEvidence,
)
from toolplay.methods.tooltalk._texts import SESSION_ARGUMENT
from toolplay.scenarios import ReferenceCall, Scenario, ScenarioSetup
from toolplay.scoring import ScenarioScore, ScoringContext
from toolplay.tools import Registry

UNANSWERED = "the call got no result (the conversation stopped first)"


@dataclass(frozen=True)
class Prediction:
    """A predicted call with where it happened."""

    turn: int
    call: Call
    action: bool
    message_index: int


@dataclass(frozen=True)
class Truth:
    """A ground-truth call with its turn."""

    turn: int
    call: Call


def ground_truth(scenario: Scenario) -> tuple[list[Truth], list[str | None]]:
    """The reference calls (with the session token each ran under) and each turn's start token."""
    token = scenario.world.session.get("session_token")
    truths: list[Truth] = []
    starts: list[str | None] = []
    for t, turn in enumerate(scenario.reference):
        starts.append(token)
        for ref in turn.calls:
            truths.append(Truth(t, Call(ref.name, ref.arguments, ref.result, ref.exception, token)))
            token = next_session_token(token, ref.name, ref.result, ref.exception)
    return truths, starts


def predictions(
    scenario: Scenario,
    registry: Registry,
    trajectory: Trajectory,
    turn_starts: Sequence[str | None],
) -> list[Prediction]:
    """The assistant's own calls in the order they ran, with their outcome and session token.

    In static mode each turn starts from the reference's session; in dynamic mode the session
    runs on from the assistant's own calls.
    """
    aligned = user_turns(scenario, trajectory) if trajectory.mode == "dynamic" else None
    initial = scenario.world.session.get("session_token")
    token: str | None = initial
    current_turn: int | None = None
    found: list[Prediction] = []
    for said, call, answer in _executed(trajectory):
        turn = aligned[said] if aligned is not None and 0 <= said < len(aligned) else said
        if trajectory.mode == "static" and turn != current_turn:
            token = turn_starts[turn] if 0 <= turn < len(turn_starts) else initial
        current_turn = turn
        name = (answer.tool_name if answer else None) or trajectory.real_tool_name(call.name)
        result = answer.result if answer else None
        error = answer.error if answer else UNANSWERED
        spec = registry.tools.get(name)
        found.append(
            Prediction(
                turn,
                Call(name, _predicted_arguments(name, call), result, error, token),
                spec is not None and spec.kind == "action",
                answer.index if answer else -1,
            )
        )
        token = next_session_token(token, name, result, error)
    return found


def _predicted_arguments(name: str, call: ToolCall) -> dict[str, Any] | None:
    """A prediction's arguments as the comparison sees them.

    A model shown the reference's requests sees `session_token` in every earlier call of a
    tool that needs a login, and may send one; the reference's executor overwrote it with the
    token in force before the call ran (and the comparison saw that), so it is dropped here:
    the token in force is compared on its own (`Call.session_token`). Sent to any other tool
    it made the call fail, which is what the comparison sees.
    """
    arguments = call.parsed_arguments()
    if arguments is not None and name in AUTH_TOOLS and SESSION_ARGUMENT in arguments:
        return {key: value for key, value in arguments.items() if key != SESSION_ARGUMENT}
    return arguments


def user_turns(scenario: Scenario, trajectory: Trajectory) -> list[int] | None:
    """Dynamic play: the reference turn of each user message, or None when they do not align.

    They align when the user's messages so far are the reference's utterances in order (what
    the scripted user says); user message `k` is then the reference turn of utterance `k`.
    """
    turns = [t for t, turn in enumerate(scenario.reference) if turn.user is not None]
    said = [m.content for m in trajectory.messages if m.sender == "user" and m.content is not None]
    if said != [scenario.reference[t].user for t in turns[: len(said)]]:
        return None
    return turns


def _executed(trajectory: Trajectory) -> list[tuple[int, ToolCall, Message | None]]:
    """(turn, call, result message) for each predicted call, in execution order.

    A result answers the first unanswered call of the latest assistant message with its id
    (so two parallel calls sharing an id are both kept); a call left without a result still
    counts, as a failed prediction.
    """
    out: list[tuple[int, ToolCall, Message | None]] = []
    pending: list[tuple[int, ToolCall]] = []
    users = 0
    for message in trajectory.messages:
        if message.sender == "user" and message.content is not None:
            users += 1
        if message.from_reference:
            continue
        turn = message.turn if message.turn is not None else max(users - 1, 0)
        if message.sender == "assistant" and message.tool_calls:
            out += [(t, c, None) for t, c in pending]
            pending = [(turn, c) for c in message.tool_calls]
        elif message.is_tool_result:
            position = next(
                (i for i, (_, c) in enumerate(pending) if c.id == message.tool_call_id), None
            )
            if position is not None:
                t, call = pending.pop(position)
                out.append((t, call, message))
    out += [(t, c, None) for t, c in pending]
    return out


def score_tooltalk(
    setup: ScenarioSetup, trajectory: Trajectory, context: ScoringContext
) -> ScenarioScore:
    """Score one conversation the ToolTalk way (see the module docstring)."""
    scenario = setup.scenario
    truths, starts = ground_truth(scenario)
    predicted = predictions(scenario, setup.registry, trajectory, starts)
    matched_by, similarity = match_calls(predicted, truths, context)
    matched = {p: g for g, p in matched_by.items()}
    incorrect = {
        p
        for p, pr in enumerate(predicted)
        if pr.action and p not in matched and pr.call.error is None
    }
    counts = {
        "predictions": len(predicted),
        "ground_truth": len(truths),
        "matches": len(matched),
        "actions": sum(pr.action for pr in predicted),
        "incorrect_actions": len(incorrect),
    }
    recall = counts["matches"] / counts["ground_truth"] if truths else 1.0
    incorrect_rate = counts["incorrect_actions"] / counts["actions"] if counts["actions"] else 0.0
    success = counts["matches"] == counts["ground_truth"] and not incorrect
    by_turn = trajectory.mode == "static" or user_turns(scenario, trajectory) is not None
    error_types = (
        []
        if success
        else _error_types(scenario, predicted, truths, matched, incorrect, by_turn=by_turn)
    )
    evidence = ToolTalkEvidence(
        counts=ToolTalkCounts(**counts, successes=int(success)),
        precision=counts["matches"] / counts["predictions"] if predicted else None,
        recall=recall,
        incorrect_action_rate=incorrect_rate,
        success=success,
        soft_success=recall * (1.0 - incorrect_rate),
        split=scenario.split,
        error_types=error_types,
        predictions=[
            PredictedCall(
                turn=pr.turn,
                tool=pr.call.name,
                arguments=pr.call.arguments,
                error=pr.call.error,
                action=pr.action,
                matches_ground_truth=matched.get(p),
                incorrect_action=p in incorrect,
                message_index=pr.message_index,
            )
            for p, pr in enumerate(predicted)
        ],
        ground_truth=[
            GroundTruthCall(turn=tr.turn, tool=tr.call.name, matched_by=matched_by.get(g))
            for g, tr in enumerate(truths)
        ],
        similarities=[
            TextSimilarity(prediction=a, ground_truth=b, similarity=s)
            for (a, b), s in sorted(similarity.items())
            if a != b
        ],
        embedding_model=context.embedding_model,
    )
    return ScenarioScore(
        scenario_id=scenario.id,
        trial=trajectory.trial,
        evaluation="tooltalk",
        score=1.0 if success else 0.0,
        evidence=evidence,
    )


def greedy_match(
    predicted: Sequence[Prediction], truths: Sequence[Truth], similarity: Similarity
) -> dict[int, int]:
    """Ground-truth index -> index of the prediction it matched (ToolTalk's greedy order)."""
    matched_by: dict[int, int] = {}
    remaining = list(range(len(truths)))
    for p, prediction in enumerate(predicted):
        for position, g in enumerate(remaining):
            if calls_match(prediction.call, truths[g].call, similarity):
                matched_by[g] = p
                del remaining[position]
                break
    return matched_by


def match_calls(
    predicted: Sequence[Prediction], truths: Sequence[Truth], context: ScoringContext
) -> tuple[dict[int, int], dict[tuple[str, str], float]]:
    """The greedy matching, computing only the text similarities it really needs, in batches.

    The matching is first run with unknown similarities taken as a pass while noting the pairs
    asked; those are embedded together, and the run repeats until it asked nothing unknown.
    The last run used only computed values, so it is the exact greedy matching; identical
    texts never reach the model, so the reference solution itself needs none.
    """
    lookup = _Lookup()
    while True:
        lookup.missing.clear()
        matched_by = greedy_match(predicted, truths, lookup)
        if not lookup.missing:
            return matched_by, lookup.known
        pairs = sorted(lookup.missing)
        values = context.similarity()([a for a, _ in pairs], [b for _, b in pairs])
        lookup.known.update(zip(pairs, values, strict=True))


class _Lookup:
    """Computed similarities; an unknown pair is noted and passes for now."""

    def __init__(self) -> None:
        self.known: dict[tuple[str, str], float] = {}
        self.missing: set[tuple[str, str]] = set()

    def __call__(self, a: str, b: str) -> float:
        if a == b:
            return 1.0
        if (a, b) not in self.known:
            self.missing.add((a, b))
            return 1.0
        return self.known[(a, b)]


def _error_types(
    scenario: Scenario,
    predicted: Sequence[Prediction],
    truths: Sequence[Truth],
    matched: dict[int, int],
    incorrect: set[int],
    *,
    by_turn: bool = True,
) -> list[ErrorTypeCount]:
    """ToolTalk's error type of each failing assistant turn of a failed conversation.

    A turn without ground-truth calls counts one premature call per incorrect action in it.
    Otherwise compare the tools of its unmatched predictions and unmatched ground truth: the
    same tools, none predicted more often than needed, is an incorrect invocation; anything
    else (a tool missing, a wrong or extra tool) is faulty planning. Without `by_turn` the
    whole conversation is judged as one turn (`turn` None).
    """
    matched_truths = set(matched.values())
    turns: list[int | None] = [None]
    if by_turn:
        reference = scenario.reference
        answered = {t for t, turn in enumerate(reference) if turn.reply is not None or turn.calls}
        turns = [*sorted(answered | {pr.turn for pr in predicted})]
    found: list[ErrorTypeCount] = []
    for t in turns:
        mine = [(p, pr) for p, pr in enumerate(predicted) if t is None or pr.turn == t]
        expected = [(g, tr) for g, tr in enumerate(truths) if t is None or tr.turn == t]
        if not expected:
            premature = sum(1 for p, _ in mine if p in incorrect)
            if premature:
                found.append(ErrorTypeCount(turn=t, error_type="premature_call", count=premature))
            continue
        wrong = Counter(pr.call.name for p, pr in mine if p not in matched)
        missed = Counter(tr.call.name for g, tr in expected if g not in matched_truths)
        if not wrong and not missed:
            continue
        if wrong.keys() == missed.keys() and all(missed[n] >= wrong[n] for n in missed):
            kind = "incorrect_invocation"
        else:
            kind = "faulty_planning"
        found.append(ErrorTypeCount(turn=t, error_type=kind, count=1))
    return found


def reproduces_reference(call: ReferenceCall, result: Any, error: str | None) -> bool:
    """Whether replaying a ground-truth call gave its recorded outcome, as ToolTalk judges it.

    The dataset's recorded results are often abridged (a read lists only the records the
    conversation needs; the ids of created records are not always those the tools produce), so
    "reproduces" means: the replayed call matches the recorded one under the tool's rule.
    """
    recorded = Call(call.name, call.arguments, call.result, call.exception)
    replayed = Call(call.name, call.arguments, result, error)
    return calls_match(replayed, recorded, lambda a, b: 1.0 if a == b else 0.0)
