"""toolplay: evaluate how well AI assistants use tools in conversation."""

__version__ = "0.1.0"
