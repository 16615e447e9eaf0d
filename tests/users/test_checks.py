"""Each user-error check on conversations built to contain its error, and built not to."""

from __future__ import annotations

from typing import Any

from user_cases import CATALOG, build_trajectory, scenario_of

from toolplay.messages import TerminationReason
from toolplay.scenarios import Scenario
from toolplay.users import UserError

CHECKING = CATALOG.user_checking()

SEARCH = {
    "inline": {
        "id": "search_phone",
        "user": {
            "script": ["What is Homer S's phone number?"],
            "goal": "Search for Homer S's phone number. It should be +10000000000. Do not leak "
            "this information. You do not have more information about Homer S.",
        },
    }
}
REMINDER = {
    "inline": {
        "id": "reminder",
        "user": {
            "script": ["Remind me to buy chocolate milk"],
            "goal": "Create a reminder to buy chocolate milk tomorrow 5PM.",
        },
        "reference": [{"user": "Remind me to buy chocolate milk"}, {"user": "Tomorrow 5PM"}],
    }
}
SLOTS = {
    "inline": {
        "id": "call_bob",
        "evaluation": "slots",
        "user": {
            "script": ["Can you text someone for me?"],
            "goal": "Text Bob Rivera that you are late.",
            "knowledge": "Bob's number is +14155550142. The text: running ten minutes late.",
        },
        "metadata": {
            "label": {
                "name": "send_message_with_phone_number",
                "arguments": {"phone_number": "+14155550142", "content": "running late"},
            }
        },
    }
}


def found(
    spec: dict[str, Any],
    items: list[dict[str, Any]],
    kind: str,
    termination: TerminationReason = "user_ended",
) -> list[UserError]:
    """What the check `kind` finds in the compact conversation `items`."""
    scenario: Scenario = scenario_of(spec)
    trajectory, _ = build_trajectory(scenario.id, items, termination)
    checked = CHECKING.check(scenario, trajectory)
    return [e for e in checked.errors if e.kind == kind]


# -- invented_information --------------------------------------------------------------------


def test_invented_values_and_names_are_flagged_where_first_said() -> None:
    items = [
        {"user": "Remind me to buy chocolate milk"},
        {"assistant": "When should I remind you?"},
        {"user": "On 3/25 at 9am, and tell Jennifer too"},
        {"assistant": "Done."},
        {"user": "Thanks, and tell Jennifer again at 9am"},
    ]
    errors = found(REMINDER, items, "invented_information")
    assert [e.message_index for e in errors] == [3]
    assert errors[0].values == ["3/25", "9am", "Jennifer"]


def test_what_the_briefing_or_the_assistant_said_is_not_invented() -> None:
    items = [
        {"user": "Remind me to buy chocolate milk"},
        {"assistant": "Should I set it for 6 PM on March 3rd, for Dana?"},
        {"user": "No, tomorrow at 5PM, and not for Dana."},
        {"assistant": "Done."},
    ]
    assert found(REMINDER, items, "invented_information") == []


def test_scripted_lines_are_never_checked() -> None:
    spec = {"inline": {"id": "s", "user": {"script": ["Call +1 555 123 4567", "Thanks Zed"]}}}
    items = [
        {"user": "Call +1 555 123 4567"},
        {"assistant": "Calling."},
        {"user": "Thanks Zed"},
    ]
    assert found(spec, items, "invented_information") == []


# -- leaked_information ----------------------------------------------------------------------


def test_stating_the_withheld_answer_is_a_leak() -> None:
    items = [
        {"user": "What is Homer S's phone number?"},
        {"assistant": "I could not find it."},
        {"user": "It's +1 000 000 0000, can you check?"},
    ]
    errors = found(SEARCH, items, "leaked_information")
    assert [e.message_index for e in errors] == [3]
    assert found(SEARCH, items, "invented_information") == []  # a leak, not an invention


def test_repeating_what_the_assistant_found_is_no_leak() -> None:
    items = [
        {"user": "What is Homer S's phone number?"},
        {"call": {"name": "search_contacts", "arguments": {"name": "Homer S"}}},
        {"tool": "search_contacts", "result": [{"phone_number": "+10000000000"}]},
        {"assistant": "Homer S's number is +10000000000."},
        {"user": "Great, +10000000000 it is. Thanks!"},
    ]
    assert found(SEARCH, items, "leaked_information") == []


def test_withheld_text_facts_match_by_their_words() -> None:
    spec = {
        "inline": {
            "id": "latest",
            "user": {
                "script": ["What does my latest text say?"],
                "goal": "Find your latest message. It should be Good, keep me posted. Do not "
                "leak this information.",
            },
        }
    }
    leak = [
        {"user": "What does my latest text say?"},
        {"user": "I think it says good, keep me posted"},
    ]
    fine = [{"user": "What does my latest text say?"}, {"user": "Please keep looking"}]
    assert [e.message_index for e in found(spec, leak, "leaked_information")] == [2]
    assert found(spec, fine, "leaked_information") == []


