"""How a model-backed role talks to its model: typed options, resolved into settings.

`ModelOptions` is what a user writes (`--base-url`, `--option temperature=0.2`, a stored
`config.json`): every field optional, `None` meaning "not given". A model-driven user's options
fall back field by field to the assistant's (`ModelOptions.over`), so a simulated user shares
the assistant's endpoint unless told otherwise. `ModelSettings` is the resolved, frozen form
the clients use. The API key itself is never an option: only the *name* of the environment
variable holding it is, and the key is read from the environment when the client is built.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

from toolplay.clients._cache import ResponseCache
from toolplay.clients._retry import RetryPolicy
from toolplay.clients._wire import Wire
from toolplay.errors import InputError

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
DEFAULT_TIMEOUT = 60.0
DEFAULT_MAX_RETRIES = 5
DEFAULT_LOCAL_CONTEXT = 8192

OPERATIONAL = frozenset(
    {
        "timeout",
        "max_retries",
        "retry_initial",
        "retry_max_wait",
        "retry_jitter",
        "local_threads",
        "record_exchanges",
    }
)
"""Fields that change how calls are made but not what they return: `--resume` may change
them, and they are left out of a run's identity."""


class RoleOptionError(InputError):
    """A role spec or option is unusable (e.g. `openai:` without a model name)."""


class ModelOptions(BaseModel):
    """Options of one model-backed role (the assistant's or the user's); None = not given."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: str | None = Field(
        default=None,
        description="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 "
        f"(default {DEFAULT_BASE_URL}).",
    )
    api_key_env: str | None = Field(
        default=None,
        description=f"Environment variable holding the API key (default {DEFAULT_API_KEY_ENV}).",
    )
    temperature: float | None = Field(
        default=None,
        ge=0,
        description="Sampling temperature (default: the presentation's; toolplay's own sends 0, "
        "a reference presentation sends none, as the reference did: the endpoint's default).",
    )
    seed: int | None = Field(default=None, description="Sampling seed (+ trial number).")
    max_tokens: int | None = Field(default=None, ge=1, description="Cap on tokens per answer.")
    timeout: float | None = Field(
        default=None, gt=0, description=f"Seconds per model call ({DEFAULT_TIMEOUT:g})."
    )
    max_retries: int | None = Field(
        default=None,
        ge=0,
        description=f"Retries per model call on 429/5xx/timeouts ({DEFAULT_MAX_RETRIES}).",
    )
    retry_initial: float | None = Field(
        default=None, ge=0, description=f"First backoff in seconds ({RetryPolicy.initial:g})."
    )
    retry_max_wait: float | None = Field(
        default=None, ge=0, description=f"Longest backoff in seconds ({RetryPolicy.max_wait:g})."
    )
    retry_jitter: float | None = Field(
        default=None,
        ge=0,
        description=f"Random seconds added to a backoff ({RetryPolicy.jitter:g}).",
    )
    local_n_ctx: int | None = Field(
        default=None, ge=256, description=f"Local model context window ({DEFAULT_LOCAL_CONTEXT})."
    )
    local_threads: int | None = Field(
        default=None, ge=0, description="Cores a local model uses (0: automatic)."
    )
    wire: Wire | None = Field(
        default=None,
        description="How requests go on the wire: 'tools' (OpenAI's current format) or "
        "'functions' (the legacy format ToolTalk's and AutoDE's references used); default: the "
        "presentation's.",
    )
    record_exchanges: bool | None = Field(
        default=None,
        description="Keep each model call's request and response in the trajectory (local "
        "models: the exact prompt and raw output) for the report's viewer (true; false keeps "
        "runs small).",
    )

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"{value!r} is not an http(s) URL, e.g. http://127.0.0.1:8000/v1")
        return value

    def over(self, fallback: ModelOptions) -> ModelOptions:
        """These options, with every field not given taken from `fallback`."""
        given = self.model_dump(exclude_none=True)
        return fallback.model_copy(update=given)

    def resolve(self, *, cache: ResponseCache | None = None, concurrency: int = 1) -> ModelSettings:
        """The settings a client uses: defaults filled in, the cache attached."""
        policy = RetryPolicy(
            max_retries=DEFAULT_MAX_RETRIES if self.max_retries is None else self.max_retries,
            initial=RetryPolicy.initial if self.retry_initial is None else self.retry_initial,
            max_wait=RetryPolicy.max_wait if self.retry_max_wait is None else self.retry_max_wait,
            jitter=RetryPolicy.jitter if self.retry_jitter is None else self.retry_jitter,
        )
        return ModelSettings(
            base_url=(self.base_url or DEFAULT_BASE_URL).rstrip("/"),
            api_key_env=self.api_key_env or DEFAULT_API_KEY_ENV,
            temperature=self.temperature,
            seed=self.seed,
            max_tokens=self.max_tokens,
            timeout=DEFAULT_TIMEOUT if self.timeout is None else self.timeout,
            policy=policy,
            connections=max(100, concurrency * 2),
            cache=cache,
            local_n_ctx=self.local_n_ctx or DEFAULT_LOCAL_CONTEXT,
            local_threads=self.local_threads or 0,
            record_exchanges=self.record_exchanges is not False,
            wire=self.wire,
        )


@dataclass(frozen=True)
class ModelSettings:
    """How a role talks to its model, resolved (see `ModelOptions.resolve`)."""

    base_url: str = DEFAULT_BASE_URL
    api_key_env: str = DEFAULT_API_KEY_ENV
    temperature: float | None = None
    """None: not sent (the endpoint's default), unless a presentation fills its default in."""
    seed: int | None = None
    max_tokens: int | None = None
    timeout: float = DEFAULT_TIMEOUT
    policy: RetryPolicy = RetryPolicy()
    connections: int = 100
    cache: ResponseCache | None = None
    local_n_ctx: int = DEFAULT_LOCAL_CONTEXT
    local_threads: int = 0
    record_exchanges: bool = True
    wire: Wire | None = None
    """None: the presentation's wire format."""

    def api_key(self) -> str | None:
        """The key from the environment variable `api_key_env` (None when unset or empty)."""
        return os.environ.get(self.api_key_env) or None

    def sampling(self) -> dict[str, Any]:
        """The recorded sampling settings (what determines results; no secrets).

        A temperature of None was not sent: the endpoint's default applied.
        """
        return {"temperature": self.temperature, "seed": self.seed, "max_tokens": self.max_tokens}
