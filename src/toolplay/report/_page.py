"""Render one self-contained, offline HTML page: inline CSS, inline script, data as JSON.

Safety by construction:
- jinja2 autoescaping is on for every template, so run data can only appear as text;
- data for the script travels in a `<script type="application/json">` block with `<`, `>`
  and `&` written as JSON unicode escapes (backslash-u003c and so on), so no value can
  close the block;
- a Content-Security-Policy allows only the page's own inline script (by its sha256 hash),
  inline styles and `data:` images: even a markup bug could not run injected code or
  reach the network.
The page carries no timestamp, so the same run always gives the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import json
from importlib import resources
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from toolplay import __version__

__all__ = ["asset", "render_page", "script_json"]

_ENV = Environment(
    loader=PackageLoader("toolplay.report", "templates"),
    autoescape=True,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)


def asset(name: str) -> str:
    """The text of a file shipped in `report/templates/`."""
    return (resources.files("toolplay.report") / "templates" / name).read_text(encoding="utf-8")


def script_json(data: Any) -> Markup:
    """JSON that is safe inside a `<script type="application/json">` element."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, default=str)
    text = text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
    return Markup(text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _csp(script: str | None) -> str:
    if script is None:
        script_src = "'none'"
    else:
        digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
        script_src = f"'sha256-{digest}'"
    return (
        f"default-src 'none'; script-src {script_src}; style-src 'unsafe-inline'; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )


def render_page(
    template: str, *, script: str | None = None, payload: Any = None, **context: Any
) -> str:
    """Render `template` (which extends `_layout.html.jinja`) into a complete page.

    Args:
        template: Template file name under `report/templates/`.
        script: Name of a JavaScript asset to inline, or None for a page without script.
        payload: Data for the script, embedded as JSON (`#run-data`).
        **context: Template variables; strings are escaped by the template.

    Returns:
        The page's HTML text.
    """
    code = asset(script) if script else None
    if code is not None and "</script" in code.lower():
        raise ValueError(f"{script}: inline script must not contain '</script'")
    return _ENV.get_template(template).render(
        css=Markup(asset("report.css")),
        script=Markup(code) if code is not None else None,
        payload=script_json(payload) if payload is not None else None,
        csp=_csp(code),
        version=__version__,
        **context,
    )
