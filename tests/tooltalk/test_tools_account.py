"""AccountTools: sessions, registration, password reset and account data."""

from __future__ import annotations

import random
from typing import Any

import pytest

TOKEN = "aaaaaaaa-bbbb-cccc"


def _first_token() -> str:
    generator = random.Random(489)
    return "-".join(f"{generator.randint(0, 16**w - 1):0{w}x}" for w in (8, 4, 4))


def test_get_account_information_of_logged_in_user(make_world: Any, run: Any) -> None:
    registry, world = make_world()
    out = run(registry, world, "GetAccountInformation")
    assert out.result == {
        "user": {
            "username": "alice",
            "email": "alice@mail.com",
            "phone": "123-456-7890",
            "name": "Alice",
        }
    }


def test_tools_needing_login_refuse_without_session(make_world: Any, run: Any) -> None:
    registry, world = make_world(logged_in=None)
    before = world.state().digest()
    for name, args in [
        ("GetAccountInformation", {}),
        ("LogoutUser", {}),
        ("AddAlarm", {"time": "08:00:00"}),
        ("GetReminders", {}),
        ("SendMessage", {"receiver": "bob", "message": "hi"}),
    ]:
        out = run(registry, world, name, **args)
        assert out.error == "User is not logged in"
        assert out.error_type == "not_logged_in"
    assert world.state().digest() == before


def test_login_returns_seeded_token_and_opens_session(make_world: Any, run: Any) -> None:
    registry, world = make_world(logged_in=None)
    out = run(registry, world, "UserLogin", username="bob", password="bob-pw")
    assert out.result == {"session_token": _first_token()}
    assert world.session["session_token"] == _first_token()
    assert world.find_one("tooltalk_accounts", {"username": "bob"})["session_token"] == (
        _first_token()
    )
    assert run(registry, world, "GetAccountInformation").result["user"]["username"] == "bob"


@pytest.mark.parametrize(
    ("username", "password", "message"),
    [
        ("nobody", "x", "The username does not exist."),
        ("bob", "wrong", "The password is incorrect."),
    ],
)
def test_login_refusals_leave_world_unchanged(
    make_world: Any, run: Any, username: str, password: str, message: str
) -> None:
    registry, world = make_world(logged_in=None)
    before = world.state().digest()
    out = run(registry, world, "UserLogin", username=username, password=password)
    assert out.error == message
    assert world.state().digest() == before
    # a failed call draws no id: the next successful login still gets the first token
    assert run(registry, world, "UserLogin", username="bob", password="bob-pw").result == {
        "session_token": _first_token()
    }


def test_only_one_session_at_a_time(make_world: Any, run: Any) -> None:
    registry, world = make_world()
    out = run(registry, world, "UserLogin", username="bob", password="bob-pw")
    assert out.error == "Only one user can be logged in at a time. Current user is alice."
    out = run(registry, world, "RegisterUser", username="carol", password="p", email="c@x.com")
    assert out.error == "Only one user can be logged in at a time. Current user is alice."


def test_logout_then_login_again(make_world: Any, run: Any) -> None:
    registry, world = make_world()
    assert run(registry, world, "LogoutUser").result == {"status": "success"}
    assert world.session["session_token"] is None
    assert world.find_one("tooltalk_accounts", {"username": "alice"})["session_token"] is None
    assert run(registry, world, "LogoutUser").error == "User is not logged in"
    assert run(registry, world, "UserLogin", username="alice", password="alice-pw").ok


def test_register_user_creates_logged_in_account(make_world: Any, run: Any) -> None:
    registry, world = make_world(logged_in=None)
    out = run(
        registry,
        world,
        "RegisterUser",
        username="carol",
        password="secret",
        email="carol@mail.com",
        phone="555-123-4567",
    )
    assert out.result == {
        "session_token": _first_token(),
        "user": {
            "username": "carol",
            "email": "carol@mail.com",
            "phone": "555-123-4567",
            "name": None,
        },
    }
    assert world.session == {"session_token": _first_token(), "username": "carol"}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"username": "bob", "email": "b@x.com"}, "The username already exists."),
        ({"username": "carol", "email": "not an email"}, "The email format is invalid."),
        (
            {"username": "carol", "email": "c@x.com", "phone": "5551234567"},
            "The phone number format is invalid.",
        ),
    ],
)
def test_register_user_refusals(
    make_world: Any, run: Any, arguments: dict[str, str], message: str
) -> None:
    registry, world = make_world(logged_in=None)
    before = world.state().digest()
    assert run(registry, world, "RegisterUser", password="p", **arguments).error == message
    assert world.state().digest() == before


