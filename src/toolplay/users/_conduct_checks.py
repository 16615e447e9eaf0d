"""The checks on how a simulated user behaves: ending early, speaking as the assistant, looping.

- `premature_end`: the user ends the conversation (`end_conversation`) while the assistant's
  last message asks it something (a question that is not a closing "anything else?", or a
  request to provide or confirm something), or promises an action it has not reported yet
  ("let me check", "one moment").
- `role_confusion`: a message written as the assistant would write it: offering help ("how
  can I help you?"), calling itself an AI, chatbot or assistant, refusing service ("I'm unable
  to assist"), reporting actions done for the user ("your reminder has been set"), or
  tool-call-like text (`send_message(...)`, `{"name": ..., "arguments": ...}`).
- `loop`: an empty message; a message that repeats an earlier one of the user's (near word for
  word, or a short message said again in an exchange that repeats exactly); the evidence of the
  last repetition says when the conversation then hit its turn limit.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from toolplay.messages import Message, Trajectory
from toolplay.users._briefing import UserBriefing, model_messages, user_messages
from toolplay.users._findings import UserError

_CLOSING = re.compile(
    r"anything else|something else|other (questions|requests|tasks)|further (help|assistance|"
    r"questions)|help (you )?with anything|need anything|more (help|questions)",
    re.I,
)
_ASKS = re.compile(
    r"\b(please|kindly) (provide|tell|give|confirm|specify|share|let me know)|"
    r"\b(could|can|would) you (please )?(provide|tell|give|confirm|specify|share|clarify)|"
    r"\blet me know (the|what|which|who|when|where|how|if)\b|"
    r"\bi need (the|your|to know|you to)\b",
    re.I,
)
_PROMISE = re.compile(
    r"\b(let me (check|look|see|find|search|try)|one (moment|second|sec)|give me a "
    r"(moment|second|sec)|hold on|i('ll| will) (now )?(check|look|search|find|do|get|send|"
    r"add|set|update|remove|turn)|working on it|on it\b)",
    re.I,
)


def _last_sentence_asks(text: str) -> bool:
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]
    questions = [s for s in sentences if s.rstrip().endswith("?")]
    return any(not _CLOSING.search(q) for q in questions)


def _why_not_done(text: str) -> str | None:
    """Why an assistant message still waits on the user (None: it does not)."""
    if _last_sentence_asks(text):
        return "asks it a question"
    if _ASKS.search(text) and not _CLOSING.search(text):
        return "asks it for something"
    if _PROMISE.search(text):
        return "announces an action it has not reported yet"
    return None


def premature_end(trajectory: Trajectory, briefing: UserBriefing) -> list[UserError]:
    """The user ends while the assistant waits on it (module docstring)."""
    if trajectory.termination != "user_ended":
        return []
    ends = [m for m in trajectory.messages if m.sender == "user" and m.recipient == "environment"]
    replies = [m for m in trajectory.messages if m.sender == "assistant" and m.content]
    if not ends or not replies:
        return []
    last = replies[-1]
    why = _why_not_done(last.content or "")
    if why is None:
        return []
    quoted = (last.content or "").strip().replace("\n", " ")
    return [
        UserError(
            kind="premature_end",
            message_index=ends[-1].index,
            evidence=f"ends the conversation while the assistant's last message (#{last.index}) "
            f"{why}: {quoted[:160]!r}",
        )
    ]


_ROLE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "offers help as an assistant would",
        re.compile(
            r"\b(how|what) (can|may|could) i (help|assist|do for) you\b|"
            r"\bis there anything (else )?(that )?i can (help|assist|do)\b|"
            r"\b(happy|glad) to (help|assist) you\b|\bfeel free to ask\b|"
            r"\bi can help you with\b|\blet me know if you need (any|more) (help|assistance)\b",
            re.I,
        ),
    ),
    (
        "calls itself an AI, chatbot or assistant",
        re.compile(
            r"\b(i am|i'm|im)\s+(just\s+|only\s+|not\s+)?(an?|your)\s+(ai|artificial "
            r"intelligence|(ai |virtual |digital )?assistant|(large )?language model|chat ?bot|"
            r"bot)\b|\bas an (ai|assistant|language model)\b",
            re.I,
        ),
    ),
    (
        "refuses service as an assistant would",
        re.compile(
            r"\b(unable|not able|not capable) (to|of) (assist|help|provid|perform|complet)\w*|"
            r"\b(can't|cannot|can not) (assist|provide (any|other) (help|services))\b",
            re.I,
        ),
    ),
    (
        "reports actions done for the user",
        re.compile(
            r"\byour \w+( \w+)? (has|have) (been )?(successfully )?(added|sent|set|created|"
            r"updated|removed|deleted|scheduled|changed|modified|turned (on|off)|enabled|"
            r"disabled|saved)\b|\bi('ve| have) (successfully |now |just )?(added|sent|set|"
            r"created|updated|removed|deleted|scheduled|changed|modified|turned|enabled|"
            r"disabled|saved)\b[^.!?]*\b(for you|your)\b",
            re.I,
        ),
    ),
    (
        "writes a tool call",
        re.compile(
            r"\b[a-z]+(_[a-z]+)+\s*\([^)]*\)|\"(name|arguments|tool_calls|function)\"\s*:|"
            r"</?(func|tool_call|function)>",
            re.I,
        ),
    ),
)


def role_confusion(trajectory: Trajectory, briefing: UserBriefing) -> list[UserError]:
    """Messages the user writes as the assistant would (module docstring)."""
    errors: list[UserError] = []
    for message in model_messages(trajectory, briefing):
        text = message.content or ""
        hits = [(why, m.group(0)) for why, p in _ROLE_PATTERNS if (m := p.search(text))]
        if hits:
            errors.append(
                UserError(
                    kind="role_confusion",
                    message_index=message.index,
                    evidence="writes as the assistant: "
                    + "; ".join(f"{why} ({said!r})" for why, said in hits),
                    values=[said for _, said in hits],
                )
            )
    return errors


REPEAT_RATIO = 0.85
"""Similarity (difflib ratio of the normalised texts) from which a message repeats another."""

SHORT_WORDS = 3
"""Messages of fewer words repeat another only in an exchange that repeats exactly."""


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def _before(trajectory: Trajectory, message: Message) -> str | None:
    """The assistant's last text before `message`."""
    for m in reversed(trajectory.messages[: message.index]):
        if m.sender == "assistant" and m.content:
            return m.content
    return None


