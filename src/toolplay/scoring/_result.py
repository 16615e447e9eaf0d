"""What scorers may need besides the trajectory: the run's scoring settings, the shared,
lazily built scoring resources, and the user-error checks that run beside every scorer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from toolplay.scoring._settings import ScoringSettings
from toolplay.users import UserChecking

TextSimilarity = Callable[[Sequence[str], Sequence[str]], list[float]]
"""Pairwise similarity of two equally long lists of texts (e.g. embedding cosine)."""


@dataclass
class ScoringContext:
    """The run's scoring settings and shared, lazily built resources (embedding model, ...)."""

    similarity_factory: Callable[[], TextSimilarity] | None = None
    settings: ScoringSettings = field(default_factory=ScoringSettings)
    """Typed settings that change what a score means (e.g. AutoDE's `slot_matching`)."""
    embedding_model: str | None = None
    """The name of the embedding model behind `similarity`, recorded with the run."""
    user_checking: UserChecking | None = None
    """The user-error checks to run beside the scorer (the catalog's); None: none run."""
    _similarity: TextSimilarity | None = field(default=None, repr=False)

    def similarity(self) -> TextSimilarity:
        """The text similarity function, built on first use."""
        if self._similarity is None:
            if self.similarity_factory is None:
                raise RuntimeError("this scorer needs a text similarity model; none configured")
            self._similarity = self.similarity_factory()
        return self._similarity
