"""The real sentence-embedding similarity: loaded once, batched, order-independent."""

from __future__ import annotations

import numpy as np

import support
from toolplay.scoring import EmbeddingSimilarity, load_embedding_model, scoring_context
from toolplay.scoring._embeddings import (
    THREADS,
    _torch_threads,
    shared_similarity,
)

TEXTS = [
    "Walk",
    "Go for a walk in the park",
    "Reminder: we have a meeting on 9/14 at 2 PM.",
    "I have updated the meeting time to 9/14 at 12 PM.",
    "Buy a birthday present for Brody before next Monday, and wrap it nicely",
]


def test_model_is_loaded_once_per_process(similarity: EmbeddingSimilarity) -> None:
    assert load_embedding_model() is load_embedding_model()
    assert shared_similarity() is similarity


def test_batched_vectors_equal_one_by_one_vectors(similarity: EmbeddingSimilarity) -> None:
    model = load_embedding_model()
    batched = EmbeddingSimilarity(model)
    batched.embed(TEXTS)
    with _torch_threads(THREADS):  # float results depend on the thread count, fixed here
        singles = [
            model.encode([t], convert_to_numpy=True, normalize_embeddings=True)[0] for t in TEXTS
        ]
    for text, single in zip(TEXTS, singles, strict=True):
        assert np.array_equal(batched._vectors[text], np.asarray(single, dtype=np.float64))


def test_similarity_does_not_depend_on_what_else_was_embedded() -> None:
    model = load_embedding_model()
    first, second = EmbeddingSimilarity(model), EmbeddingSimilarity(model)
    second.embed(["an unrelated sentence that came earlier in the run", *TEXTS[2:]])
    pair = ([TEXTS[2]], [TEXTS[3]])
    assert first(*pair) == second(*pair)
    assert first.encoded == 2


def test_similarity_ranks_paraphrases_above_unrelated_text(similarity: EmbeddingSimilarity) -> None:
    close, far = similarity(["Go for a walk", "Go for a walk"], ["Take a walk", "Pay the rent"])
    assert 0.0 <= far < close <= 1.0
    assert similarity(["same text"], ["same text"]) == [1.0]


def test_context_records_the_model_only_for_methods_that_need_it() -> None:
    context = scoring_context(needs_similarity=True)
    assert context.embedding_model is not None
    assert context.embedding_model.startswith("sentence-transformers/all-MiniLM-L6-v2")
    assert context.similarity_factory is not None
    plain = scoring_context(needs_similarity=False)
    assert plain.embedding_model is None and plain.similarity_factory is None
    needs = {name for name, s in support.CATALOG.scorers.items() if s.needs_similarity}
    assert needs == {"tooltalk"}
