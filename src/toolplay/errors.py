"""Two kinds of error a command can end in: the user's input, or a bug.

Every error that means "what you gave cannot be used" (a scenario file, a suite spec, an
option, a plugin, a run folder, a role spec, a results file) is an `InputError`: the CLI prints
it as one line, `error: <what>: <why>`, and exits with `USAGE` (2). Anything else that escapes
a command is an internal error, a bug in toolplay or in a plugin: the CLI says so in one short
line, writes the traceback to a file and prints its path, and exits with `INTERNAL` (70).

(A conversation's own failures are not errors of a command: see `toolplay.faults`.)
"""

from __future__ import annotations

__all__ = [
    "CHECK_FAILED",
    "INFRASTRUCTURE",
    "INTERNAL",
    "SCORER_FAILED",
    "USAGE",
    "InputError",
]

CHECK_FAILED = 1
"""Exit status of a check that found problems (`validate`), or of `compare` finding nothing."""
USAGE = 2
"""Exit status of a usage or input error (`InputError`)."""
INFRASTRUCTURE = 3
"""Exit status of a run that finished with infrastructure errors (`--resume` plays them)."""
SCORER_FAILED = 4
"""Exit status of a run or re-score that finished, but whose scorer failed on some trials (a
bug in the scorer; the trials are listed in summary.json's `error_list`)."""
INTERNAL = 70
"""Exit status of an internal error: a bug (sysexits' EX_SOFTWARE)."""


class InputError(ValueError):
    """The user's input cannot be used; the message names what and why, in one line.

    A `ValueError`: what was given has the wrong value (code that catches `ValueError` around
    a user's input keeps catching it).
    """
