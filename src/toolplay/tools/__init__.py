"""Tools: the `@tool` decorator, registries built from domains, and safe execution."""

from toolplay.tools._api_only import (
    API_ONLY_DOMAIN,
    RECORDED,
    api_only_tool,
    is_api_only,
    with_api_tools,
)
from toolplay.tools._augmentations import AUGMENTATIONS, present, rank_distractors, scrambled_name
from toolplay.tools._catalog import ToolCatalog
from toolplay.tools._decorator import ToolKind, ToolMeta, tool, tool_meta
from toolplay.tools._errors import (
    EXCEPTION,
    AuthenticationError,
    InvalidArgumentError,
    NotFoundError,
    PreconditionError,
    RegistryError,
    ToolError,
    exception_line,
)
from toolplay.tools._presentation import (
    Augmentation,
    CallCheck,
    Parallel,
    ToolPresentation,
    strip_descriptions,
)
from toolplay.tools._registry import (
    Domain,
    Registry,
    ToolCrash,
    ToolOutcome,
    ToolSpec,
    build_registry,
    parse_arguments,
    to_json_value,
)

__all__ = [
    "EXCEPTION",
    "CallCheck",
    "Parallel",
    "exception_line",
    "API_ONLY_DOMAIN",
    "RECORDED",
    "api_only_tool",
    "is_api_only",
    "with_api_tools",
    "ToolCatalog",
    "AUGMENTATIONS",
    "Augmentation",
    "ToolPresentation",
    "present",
    "rank_distractors",
    "scrambled_name",
    "strip_descriptions",
    "AuthenticationError",
    "Domain",
    "InvalidArgumentError",
    "NotFoundError",
    "PreconditionError",
    "Registry",
    "RegistryError",
    "ToolCrash",
    "ToolError",
    "ToolKind",
    "ToolMeta",
    "ToolOutcome",
    "ToolSpec",
    "build_registry",
    "parse_arguments",
    "to_json_value",
    "tool",
    "tool_meta",
]