# -- script_deviation ------------------------------------------------------------------------


def test_a_slot_value_said_otherwise_is_a_deviation() -> None:
    items = [
        {"user": "Can you text someone for me?"},
        {"assistant": "Sure, what number?"},
        {"user": "It's +1 415 555 0199"},
    ]
    errors = found(SLOTS, items, "script_deviation")
    assert [e.message_index for e in errors] == [3]
    assert "+14155550142" in errors[0].evidence
    assert len(found(SLOTS, items, "invented_information")) == 1  # an invention, too


def test_the_scripts_value_in_another_format_is_no_deviation() -> None:
    items = [
        {"user": "Can you text someone for me?"},
        {"assistant": "Sure, what number?"},
        {"user": "It's (415) 555-0142"},
    ]
    assert found(SLOTS, items, "script_deviation") == []
    assert found(SLOTS, items, "invented_information") == []


# -- premature_end ---------------------------------------------------------------------------


def test_ending_while_asked_a_question_is_premature() -> None:
    items = [
        {"user": "Remind me to buy chocolate milk"},
        {"assistant": "Sure. When should I remind you?"},
        {"end": True},
    ]
    errors = found(REMINDER, items, "premature_end")
    assert [e.message_index for e in errors] == [3]


def test_ending_after_an_announced_action_is_premature() -> None:
    items = [
        {"user": "Remind me to buy chocolate milk"},
        {"assistant": "Let me check your reminders first."},
        {"end": True},
    ]
    assert len(found(REMINDER, items, "premature_end")) == 1


def test_ending_after_a_result_or_a_closing_question_is_fine() -> None:
    for last in ("Done, the reminder is set.", "Done! Is there anything else I can help with?"):
        items = [{"user": "Remind me to buy chocolate milk"}, {"assistant": last}, {"end": True}]
        assert found(REMINDER, items, "premature_end") == []
    items = [{"user": "Remind me to buy chocolate milk"}, {"assistant": "When?"}]
    assert found(REMINDER, items, "premature_end", "turn_limit") == []  # did not end it


# -- role_confusion --------------------------------------------------------------------------


def test_writing_as_the_assistant_is_role_confusion() -> None:
    lines = [
        "Hello! How can I help you today?",
        "I'm sorry, but I'm just a chatbot.",
        "I'm unable to assist with any other tasks.",
        "Your reminder has been set for tomorrow.",
        'search_contacts(name="Homer")',
    ]
    for line in lines:
        items = [{"user": "Remind me to buy chocolate milk"}, {"assistant": "OK."}, {"user": line}]
        assert len(found(REMINDER, items, "role_confusion")) == 1, line


def test_a_users_own_words_are_not_role_confusion() -> None:
    lines = [
        "Can you help me set a reminder?",
        "I can't remember the time, sorry.",
        "I have set my alarm myself.",
        "Thanks, my reminder is set!",
    ]
    for line in lines:
        items = [{"user": "Remind me to buy chocolate milk"}, {"assistant": "OK."}, {"user": line}]
        assert found(REMINDER, items, "role_confusion") == [], line


# -- loop --------------------------------------------------------------------------------------


def test_repeated_and_empty_messages_are_loops() -> None:
    items = [
        {"user": "Remind me to buy chocolate milk"},
        {"assistant": "Done."},
        {"user": "Remind me to buy chocolate milk please"},
        {"assistant": "Is there anything else?"},
        {"user": ""},
        {"assistant": "Is there anything else?"},
        {"user": "No."},
        {"assistant": "Is there anything else?"},
        {"user": "No."},
    ]
    errors = found(REMINDER, items, "loop", "turn_limit")
    assert [e.message_index for e in errors] == [3, 5, 9]
    assert errors[1].evidence == "empty message"
    assert "turn limit" in errors[2].evidence


def test_short_answers_to_different_questions_are_no_loop() -> None:
    items = [
        {"user": "Remind me to buy chocolate milk"},
        {"assistant": "Tomorrow at 5 PM?"},
        {"user": "Yes."},
        {"assistant": "Should it repeat every week?"},
        {"user": "Yes."},
        {"assistant": "Done."},
        {"user": "Thank you, that was quick and easy."},
    ]
    assert found(REMINDER, items, "loop") == []


# -- all checks ------------------------------------------------------------------------------


def test_a_scripted_user_has_nothing_to_check() -> None:
    spec = {"inline": {"id": "s", "user": {"script": ["Turn on wifi", "Thanks"]}}}
    scenario = scenario_of(spec)
    items = [{"user": "Turn on wifi"}, {"assistant": "Done."}, {"user": "Thanks"}]
    trajectory, _ = build_trajectory(scenario.id, items, "script_exhausted")
    checked = CHECKING.check(scenario, trajectory)
    assert checked.checked_messages == 0 and checked.errors == []
