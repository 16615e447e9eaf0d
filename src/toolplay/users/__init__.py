"""Trusting the simulated user: deterministic checks of what a model-driven user says.

A model in the user's seat makes mistakes that are then charged to the assistant under test:
it invents facts, gives away what it was told to withhold, leaves its script, ends too early,
speaks as the assistant, or loops. toolplay knows what the user was given (its goal, knowledge,
script, demonstrations, and what methods register about their scenarios: `UserFacts`), so it
checks each trajectory without a second model. The checks are pure functions registered in the
catalog (`UserCheck`), run wherever a trajectory is scored; their findings (`UserErrors`) are
stored with the score, counted in the run summary, and shown in the report.
"""

from toolplay.users._briefing import (
    UserBriefing,
    UserFacts,
    UserFactsReader,
    UserFactsSource,
    briefing_of,
    model_messages,
    read_facts,
    user_messages,
)
from toolplay.users._builtin import UserChecking, builtin_user_checks, check_user
from toolplay.users._facts_checks import fact_stated, withheld_fact
from toolplay.users._findings import CheckFunction, UserCheck, UserError, UserErrors
from toolplay.users._judge import (
    JUDGE_PROMPT_VERSION,
    JudgedError,
    JudgeVerdict,
    judge_request,
    read_verdict,
)
from toolplay.users._values import Value, name_tokens, same_value, values_in

__all__ = [
    "JUDGE_PROMPT_VERSION",
    "JudgeVerdict",
    "JudgedError",
    "judge_request",
    "read_verdict",
    "CheckFunction",
    "UserBriefing",
    "UserCheck",
    "UserError",
    "UserFacts",
    "UserFactsReader",
    "UserFactsSource",
    "UserChecking",
    "UserErrors",
    "Value",
    "briefing_of",
    "builtin_user_checks",
    "fact_stated",
    "model_messages",
    "name_tokens",
    "read_facts",
    "check_user",
    "same_value",
    "user_messages",
    "values_in",
    "withheld_fact",
]
