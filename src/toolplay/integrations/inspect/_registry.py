"""The module Inspect loads through its `inspect_ai` entry point (`toolplay[inspect]`).

Importing it registers toolplay's tasks, solver, scorer and metric under the `toolplay/`
namespace, so `inspect eval toolplay/sandbox` needs no file of the user's.
"""

from toolplay.integrations.inspect._scorer import toolplay_metrics, toolplay_score
from toolplay.integrations.inspect._solver import toolplay_play
from toolplay.integrations.inspect._tasks import autode, sandbox, suite, tooltalk

__all__ = [
    "autode",
    "sandbox",
    "suite",
    "toolplay_metrics",
    "toolplay_play",
    "toolplay_score",
    "tooltalk",
]
