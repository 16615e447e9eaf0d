"""Issue 24 item 8: the store's writer commits trials that queue up together, and a trial
counts as done only once its row is committed (`runs._writer`)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from toolplay.runs._trial import TrialOutcome
from toolplay.runs._writer import StoreWriter
from toolplay.store import RunStore, trajectory_path


def outcome(n: int) -> TrialOutcome:
    trajectory = {
        "scenario_id": f"s{n:02d}",
        "trial": 0,
        "messages": [],
        "termination": "completed",
    }
    return TrialOutcome(f"s{n:02d}", 0, trajectory, {"score": 1.0}, failed=False, error=None)


def test_queued_trials_share_a_commit_and_each_is_committed_before_done(tmp_path: Path) -> None:
    store = RunStore.in_dir(tmp_path, create=True, exclusive=True)
    writer = StoreWriter(store, tmp_path, {"assistant": {"name": "x"}}, total=40)
    seen_done: list[set[tuple[str, int]]] = []

    async def one(n: int) -> None:
        await writer.write(outcome(n))
        reader = RunStore.in_dir(tmp_path)  # another connection: what is on disk
        try:
            seen_done.append(reader.done())
        finally:
            reader.close()
        assert (f"s{n:02d}", 0) in seen_done[-1]

    async def all_of_them() -> None:
        await asyncio.gather(*(one(n) for n in range(40)))

    try:
        asyncio.run(all_of_them())
    finally:
        writer.close()
    assert writer.commits < 40  # they queued up: fewer transactions than trials
    assert {sid for sid, _ in store.done()} == {f"s{n:02d}" for n in range(40)}
    assert all(trajectory_path(tmp_path, f"s{n:02d}", 0).is_file() for n in range(40))
    store.close()


def test_a_failed_write_reaches_every_waiting_trial_and_none_is_done(tmp_path: Path) -> None:
    store = RunStore.in_dir(tmp_path, create=True, exclusive=True)
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("")
    writer = StoreWriter(store, blocker, {}, total=2)  # trajectories cannot go under a file

    async def both() -> list[BaseException | None]:
        results = await asyncio.gather(
            writer.write(outcome(1)), writer.write(outcome(2)), return_exceptions=True
        )
        return list(results)

    try:
        results = asyncio.run(both())
    finally:
        writer.close()
    assert all(isinstance(r, OSError) for r in results), results
    assert store.done() == set()
    store.close()


def test_closing_an_idle_writer_stops_its_thread(tmp_path: Path) -> None:
    store = RunStore.in_dir(tmp_path, create=True, exclusive=True)
    writer = StoreWriter(store, tmp_path, {}, total=0)
    writer.close()
    assert not writer._thread.is_alive()
    store.close()


def test_progress_counts_only_committed_trials_and_starts_from_the_stored_ones(
    tmp_path: Path,
) -> None:
    store = RunStore.in_dir(tmp_path, create=True, exclusive=True)
    seen: list[tuple[int, int, int]] = []

    def progress(finished: int, total: int) -> None:
        reader = RunStore.in_dir(tmp_path)  # what is on disk when progress moves
        try:
            seen.append((finished, total, len(reader.done())))
        finally:
            reader.close()

    async def all_of_them(writer: StoreWriter) -> None:
        await asyncio.gather(*(writer.write(outcome(n)) for n in range(12)))

    with StoreWriter(store, tmp_path, {}, total=15, finished=3, progress=progress) as writer:
        asyncio.run(all_of_them(writer))
    assert not writer._thread.is_alive()  # leaving the block waited for the writes
    assert [(f, t) for f, t, _ in seen] == [(n, 15) for n in range(3, 16)]
    assert all(on_disk >= finished - 3 for finished, _, on_disk in seen[1:])
    store.close()
