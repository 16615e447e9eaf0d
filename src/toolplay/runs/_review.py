"""`toolplay review RUN --judge SPEC`: a judge model reads each trajectory with its user's
briefing and tags the simulated user's errors (`toolplay.users._judge`).

Stored beside the run, one folder per judge: `RUN/reviews/<judge>/verdicts.jsonl` (one verdict
per trial, appended and synced as each arrives) and `review.json` (the judge, its settings, the
prompt version, and the counts). Like a run it is resumable: a review killed at any point
continues with the trials it lacks (a line cut short by the kill is dropped), and a judge call
that fails after its retries leaves its trial pending (counted, reviewed next time) rather than
recorded. With `--cache FILE` every answer is kept in the response cache, so a review of the
same run repeated elsewhere calls no model. A second review of the same run and judge at the
same time is refused (a lock file).

Only trials in which a simulator wrote a user message are reviewed; the run itself is only
read. The review's counts set the judge beside the deterministic checks: per kind, the user
messages both flagged, the judge alone, and the checks alone.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from toolplay.catalog import Catalog
from toolplay.clients import (
    ChatClient,
    ModelOptions,
    endpoint_client,
    endpoint_description,
    local_client,
    local_description,
    model_path,
)
from toolplay.faults import InfrastructureError
from toolplay.messages import Trajectory
from toolplay.runs._cache import SqliteResponseCache
from toolplay.runs._plan import catalog_for, resolve_run
from toolplay.runs._preflight import RunError
from toolplay.runs._runner import stored_config
from toolplay.runs._user_errors import KindCount
from toolplay.scenarios import Scenario
from toolplay.store import RunStore, write_json
from toolplay.users import (
    JUDGE_PROMPT_VERSION,
    JudgeVerdict,
    UserBriefing,
    UserCheck,
    UserErrors,
    judge_request,
    model_messages,
    read_verdict,
)

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no cross-process lock
    fcntl = None  # type: ignore[assignment]

logger = logging.getLogger(__name__)

REVIEWS_DIR = "reviews"
VERDICTS_FILE = "verdicts.jsonl"
REVIEW_FILE = "review.json"
DEFAULT_JUDGE_MAX_TOKENS = 1024
"""A verdict lists several errors with explanations: more room than a chat turn's default."""

Progress = Callable[[int, int], None]


class Agreement(BaseModel):
    """For one kind: user messages flagged by both the judge and the checks, or by one."""

    both: int = 0
    judge_only: int = 0
    checks_only: int = 0


class ReviewSummary(BaseModel):
    """`review.json`: who judged, with what, and what it found."""

    judge: str = Field(description="The judge spec, e.g. openai:gpt-4o-mini or local.")
    judge_settings: dict[str, Any] = Field(description="Model, endpoint, sampling (no key).")
    prompt_version: int
    reviewed: int = Field(description="Trials with a verdict.")
    malformed: int = Field(description="Verdicts refused by the strict reading (kept as such).")
    pending: int = Field(description="Trials to review still without a verdict.")
    failed: int = Field(
        default=0,
        description="Of those, the trials whose judge call failed after its retries in the "
        "last review (the others were left for later by --limit).",
    )
    errors: int = Field(description="User errors the judge tagged (well-formed verdicts).")
    by_kind: dict[str, KindCount]
    by_severity: dict[str, int]
    agreement: dict[str, Agreement] = Field(
        description="Per kind, at the level of user messages, over well-formed verdicts."
    )


@dataclass(frozen=True)
class StoredReview:
    """One judge's review of a run, as stored."""

    summary: ReviewSummary
    verdicts: list[JudgeVerdict]


