"""A played trajectory as JSON data, without walking its exchanges' bodies in pydantic.

`Trajectory.model_dump(mode="json")` spent ~0.7 ms on a sandbox trial of four calls, nearly
all of it converting the recorded request and response bodies (`ModelExchange.request`,
`.response`: `dict[str, Any]`, each request repeating the tool schemas and the conversation).
Those bodies are JSON data already (a request as sent, a response as parsed), and JSON data is
what the conversion gives back unchanged. `trajectory_json` dumps the rest with pydantic and
takes each body as it is when it is plain JSON data (exact `str`, `int` within 64 bits,
finite `float`, `bool`, `None`, `list`, `dict` with `str` keys, all the way down); a body
holding anything else (a tuple, a date, a NaN...) makes it fall back to `model_dump` for the
whole trajectory. The result equals `model_dump(mode="json")`; it shares the bodies with the
trajectory (neither is changed afterwards: a trial's data is only read, encoded and stored).
"""

from __future__ import annotations

import math
from typing import Any

from toolplay.messages import Trajectory

__all__ = ["trajectory_json"]

_BODIES = {"messages": {"__all__": {"exchange": {"request": True, "response": True}}}}
_INT64 = 2**63


def trajectory_json(trajectory: Trajectory) -> dict[str, Any]:
    """`trajectory.model_dump(mode="json")`, with plain JSON bodies taken as they are."""
    checked: dict[int, bool] = {}
    exchanges = [m.exchange for m in trajectory.messages]
    for exchange in exchanges:
        if exchange is not None and not (
            _plain(exchange.request, checked) and _plain(exchange.response, checked)
        ):
            return trajectory.model_dump(mode="json")
    data = trajectory.model_dump(mode="json", exclude=_BODIES)
    for exchange, message in zip(exchanges, data["messages"], strict=True):
        if exchange is not None:  # the bodies first, as ModelExchange declares them
            rest = message["exchange"]
            message["exchange"] = {"request": exchange.request, "response": exchange.response}
            message["exchange"].update(rest)
    return data


def _plain(value: Any, checked: dict[int, bool]) -> bool:
    """Whether `value` is plain JSON data, which pydantic's JSON mode returns unchanged.

    `checked` remembers containers by identity (the tool schemas recur in every request of a
    conversation); they stay alive, held by the trajectory, for as long as it is used.
    """
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return bool(-_INT64 <= value < _INT64)
    if kind is float:
        return math.isfinite(value)
    if kind is not list and kind is not dict:
        return False
    found = checked.get(id(value))
    if found is None:
        if kind is list:
            found = all(_plain(item, checked) for item in value)
        else:
            found = all(type(k) is str and _plain(v, checked) for k, v in value.items())
        checked[id(value)] = found
    return found