def _repeats(trajectory: Trajectory, message: Message, earlier: list[Message]) -> Message | None:
    text = _norm(message.content or "")
    for previous in reversed(earlier):
        other = _norm(previous.content or "")
        if len(text.split()) >= SHORT_WORDS:
            if SequenceMatcher(None, text, other).ratio() >= REPEAT_RATIO:
                return previous
        elif text and text == other and previous is earlier[-1]:
            asked = _before(trajectory, message)
            if asked is not None and asked == _before(trajectory, previous):
                return previous
    return None


def loop(trajectory: Trajectory, briefing: UserBriefing) -> list[UserError]:
    """Empty and repeated user messages (module docstring)."""
    errors: list[UserError] = []
    said = user_messages(trajectory)
    written = {m.index for m in model_messages(trajectory, briefing)}
    for position, message in enumerate(said):
        if message.index not in written:
            continue
        if not (message.content or "").strip():
            errors.append(
                UserError(kind="loop", message_index=message.index, evidence="empty message")
            )
            continue
        previous = _repeats(trajectory, message, said[:position])
        if previous is not None:
            evidence = f"repeats its message #{previous.index}"
            if trajectory.termination == "turn_limit" and message is said[-1]:
                evidence += "; the conversation then hit its turn limit"
            errors.append(
                UserError(
                    kind="loop",
                    message_index=message.index,
                    evidence=evidence,
                    values=[(message.content or "")[:80]],
                )
            )
    return errors