def test_change_password(make_world: Any, run: Any) -> None:
    registry, world = make_world()
    out = run(registry, world, "ChangePassword", old_password="bad", new_password="n")
    assert out.error == "The old password is incorrect."
    out = run(registry, world, "ChangePassword", old_password="alice-pw", new_password="n")
    assert out.result == {"status": "success"}
    assert world.find_one("tooltalk_accounts", {"username": "alice"})["password"] == "n"


def test_delete_account_ends_session(make_world: Any, run: Any) -> None:
    registry, world = make_world()
    assert run(registry, world, "DeleteAccount", password="x").error == (
        "The password is incorrect."
    )
    assert run(registry, world, "DeleteAccount", password="alice-pw").ok
    assert world.find_one("tooltalk_accounts", {"username": "alice"}) is None
    assert world.session["session_token"] is None


def test_password_reset_flow(make_world: Any, run: Any) -> None:
    registry, world = make_world(logged_in=None)
    assert run(registry, world, "SendVerificationCode", username="bob", email="no@x.com").error == (
        "The email is incorrect."
    )
    assert run(
        registry, world, "ResetPassword", username="bob", verification_code="1", new_password="n"
    ).error == ("The verification code is incorrect.")
    assert run(registry, world, "SendVerificationCode", username="bob", email="bob@mail.com").ok
    code = f"{random.Random(489).randint(0, 999999):06d}"
    assert world.find_one("tooltalk_accounts", {"username": "bob"})["verification_code"] == code
    out = run(
        registry, world, "ResetPassword", username="bob", verification_code=code, new_password="n"
    )
    assert out.result == {"status": "success"}
    assert run(registry, world, "UserLogin", username="bob", password="n").ok


def test_query_user_by_username_or_email(make_world: Any, run: Any) -> None:
    registry, world = make_world()
    assert run(registry, world, "QueryUser").error == (
        "You need to provide at least one of username and email."
    )
    by_name = run(registry, world, "QueryUser", username="bob").result
    assert [u["username"] for u in by_name["users"]] == ["bob"]
    assert run(registry, world, "QueryUser", username="zed").result == {"users": []}
    by_email = run(registry, world, "QueryUser", email="alice@mail.com").result
    assert by_email["users"][0]["username"] == "alice"


def test_update_account_information_is_all_or_nothing(make_world: Any, run: Any) -> None:
    registry, world = make_world()
    before = world.state().digest()
    out = run(
        registry,
        world,
        "UpdateAccountInformation",
        password="alice-pw",
        new_email="new@mail.com",
        new_phone_number="12345",
    )
    assert out.error == "The phone number is invalid."
    assert world.state().digest() == before  # the reference kept the new email here
    out = run(registry, world, "UpdateAccountInformation", password="alice-pw", new_name="A")
    assert out.error == "You need to provide at least one of new_email and new_phone_number."
    out = run(
        registry,
        world,
        "UpdateAccountInformation",
        password="alice-pw",
        new_email="new@mail.com",
        new_name="Alice B",
    )
    assert out.ok
    row = world.find_one("tooltalk_accounts", {"username": "alice"})
    assert (row["email"], row["name"]) == ("new@mail.com", "Alice B")


def test_wrong_argument_types_are_reported(make_world: Any, run: Any) -> None:
    registry, world = make_world(logged_in=None)
    out = run(registry, world, "UserLogin", username="bob")
    assert out.error_type == "invalid_arguments" and "password" in str(out.error)
    out = run(registry, world, "UserLogin", username="bob", password=5)
    assert out.error_type == "invalid_arguments"
    out = run(registry, world, "UserLogin", username="bob", password="p", session_token="t")
    assert out.error_type == "invalid_arguments" and "session_token" in str(out.error)
