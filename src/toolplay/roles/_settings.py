"""Settings of a model-backed role, read from the run options.

The run options are one flat dict (from the CLI or a config). A user role reads `user_<name>`
first and falls back to `<name>`, so a model-driven user shares the assistant's endpoint unless
told otherwise. The API key itself is never an option: only the *name* of the environment
variable holding it is, and the key is read from the environment when the role is built.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolplay.roles._cache import ResponseCache
from toolplay.roles._retry import RetryPolicy

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
DEFAULT_TIMEOUT = 60.0
DEFAULT_MAX_RETRIES = 5

CACHE_OPTION = "response_cache"
"""Options key under which the runner passes the `ResponseCache` object (never stored)."""


class RoleOptionError(ValueError):
    """A role spec or option is unusable (e.g. `openai:` without a model name)."""


@dataclass(frozen=True)
class ModelSettings:
    """How a role talks to its model."""

    base_url: str = DEFAULT_BASE_URL
    api_key_env: str = DEFAULT_API_KEY_ENV
    temperature: float = 0.0
    seed: int | None = None
    max_tokens: int | None = None
    timeout: float = DEFAULT_TIMEOUT
    policy: RetryPolicy = RetryPolicy()
    connections: int = 100
    cache: ResponseCache | None = None

    @classmethod
    def from_options(cls, options: Mapping[str, Any], prefix: str = "") -> ModelSettings:
        """Read settings from run options; `prefix` keys (e.g. `user_`) win over plain ones."""

        def get(name: str, default: Any) -> Any:
            for key in (f"{prefix}{name}", name) if prefix else (name,):
                if options.get(key) is not None:
                    return options[key]
            return default

        policy = RetryPolicy(
            max_retries=int(get("max_retries", DEFAULT_MAX_RETRIES)),
            initial=float(get("retry_initial", RetryPolicy.initial)),
            max_wait=float(get("retry_max_wait", RetryPolicy.max_wait)),
            jitter=float(get("retry_jitter", RetryPolicy.jitter)),
        )
        seed = get("seed", None)
        max_tokens = get("max_tokens", None)
        return cls(
            base_url=str(get("base_url", DEFAULT_BASE_URL)).rstrip("/"),
            api_key_env=str(get("api_key_env", DEFAULT_API_KEY_ENV)),
            temperature=float(get("temperature", 0.0)),
            seed=None if seed is None else int(seed),
            max_tokens=None if max_tokens is None else int(max_tokens),
            timeout=float(get("timeout", DEFAULT_TIMEOUT)),
            policy=policy,
            connections=max(100, int(options.get("concurrency") or 1) * 2),
            cache=options.get(CACHE_OPTION),
        )

    def api_key(self) -> str | None:
        """The key from the environment variable `api_key_env` (None when unset or empty)."""
        return os.environ.get(self.api_key_env) or None

    def sampling(self) -> dict[str, Any]:
        """The recorded sampling settings (what determines results; no secrets)."""
        return {"temperature": self.temperature, "seed": self.seed, "max_tokens": self.max_tokens}
