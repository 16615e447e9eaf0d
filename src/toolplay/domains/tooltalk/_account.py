"""AccountTools: login, logout, registration, password reset and account data.

Behaviour, checks and messages follow the reference plugin, in its order: UpdateAccountInformation
saves a new email before it checks the phone number (toolplay's registry rolls the failed call
back; the reference executor keeps the email, as the reference did).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from toolplay.domains.tooltalk._common import (
    account,
    current_user,
    new_session_token,
    require_no_session,
)
from toolplay.domains.tooltalk._texts import refusal
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError, NotFoundError, PreconditionError
from toolplay.world import Row, World

ACCOUNTS = "tooltalk_accounts"
_PHONE = re.compile(r"^\d{3}-\d{3}-\d{4}$")
_EMAIL = re.compile(r"^[\w\-\d\.]+@[\w\-\d\.]+$")


def valid_phone(value: str) -> bool:
    """Whether `value` is a phone number written xxx-xxx-xxxx."""
    return _PHONE.match(value) is not None


def valid_email(value: str) -> bool:
    """Whether `value` looks like name@domain (the reference's loose check)."""
    return _EMAIL.match(value) is not None


def _public(row: Row) -> dict[str, Any]:
    return {key: row[key] for key in ("username", "email", "phone", "name")}


def _check_password(row: Row, password: str, *, old: bool = False) -> None:
    """Refuse a password that is not the account's (ChangePassword words it as the old one)."""
    if row["password"] != password:
        raise PreconditionError(refusal("wrong_old_password" if old else "wrong_password"))


@tool(
    kind="read",
    reads={"session", ACCOUNTS},
    name="GetAccountInformation",
)
def get_account_information(world: World) -> dict[str, Any]:
    """Get the account information of the logged-in user."""
    return {"user": _public(current_user(world))}


@tool(
    kind="action", reads={"session", ACCOUNTS}, writes={"session", ACCOUNTS}, name="DeleteAccount"
)
def delete_account(world: World, password: str) -> dict[str, str]:
    """Delete the logged-in user's account; the user must confirm with their password.

    Args:
        password: The user's password.
    """
    user = current_user(world)
    _check_password(user, password)
    world.delete(ACCOUNTS, {"username": user["username"]})
    world.set_session(session_token=None, username=None)
    return {"status": "success"}


@tool(kind="action", reads={"session", ACCOUNTS}, writes={"session", ACCOUNTS}, name="UserLogin")
def user_login(world: World, username: str, password: str) -> dict[str, str]:
    """Log a user in; returns the new session token.

    Args:
        username: The user's username.
        password: The user's password.
    """
    require_no_session(world)
    row = account(world, username)
    if row is None:
        raise NotFoundError(refusal("unknown_username"))
    _check_password(row, password)
    if row["session_token"] is not None:
        raise PreconditionError(refusal("already_logged_in"))
    token = new_session_token(world, "UserLogin")
    world.update(ACCOUNTS, {"username": username}, {"session_token": token})
    world.set_session(session_token=token, username=username)
    return {"session_token": token}


@tool(kind="action", reads={"session", ACCOUNTS}, writes={"session", ACCOUNTS}, name="LogoutUser")
def logout_user(world: World) -> dict[str, str]:
    """Log the current user out."""
    user = current_user(world)
    world.update(ACCOUNTS, {"username": user["username"]}, {"session_token": None})
    world.set_session(session_token=None, username=None)
    return {"status": "success"}


@tool(kind="action", reads={"session", ACCOUNTS}, writes={ACCOUNTS}, name="ChangePassword")
def change_password(world: World, old_password: str, new_password: str) -> dict[str, str]:
    """Change the logged-in user's password.

    Args:
        old_password: The current password.
        new_password: The password to set.
    """
    user = current_user(world)
    _check_password(user, old_password, old=True)
    world.update(ACCOUNTS, {"username": user["username"]}, {"password": new_password})
    return {"status": "success"}


@tool(kind="action", reads={"session", ACCOUNTS}, writes={"session", ACCOUNTS}, name="RegisterUser")
def register_user(
    world: World,
    username: str,
    password: str,
    email: str,
    name: str | None = None,
    phone: str | None = None,
) -> dict[str, Any]:
    """Create a new account and log it in; returns the session token and the account.

    Args:
        username: The username to register.
        password: The password for the account.
        email: The user's email address.
        name: The user's full name.
        phone: The user's phone number, written xxx-xxx-xxxx.
    """
    require_no_session(world)
    if account(world, username) is not None:
        raise PreconditionError(refusal("username_taken"))
    if not valid_email(email):
        raise InvalidArgumentError(refusal("bad_email_format"))
    if phone is not None and not valid_phone(phone):
        raise InvalidArgumentError(refusal("bad_phone_format"))
    token = new_session_token(world, "RegisterUser")
    world.insert(
        ACCOUNTS,
        {
            "username": username,
            "password": password,
            "session_token": token,
            "email": email,
            "phone": phone,
            "name": name,
        },
    )
    world.set_session(session_token=token, username=username)
    return {
        "session_token": token,
        "user": {"username": username, "email": email, "phone": phone, "name": name},
    }


@tool(kind="action", reads={ACCOUNTS}, writes={ACCOUNTS}, name="SendVerificationCode")
def send_verification_code(world: World, username: str, email: str) -> dict[str, str]:
    """Start a password reset: send a verification code to the account's email address.

    Args:
        username: The username of the account.
        email: The email address registered with the account.
    """
    row = account(world, username)
    if row is None:
        raise NotFoundError(refusal("unknown_username"))
    if row["email"] != email:
        raise PreconditionError(refusal("wrong_email"))
    code = f"{world.rng('SendVerificationCode').randint(0, 999999):06d}"
    world.update(ACCOUNTS, {"username": username}, {"verification_code": code})
    return {"status": "success"}


@tool(kind="action", reads={ACCOUNTS}, writes={ACCOUNTS}, name="ResetPassword")
def reset_password(
    world: World, username: str, verification_code: str, new_password: str
) -> dict[str, str]:
    """Set a new password with the verification code the user received.

    Args:
        username: The username of the account.
        verification_code: The 6-digit code sent to the user.
        new_password: The password to set.
    """
    row = account(world, username)
    if row is None:
        raise NotFoundError(refusal("unknown_username"))
    if row["verification_code"] is None or row["verification_code"] != verification_code:
        raise PreconditionError(refusal("wrong_verification_code"))
    world.update(ACCOUNTS, {"username": username}, {"password": new_password})
    return {"status": "success"}


@tool(kind="read", reads={"session", ACCOUNTS}, name="QueryUser")
def query_user(
    world: World, username: str | None = None, email: str | None = None
) -> dict[str, list[dict[str, Any]]]:
    """Find users by username or by email address (give at least one; username wins).

    Args:
        username: The username to look up.
        email: The email address to look up; several users may share one.
    """
    current_user(world)
    if username is None and email is None:
        raise InvalidArgumentError(refusal("user_query_without_filter"))
    if username is None:
        return {"users": [_public(r) for r in world.find(ACCOUNTS, {"email": email})]}
    row = account(world, username)
    return {"users": [] if row is None else [_public(row)]}


@tool(
    kind="action",
    reads={"session", ACCOUNTS},
    writes={ACCOUNTS},
    name="UpdateAccountInformation",
)
def update_account_information(
    world: World,
    password: str,
    new_email: str | None = None,
    new_phone_number: str | None = None,
    new_name: str | None = None,
) -> dict[str, str]:
    """Change the logged-in user's email address, phone number or name.

    Args:
        password: The user's password, to confirm the change.
        new_email: The new email address.
        new_phone_number: The new phone number, written xxx-xxx-xxxx.
        new_name: The new full name.
    """
    user = current_user(world)
    _check_password(user, password)
    if new_email is None and new_phone_number is None:
        raise InvalidArgumentError(refusal("account_update_without_change"))
    key = {"username": user["username"]}
    if new_email is not None:
        if not valid_email(new_email):
            raise InvalidArgumentError(refusal("bad_email"))
        world.update(ACCOUNTS, key, {"email": new_email})
    if new_phone_number is not None:
        if not valid_phone(new_phone_number):
            raise InvalidArgumentError(refusal("bad_phone"))
        world.update(ACCOUNTS, key, {"phone": new_phone_number})
    if new_name is not None:
        world.update(ACCOUNTS, key, {"name": new_name})
    return {"status": "success"}


TOOLS: list[Callable[..., Any]] = [
    get_account_information,
    delete_account,
    user_login,
    logout_user,
    change_password,
    register_user,
    send_verification_code,
    reset_password,
    query_user,
    update_account_information,
]

__all__ = ["TOOLS", "valid_email", "valid_phone"]
