"""Serve the test endpoint: `python -m toolplay.testing --suite quick --latency 0.05`.

It plays the reference solutions of the given suite (and their scripted users), with optional
faults, until interrupted; point `toolplay run --assistant openai:test --base-url URL` at it.
"""

from __future__ import annotations

import argparse
import contextlib
import threading
from typing import get_args

from toolplay.catalog import build_catalog
from toolplay.testing._faults import Fault, FaultPlan
from toolplay.testing._responders import ReferenceResponder, Responder, text_answers
from toolplay.testing._server import ChatServer


def main(argv: list[str] | None = None) -> None:
    """Parse arguments and serve until Ctrl-C."""
    parser = argparse.ArgumentParser(prog="python -m toolplay.testing", description=__doc__)
    parser.add_argument("--suite", default="quick", help="scenarios whose references to play")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per request")
    parser.add_argument("--parallel", action="store_true", help="one message per turn's calls")
    parser.add_argument(
        "--text",
        default=None,
        metavar="ANSWER",
        help="answer every assistant request with this text instead of the reference "
        "(short conversations: one call each)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seeds the fault draws")
    parser.add_argument("--retry-after", type=float, default=0.05)
    parser.add_argument("--hang-seconds", type=float, default=30.0)
    parser.add_argument(
        "--content-keyed",
        action="store_true",
        help="draw malformed_arguments from the request content (same prompt, same answer)",
    )
    for fault in get_args(Fault):
        parser.add_argument(
            f"--{fault.replace('_', '-')}",
            type=float,
            default=0.0,
            metavar="RATE",
            help=f"rate of {fault} faults",
        )
    args = parser.parse_args(argv)
    rates = {f: getattr(args, f) for f in get_args(Fault) if getattr(args, f)}
    plan = FaultPlan(
        rates=rates,
        seed=args.seed,
        retry_after=args.retry_after,
        hang_seconds=args.hang_seconds,
        content_keyed=args.content_keyed,
    )
    catalog = build_catalog()
    suite = catalog.load_suite(args.suite)
    responder: Responder = ReferenceResponder(
        suite.scenarios, parallel=args.parallel, catalog=catalog, presentation=suite.presentation
    )
    if isinstance(responder, ReferenceResponder):
        responder.index.prepare()  # before serving: no request waits on building setups
    if args.text is not None:
        responder = text_answers(responder, args.text)
    with ChatServer(responder, latency=args.latency, faults=plan, port=args.port) as server:
        print(f"serving {server.base_url} (Ctrl-C to stop)", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
