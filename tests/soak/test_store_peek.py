"""The crash tests' progress peek (`support.committed_keys`) beside writers in other processes.

A peek that left its connection open made the crash-safety soak flaky. The test then copied
the store's files, and closing those copies dropped every SQLite lock this process held on
them; the next `toolplay` to close the run, finding no other user, deleted the log and its
shared index, and this process went on reading through the stale index SQLite keeps per file:
a row count frozen for the rest of the run (the external kill never saw progress and signalled
a run that had already ended) or "database disk image is malformed" from a sound store.
"""

from __future__ import annotations

import gc
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from support import committed_keys, open_store_files
from toolplay.store import RunStore

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/fd").is_dir(), reason="open_store_files reads /proc/self/fd (Linux)"
)

WRITER = """
import sys
from pathlib import Path
from toolplay.store import RunStore

out, start, count = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
if (out / RunStore.FILENAME).exists():  # as `toolplay run --resume` checks the run first
    RunStore.in_dir(out).close()
store = RunStore.in_dir(out, create=True, exclusive=True)
for i in range(start, start + count):
    store.save_result(f"s{i}", 0, status="done", trajectory={"text": "x" * 3000}, score=None)
print("stored", flush=True)
sys.stdin.readline()  # the test peeks at the running writer here, then lets it go or kills it
store.close()
"""


def write(out: Path, start: int, count: int, *, killed: bool = False) -> None:
    """`count` results stored by another process as a `toolplay run` stores them, peeked at
    while it runs; then it closes the store, or is SIGKILLed (`killed`)."""
    args = [sys.executable, "-c", WRITER, str(out), str(start), str(count)]
    with subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as writer:
        assert writer.stdin is not None and writer.stdout is not None
        assert writer.stdout.readline() == "stored\n"
        assert start or len(committed_keys(out)) == start + count
        if killed:
            writer.kill()
        else:
            writer.stdin.write("\n")
            writer.stdin.flush()
        assert writer.wait(timeout=60) == (-9 if killed else 0)


def copy_store(out: Path) -> None:
    """What the crash test does between rounds: copy the store and its log aside."""
    copy = out.parent / "inspect"
    copy.mkdir(exist_ok=True)
    for path in out.glob(f"{RunStore.FILENAME}*"):
        shutil.copyfile(path, copy / path.name)


@pytest.fixture()
def no_collector() -> Iterator[None]:
    """Keep the garbage collector from closing what a peek leaves open (it runs at random)."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@pytest.mark.usefixtures("no_collector")
def test_the_peek_closes_its_connection_so_copying_the_store_cannot_blind_it(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    out.mkdir()
    write(out, 0, 20, killed=True)
    assert open_store_files(out) == []
    copy_store(out)
    write(out, 20, 50)  # the store grows; its log and index are deleted and made anew
    assert len(committed_keys(out)) == 70  # a peek sees what is on disk, not a stale index
    assert open_store_files(out) == []
    store = RunStore.in_dir(out)
    try:
        assert len(store.results()) == 70
    finally:
        store.close()
