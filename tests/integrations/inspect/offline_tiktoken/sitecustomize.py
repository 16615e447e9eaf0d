"""Loaded by the `inspect` subprocess of the CLI mock-model test (on its PYTHONPATH only).

Inspect's `mockllm/model` counts the tokens of its default output with tiktoken's o200k_base
encoding, whose data file tiktoken downloads on first use; offline there is none. This gives
that name a byte-level encoding (one token per byte) so the count works without the network.
Token counts are usage figures only: no score or metric reads them.
"""

import tiktoken
import tiktoken.registry

tiktoken.registry.ENCODINGS.setdefault(
    "o200k_base",
    tiktoken.Encoding(
        name="o200k_base",
        pat_str=r"[\s\S]",
        mergeable_ranks={bytes([i]): i for i in range(256)},
        special_tokens={},
    ),
)
