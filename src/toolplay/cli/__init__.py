"""The `toolplay` command line: each command parses options, builds a config and calls one
library function. One module per group of commands, imported in the order `--help` lists
them; `_app` holds the app and its one-line error contract.
"""

# isort: off
from toolplay.cli._app import app
from toolplay.cli import (  # noqa: F401
    _run,
    _suites,
    _results,
    _review,
    _audit,
    _baselines,
    _schema,
    _glossary,
    _inspect,
)
# isort: on

__all__ = ["app"]
