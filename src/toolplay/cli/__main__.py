"""`python -m toolplay.cli`."""

from toolplay.cli import app

app()
