"""Benchmark: ToolTalk static play and scoring of the 78 official conversations.

Reports, for the official data in ../shared/tooltalk (skipped when absent):
- importing the suite, playing it in static mode with the oracle, and scoring it (identical
  texts never reach the embedding model, so the oracle needs none);
- loading the real embedding model (all-MiniLM-L6-v2, once per process);
- scoring a replay of the ground truth in which every free-text argument is reworded, so every
  text comparison needs the model: the scorer embeds each distinct text once, in batches;
- as baselines measured in the same run, the same texts embedded the way the reference
  evaluator does it, one text per model call (cached per text, as its lru_cache did): with the
  scorer's single torch thread (isolates batching), and on a sample with torch's default thread
  count (what the reference ran with; on 2 busy cores its threads spin against each other).

Run: .venv/bin/python bench/bench_tooltalk_scoring.py [--quick]
(--quick: the easy split only). The last line is a JSON summary for bench/run_all.py.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from toolplay.catalog import build_catalog  # noqa: E402
from toolplay.conversation import PlayRequest, PlaySettings  # noqa: E402
from toolplay.messages import Trajectory  # noqa: E402
from toolplay.methods.tooltalk import ReplayAssistant  # noqa: E402
from toolplay.roles import OracleAssistant, ScriptedUser  # noqa: E402
from toolplay.scenarios import Scenario  # noqa: E402
from toolplay.scoring import (  # noqa: E402
    EmbeddingSimilarity,
    ScenarioScore,
    ScoringContext,
    load_embedding_model,
)
from toolplay.scoring import score_trajectory as score_with  # noqa: E402
from toolplay.scoring._embeddings import THREADS, _torch_threads  # noqa: E402

CATALOG = build_catalog()
DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "tooltalk"
DEFAULT_THREADS_SAMPLE = 40
TEXT_FIELDS = {
    "name",
    "description",
    "location",
    "new_name",
    "new_description",
    "new_location",
    "subject",
    "body",
    "message",
    "task",
}


def reworded(value: Any) -> Any:
    """A free-text argument said differently (other words, same request)."""
    return f"Please note: {value.lower()}" if isinstance(value, str) else value


def write_predictions(root: Path, target: Path, splits: list[str]) -> None:
    """The ground truth in ToolTalk's output layout, every free-text argument reworded."""
    for split in splits:
        (target / split).mkdir(parents=True)
        for path in sorted((root / split).glob("*.json")):
            raw = json.loads(path.read_text())
            for turn in raw["conversation"]:
                if turn["role"] != "assistant":
                    continue
                calls = []
                for api in turn.get("apis", []):
                    parameters = {
                        k: reworded(v) if k in TEXT_FIELDS else v
                        for k, v in api["request"]["parameters"].items()
                    }
                    request = {"api_name": api["request"]["api_name"], "parameters": parameters}
                    calls.append({"role": "api", "request": request})
                turn["predictions"] = [*calls, {"role": "assistant", "text": turn["text"]}]
            (target / split / path.name).write_text(json.dumps(raw))


async def play_all(scenarios: list[Scenario], assistant: Any) -> list[Trajectory]:
    """ToolTalk's static play (Algorithm 1) of every conversation."""
    static, user = CATALOG.mode("static"), ScriptedUser()
    settings = PlaySettings()
    requests = [PlayRequest(CATALOG.setup(s), assistant, user, 0, settings) for s in scenarios]
    return [await static.play(request) for request in requests]


def score_trajectory(
    scenario: Scenario, trajectory: Trajectory, context: ScoringContext
) -> ScenarioScore:
    """The scenario's own scorer (ToolTalk's Algorithm 2)."""
    scorer = CATALOG.scorer(scenario.evaluation)
    return score_with(CATALOG.setup(scenario), trajectory, scorer, context)


