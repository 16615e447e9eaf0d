"""`--executor ray` on a local Ray instance: the same results as the local executor, and nothing
lost when a worker or the driver is killed mid-run.

One Ray instance (2 CPUs) serves the whole module; the test endpoint answers with the reference
solutions after a fixed latency, so every run of the same config has the same summary.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ray = pytest.importorskip(
    "ray", reason="the ray extra is not installed (pip install 'toolplay[ray]')"
)

from support import committed_keys, load_suite  # noqa: E402
from toolplay.clients import ModelOptions  # noqa: E402
from toolplay.runs import RunConfig, RunError, execute_run  # noqa: E402
from toolplay.runs._cache import SqliteResponseCache  # noqa: E402
from toolplay.runs._ray import RayExecutor  # noqa: E402
from toolplay.store import RunStore  # noqa: E402
from toolplay.testing import ChatServer, ReferenceResponder  # noqa: E402

QUICK = load_suite("quick").scenarios
TRIALS = 3
SEED = 100
KEYS = {(s.id, t) for s in QUICK for t in range(TRIALS)}


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local Ray instance for the module; yields its address for other drivers."""
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def server() -> Iterator[ChatServer]:
    with ChatServer(ReferenceResponder(QUICK), latency=0.1) as running:
        yield running


def config(server: ChatServer, out: Path, **update: object) -> RunConfig:
    return RunConfig.model_validate(
        {
            "suite": "quick",
            "assistant": "openai:ref",
            "out": out,
            "trials": TRIALS,
            "concurrency": 4,
            "cache": out.parent / f"{out.name}.cache.sqlite",
            "assistant_model": {"base_url": server.base_url, "seed": SEED},
            **update,
        }
    )


