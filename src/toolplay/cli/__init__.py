"""The `toolplay` command line: each command parses options, builds a config and calls one
library function. One module per group of commands, each imported only when one of its
commands runs (`_lazy`); `_app` holds the app and its one-line error contract.
"""

from toolplay.cli._app import app

__all__ = ["app"]