def judge_slug(spec: str) -> str:
    """The folder name of a judge's review (`openai:gpt-4o` -> `openai-gpt-4o`)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", spec).strip("-") or "judge"


class VerdictFile:
    """The verdicts of one review: append-only, synced, locked (see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / VERDICTS_FILE
        self._lock = os.open(folder / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
        if fcntl is not None:
            try:
                fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(self._lock)
                raise RunError(f"{folder}: another review with this judge is running") from None

    def load(self) -> dict[tuple[str, int], JudgeVerdict]:
        """The verdicts stored so far (a last line cut short by a kill is dropped)."""
        if not self.path.exists():
            return {}
        text = self.path.read_text(encoding="utf-8")
        kept: list[str] = []
        for line in text.splitlines(keepends=True):
            if not line.endswith("\n"):
                break
            try:
                JudgeVerdict.model_validate_json(line)
            except ValidationError:
                break
            kept.append(line)
        if "".join(kept) != text:
            logger.warning("%s: dropped an unfinished last verdict (resumed)", self.path)
            self.path.write_text("".join(kept), encoding="utf-8")
        verdicts = [JudgeVerdict.model_validate_json(line) for line in kept]
        return {(v.scenario_id, v.trial): v for v in verdicts}

    def append(self, verdict: JudgeVerdict) -> None:
        """Store one verdict durably."""
        line = json.dumps(verdict.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def close(self) -> None:
        """Release the lock."""
        os.close(self._lock)


@dataclass(frozen=True)
class _Item:
    scenario: Scenario
    trajectory: Trajectory
    briefing: UserBriefing
    checked: UserErrors | None


def _items(
    run_dir: Path, catalog: Catalog | None, plugins: Sequence[str]
) -> tuple[list[_Item], Catalog]:
    """The run's scored trials in which a simulator wrote (or ended), with their briefings,
    and the catalog they were read with.
    """
    store = RunStore.in_dir(run_dir)
    try:
        config = stored_config(run_dir, store)
        results = store.results()
    finally:
        store.close()
    wanted = list(dict.fromkeys([*config.plugins, *plugins]))
    catalog = catalog_for(config.model_copy(update={"plugins": wanted}), catalog)
    plan = resolve_run(config, catalog, intent="score")  # the suite checked unchanged
    by_id = {s.id: s for s in plan.scenarios}
    checking = catalog.user_checking()
    items = []
    for result in results:
        scenario = by_id.get(result.scenario_id)
        if result.status != "done" or result.score is None or scenario is None:
            continue
        trajectory = Trajectory.model_validate(result.trajectory)
        briefing = checking.briefing(scenario)
        if not model_messages(trajectory, briefing) and trajectory.termination != "user_ended":
            continue
        stored = result.score.get("user_errors")
        checked = UserErrors.model_validate(stored) if stored else None
        items.append(_Item(scenario, trajectory, briefing, checked))
    return items, catalog


def _judge_client(
    spec: str, options: ModelOptions, cache: SqliteResponseCache | None, concurrency: int
) -> tuple[ChatClient, str, dict[str, Any]]:
    """The judge's client, the model name sent, and what is recorded about it."""
    kind, _, argument = spec.partition(":")
    settings = options.resolve(cache=cache, concurrency=concurrency)
    if kind == "openai":
        if not argument:
            raise RunError("--judge: openai needs a model name, e.g. openai:gpt-4o-mini")
        client = endpoint_client(settings, f"judge {spec}")
        return client, argument, endpoint_description(argument, settings)
    if kind == "local":
        path = model_path(argument)
        return local_client(path, settings), path.name, local_description(argument, path, settings)
    raise RunError(f"--judge: unknown judge {spec!r}; use openai:MODEL or local[:PATH.gguf]")


def _summary(
    judge: str,
    settings: dict[str, Any],
    verdicts: Sequence[JudgeVerdict],
    items: Sequence[_Item],
    failed: int,
) -> ReviewSummary:
    ok = [v for v in verdicts if v.status == "ok"]
    checked = {(i.trajectory.scenario_id, i.trajectory.trial): i.checked for i in items}
    messages: dict[str, set[tuple[str, int, int]]] = {}
    trials: dict[str, set[tuple[str, int]]] = {}
    agreement: dict[str, Agreement] = {}
    for verdict in ok:
        key = (verdict.scenario_id, verdict.trial)
        judged = {(e.message_index, e.kind) for e in verdict.errors}
        found = checked.get(key)
        rules = {(e.message_index, e.kind) for e in found.errors} if found else set()
        for index, kind in judged:
            messages.setdefault(kind, set()).add((*key, index))
            trials.setdefault(kind, set()).add(key)
        for _, kind in judged | rules:
            agreement.setdefault(kind, Agreement())
        for index, kind in judged | rules:
            record = agreement[kind]
            if (index, kind) in judged and (index, kind) in rules:
                record.both += 1
            elif (index, kind) in judged:
                record.judge_only += 1
            else:
                record.checks_only += 1
    severities = Counter(e.severity for v in ok for e in v.errors)
    done = {(v.scenario_id, v.trial) for v in verdicts}
    return ReviewSummary(
        judge=judge,
        judge_settings=settings,
        prompt_version=JUDGE_PROMPT_VERSION,
        reviewed=len(verdicts),
        malformed=len(verdicts) - len(ok),
        pending=sum(1 for key in checked if key not in done),
        failed=failed,
        errors=sum(len(v.errors) for v in ok),
        by_kind={
            k: KindCount(messages=len(messages[k]), trials=len(trials[k])) for k in sorted(messages)
        },
        by_severity={s: severities.get(s, 0) for s in ("helped", "hindered", "minor")},
        agreement=dict(sorted(agreement.items())),
    )


async def review_run(
    run_dir: Path,
    judge: str,
    options: ModelOptions | None = None,
    *,
    cache: Path | None = None,
    concurrency: int = 1,
    limit: int | None = None,
    catalog: Catalog | None = None,
    plugins: Sequence[str] = (),
    progress: Progress | None = None,
) -> ReviewSummary:
    """Review a stored run with a judge model (see the module docstring).

    Args:
        run_dir: The run directory (only read).
        judge: `openai:MODEL` (any OpenAI-compatible endpoint: `options.base_url`) or
            `local[:PATH.gguf]`.
        options: The judge's model options (endpoint, key variable, sampling, retries).
        cache: A response cache file.
        concurrency: Trials judged at once.
        limit: Review at most this many trials (in the run's order); later calls add more.
        catalog: Where the checks and fact sources come from (default: the run's plugins).
        plugins: More plugins to load.
        progress: Called with (reviewed, total) as verdicts arrive.
    """
    items, catalog = _items(run_dir, catalog, plugins)
    checks: tuple[UserCheck, ...] = catalog.user_checking().checks
    options = options or ModelOptions()
    if options.temperature is None:
        options = options.model_copy(update={"temperature": 0.0})
    if options.max_tokens is None:
        options = options.model_copy(update={"max_tokens": DEFAULT_JUDGE_MAX_TOKENS})
    folder = run_dir / REVIEWS_DIR / judge_slug(judge)
    store = VerdictFile(folder)
    response_cache = SqliteResponseCache(cache) if cache is not None else None
    client = None
    try:
        client, model, settings = _judge_client(judge, options, response_cache, concurrency)
        verdicts = store.load()
        todo = [i for i in items if (i.trajectory.scenario_id, i.trajectory.trial) not in verdicts]
        todo = todo[:limit] if limit is not None else todo
        total, finished = len(verdicts) + len(todo), len(verdicts)
        gate = asyncio.Semaphore(max(1, concurrency))
        sampling = {k: settings.get(k) for k in ("temperature", "seed", "max_tokens")}
        chat = client
        failed = 0

        async def judge_one(item: _Item) -> None:
            nonlocal finished, failed
            request = judge_request(model, item.trajectory, item.briefing, checks, sampling)
            async with gate:
                try:
                    reply = await chat.complete(request, trial=item.trajectory.trial)
                except InfrastructureError as exc:
                    logger.warning(
                        "judge %s failed on %s trial %d (left pending): %s",
                        judge,
                        item.trajectory.scenario_id,
                        item.trajectory.trial,
                        exc,
                    )
                    failed += 1
                    return
            verdict = read_verdict(
                item.trajectory, item.briefing, checks, reply.content, reply.tool_calls
            )
            store.append(verdict)
            verdicts[(verdict.scenario_id, verdict.trial)] = verdict
            finished += 1
            if progress:
                progress(finished, total)

        if progress:
            progress(finished, total)
        await asyncio.gather(*(judge_one(i) for i in todo))
        ordered = [verdicts[k] for k in sorted(verdicts)]
        summary = _summary(judge, settings, ordered, items, failed)
        write_json(folder / REVIEW_FILE, summary.model_dump(mode="json"))
        return summary
    finally:
        store.close()
        if client is not None:
            await client.aclose()
        if response_cache is not None:
            response_cache.close()


def load_reviews(run_dir: Path) -> list[StoredReview]:
    """Every judge's review stored beside a run (unreadable ones are skipped with a warning)."""
    found = []
    for folder in sorted((run_dir / REVIEWS_DIR).glob("*")):
        summary_path, verdicts_path = folder / REVIEW_FILE, folder / VERDICTS_FILE
        if not summary_path.is_file():
            continue
        try:
            summary = ReviewSummary.model_validate_json(summary_path.read_text(encoding="utf-8"))
            lines = verdicts_path.read_text(encoding="utf-8").splitlines()
            verdicts = [JudgeVerdict.model_validate_json(line) for line in lines if line.strip()]
        except (OSError, ValidationError) as exc:
            logger.warning("%s: unreadable review, left out (%s)", folder, exc)
            continue
        found.append(StoredReview(summary, verdicts))
    return found