def timed(action: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    value = action()
    return value, time.perf_counter() - start


def main() -> int:
    quick = "--quick" in sys.argv[1:]
    if not (DATA / "databases").is_dir():
        print(f"ToolTalk data not found at {DATA.resolve()}; nothing to measure")
        print(json.dumps({"skipped": "no ToolTalk data"}))
        return 0
    root = DATA.resolve()
    splits = ["easy"] if quick else ["easy", "tooltalk"]
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        (data / "databases").symlink_to(root / "databases")
        for split in splits:
            (data / split).symlink_to(root / split)
        suite, load_s = timed(lambda: CATALOG.load_suite(f"tooltalk:{data}"))
        scenarios = list(suite.scenarios)
        oracle, play_s = timed(lambda: asyncio.run(play_all(scenarios, OracleAssistant())))
        context = ScoringContext()  # no model at all: the oracle must not need one
        scores, score_s = timed(
            lambda: [
                score_trajectory(s, t, context) for s, t in zip(scenarios, oracle, strict=True)
            ]
        )
        assert all(r.score == 1.0 for r in scores), "the oracle must score 1.0 everywhere"

        model, model_s = timed(load_embedding_model)
        saved = Path(tmp) / "saved"
        write_predictions(root, saved, splits)
        replayed, replay_s = timed(lambda: asyncio.run(play_all(scenarios, ReplayAssistant(saved))))
        similarity: EmbeddingSimilarity = EmbeddingSimilarity(model)
        asked: list[tuple[str, str]] = []

        def recording(left: Sequence[str], right: Sequence[str]) -> list[float]:
            asked.extend(zip(left, right, strict=True))
            return list(similarity(left, right))

        text_context = ScoringContext(similarity_factory=lambda: recording)
        text_scores, text_s = timed(
            lambda: [
                score_trajectory(s, t, text_context)
                for s, t in zip(scenarios, replayed, strict=True)
            ]
        )

        def one_by_one() -> None:
            cache: dict[str, Any] = {}
            with _torch_threads(THREADS):  # same threads as the scorer: only batching differs
                for pair in asked:
                    for text in pair:
                        if text not in cache:
                            cache[text] = model.encode([text], normalize_embeddings=True)[0]

        _, baseline_s = timed(one_by_one)
        texts = sorted({text for pair in asked for text in pair})
        sample = texts[:DEFAULT_THREADS_SAMPLE]

        def default_threads() -> None:
            for text in sample:  # torch's default thread count, as the reference ran
                model.encode([text], normalize_embeddings=True)

        _, default_s = timed(default_threads)
        default_per_text = default_s / max(len(sample), 1)

    n = len(scenarios)
    successes = sum(r.score == 1.0 for r in text_scores)
    print(f"conversations: {n} ({', '.join(splits)})")
    print(f"import suite:                       {load_s * 1000:8.1f} ms")
    print(f"static play, oracle:                {play_s * 1000:8.1f} ms")
    print(f"score, oracle (no model needed):    {score_s * 1000:8.1f} ms")
    print(f"load embedding model (once):        {model_s * 1000:8.1f} ms")
    print(f"static play, reworded replay:       {replay_s * 1000:8.1f} ms")
    print(
        f"score, reworded ({len(asked)} text pairs, {similarity.encoded} texts embedded):"
        f" {text_s * 1000:8.1f} ms   ({successes}/{n} conversations still succeed)"
    )
    print(f"baseline, same texts one per call:  {baseline_s * 1000:8.1f} ms (same 1 thread)")
    print(
        f"baseline, one per call, torch default threads: {default_per_text * 1000:.1f} ms/text"
        f" on {len(sample)} texts, ~{default_per_text * len(texts):.1f} s for all {len(texts)}"
    )
    ratio = baseline_s / text_s if text_s else float("inf")
    print(f"batched scoring is {ratio:.1f}x faster than embedding one text per call")
    print(
        json.dumps(
            {
                "conversations": n,
                "oracle_play_s": round(play_s, 3),
                "oracle_score_s": round(score_s, 4),
                "model_load_s": round(model_s, 2),
                "reworded_score_s": round(text_s, 3),
                "baseline_one_by_one_s": round(baseline_s, 3),
                "speedup": round(ratio, 1),
                "default_threads_ms_per_text": round(default_per_text * 1000, 1),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
