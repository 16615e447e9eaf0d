"""An assistant's tool call as the reference's evaluation sees it: the code on its bus.

The reference turns every tool call into one message from the assistant to the execution
environment whose content is Python code naming the real tool (also under scrambled names) and
holding the `repr` of the parsed arguments. A milestone or minefield on "the assistant's
message to the environment" compares with that text; the `*_insufficient_information`
minefields, for instance, fire when it contains a forbidden tool's name. toolplay keeps one
assistant message per answer with all its calls, so such a constraint sees the text of each
call of the message and takes the best.

The code's shape is the reference's, exported as a template (`data/evaluation.json`). Argument
text that is not a JSON object (the reference's scenario dies on it) is shown as the model wrote
it; a call to a tool that was not offered (the reference's scenario dies there too) is shown
under the name the model used, so a minefield on that name still fires and the score is 0, as
the reference's is.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from toolplay.messages import ToolCall

DATA = Path(__file__).resolve().parent / "data" / "evaluation.json"
_FIELD = re.compile(r"\{(id|name|arguments)\}")


@lru_cache(maxsize=1)
def call_template() -> str:
    """The reference's tool-call code with `{id}`, `{name}` and `{arguments}` placeholders."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    template: str = data["tool_call_code"]
    return template


def call_text(call: ToolCall, real_name: str) -> str:
    """The text the reference's bus holds for `call` (executed as `real_name`)."""
    try:
        arguments = repr(json.loads(call.arguments))
    except (ValueError, RecursionError):
        arguments = call.arguments
    values = {"id": call.id, "name": real_name, "arguments": arguments}
    return _FIELD.sub(lambda m: values[m.group(1)], call_template())
