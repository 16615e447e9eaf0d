"""What scorers may need besides the trajectory: the shared, lazily built scoring resources."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

TextSimilarity = Callable[[Sequence[str], Sequence[str]], list[float]]
"""Pairwise similarity of two equally long lists of texts (e.g. embedding cosine)."""


@dataclass
class ScoringContext:
    """Shared, lazily built resources for scorers (embedding model, ...)."""

    similarity_factory: Callable[[], TextSimilarity] | None = None
    embedding_model: str | None = None
    """The name of the embedding model behind `similarity`, recorded with the run."""
    _similarity: TextSimilarity | None = field(default=None, repr=False)

    def similarity(self) -> TextSimilarity:
        """The text similarity function, built on first use."""
        if self._similarity is None:
            if self.similarity_factory is None:
                raise RuntimeError("this scorer needs a text similarity model; none configured")
            self._similarity = self.similarity_factory()
        return self._similarity