@pytest.fixture(scope="module")
def local_summary(server: ChatServer, tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The summary of the run played by the local executor."""
    out = tmp_path_factory.mktemp("local") / "run"
    asyncio.run(execute_run(config(server, out)))
    return (out / "summary.json").read_bytes()


def stored(out: Path) -> list[tuple[str, int, str]]:
    store = RunStore.in_dir(out)
    try:
        return [(r.scenario_id, r.trial, r.status) for r in store.results()]
    finally:
        store.close()


def scored_once(out: Path) -> bool:
    """Every scenario trial is stored exactly once, scored, with its trajectory file."""
    rows = stored(out)
    files = list((out / "trajectories").glob("*.jsonl"))
    return (
        len(rows) == len(KEYS)
        and {(s, t) for s, t, _ in rows} == KEYS
        and {status for _, _, status in rows} == {"done"}
        and len(files) == len(KEYS)
    )


def test_a_suite_on_ray_gives_the_local_executors_summary_byte_for_byte(
    cluster: str, server: ChatServer, local_summary: bytes, tmp_path: Path
) -> None:
    out = tmp_path / "ray"
    asyncio.run(execute_run(config(server, out), executor=RayExecutor(workers=2)))
    assert (out / "summary.json").read_bytes() == local_summary
    assert scored_once(out)
    # the workers answered from and filled the run's response cache
    cache = SqliteResponseCache(out.parent / "ray.cache.sqlite")
    try:
        assert len(cache) > len(KEYS)
    finally:
        cache.close()


def test_a_worker_killed_mid_run_loses_nothing(
    cluster: str, server: ChatServer, local_summary: bytes, tmp_path: Path
) -> None:
    executor = RayExecutor(workers=2)
    killed: list[int] = []

    def kill_a_worker(finished: int, total: int) -> None:
        if finished == 2 and not killed:
            os.kill(executor.pids[0], signal.SIGKILL)
            killed.append(executor.pids[0])

    out = tmp_path / "ray"
    summary = asyncio.run(
        execute_run(config(server, out), executor=executor, progress=kill_a_worker)
    )
    assert killed, "the run ended before a worker could be killed"
    assert summary.completed == len(KEYS) and summary.errors == 0
    assert scored_once(out)
    assert (out / "summary.json").read_bytes() == local_summary


def wait_for(condition: Callable[[], bool], process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 180
    while not condition() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)


def done_keys(out: Path) -> set[tuple[str, int]]:
    return committed_keys(out)


def test_the_driver_killed_mid_run_resumes_to_the_same_summary(
    cluster: str, server: ChatServer, local_summary: bytes, tmp_path: Path
) -> None:
    out = tmp_path / "ray"
    driver = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "toolplay.cli",
            "run",
            "--assistant",
            "openai:ref",
            "--base-url",
            server.base_url,
            "--seed",
            str(SEED),
            "--trials",
            str(TRIALS),
            "--concurrency",
            "4",
            "--out",
            str(out),
            "--cache",
            str(tmp_path / "ray.cache.sqlite"),
            "--executor",
            "ray",
            "--ray-address",
            cluster,
            "--ray-workers",
            "2",
        ],
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: len(done_keys(out)) >= 3, driver)
    finally:
        driver.kill()
        driver.wait(timeout=30)
    before = done_keys(out)
    assert 3 <= len(before) < len(KEYS), "the driver was not killed midway"
    assert not (out / "summary.json").exists()

    server.requests.clear()
    resumed = config(server, out, resume=True)
    asyncio.run(execute_run(resumed, executor=RayExecutor(workers=2)))
    by_opening = {s.script[0]: s.id for s in QUICK}
    replayed = {
        (by_opening[r.body["messages"][1]["content"]], r.body["seed"] - SEED)
        for r in server.requests
    }
    assert replayed.isdisjoint(before)  # nothing stored was played again
    assert scored_once(out)
    assert (out / "summary.json").read_bytes() == local_summary


def test_a_worker_that_does_not_see_the_key_variable_refuses_before_any_trial(
    cluster: str, server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # set after the Ray instance started: its workers' environment does not have it
    monkeypatch.setenv("TOOLPLAY_RAY_TEST_KEY", "sk-secret-value")
    out = tmp_path / "ray"
    keyed = config(server, out).model_copy(
        update={
            "assistant_model": ModelOptions(
                base_url=server.base_url, api_key_env="TOOLPLAY_RAY_TEST_KEY"
            )
        }
    )
    server.requests.clear()
    with pytest.raises(RunError, match="does not see TOOLPLAY_RAY_TEST_KEY") as refused:
        asyncio.run(execute_run(keyed, executor=RayExecutor(workers=1)))
    assert "sk-secret-value" not in str(refused.value)
    assert not server.requests and stored(out) == []


def test_a_trial_that_loses_its_worker_every_time_is_an_infrastructure_error(
    cluster: str, tmp_path: Path
) -> None:
    plugin = str(Path(__file__).with_name("fatal_plugin.py"))
    # one trial at a time, so only the fatal trial is in flight when its worker dies
    fatal = RunConfig(suite="quick", mode="fatal", plugins=[plugin], out=tmp_path / "ray")
    summary = asyncio.run(execute_run(fatal, executor=RayExecutor(workers=1)))
    assert summary.errors == 1 and summary.completed == len(QUICK) - 1
    (entry,) = summary.error_list
    assert entry.scenario_id == "quick_wifi_on" and "Ray worker lost" in (entry.error or "")
    assert summary.termination["infrastructure_error"] == 1
    assert {(s, status) for s, _, status in stored(tmp_path / "ray") if status == "error"} == {
        ("quick_wifi_on", "error")
    }


def test_ray_workers_play_the_run_s_suite_version(cluster: str, tmp_path: Path) -> None:
    errata = tmp_path / "errata.yaml"
    errata.write_text(
        'errata_format: 1\nentries:\n  - version: "1"\n    scenario: quick_add_contact\n'
        "    what: another user line\n    why: a change to what is played\n"
        "    set: {user.script.0: Please add Bo Li to my contacts.}\n"
    )
    runs = {}
    for name, executor in (("local", None), ("ray", RayExecutor(workers=1))):
        out = tmp_path / name
        run = RunConfig.model_validate(
            {
                "suite": "quick",
                "assistant": "oracle",
                "out": out,
                "limit": 2,
                "suite_version": {"errata": errata, "version": "1"},
            }
        )
        asyncio.run(execute_run(run, executor=executor))
        runs[name] = out
    played = (runs["ray"] / "trajectories" / "quick_add_contact.t0.jsonl").read_text()
    assert "Please add Bo Li to my contacts." in played
    assert (runs["ray"] / "summary.json").read_bytes() == (
        runs["local"] / "summary.json"
    ).read_bytes()
