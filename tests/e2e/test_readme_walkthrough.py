"""A new user's first hour (issues 14, 21, 24): the docs' commands, in order, from a fresh clone.

The repository's files are copied into `WORK/toolplay` beside `WORK/shared` (the reference
data, as in the docs' `../shared/...` paths), and every command of the `bash` blocks of
README.md, then docs/*.md (in the order the README's table of documents lists them), then
src/toolplay/methods/*/README.md runs there, in that order, as a real process: `toolplay`
through `toolplay_process`, a shell command (`printf ... >`) and `inspect eval` through bash
with the venv first on PATH. A `python` block whose first line is `# NAME.py` is that file,
written into the clone before the commands run (docs/comparing.md's `coin.py` plugin,
docs/getting-started.md's `my_agent.py` assistant). Each command has a rule: what the docs say
it prints (numbers and scores included: those quoted in the text are read from it) and its
exit status, or why it cannot run here (a placeholder such as `MODEL`, a key, a cluster) —
those that need a key are still run, to check they are refused before any call. A command
without a rule fails the test, so a new command gets its check.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import CliResult, ToolplayProcess

REPO = Path(__file__).parents[2]
SHARED = (REPO / ".." / "shared").resolve()
BIN = Path(sys.executable).parent
README = REPO / "README.md"


def documents() -> list[Path]:
    """The files whose commands are run, in reading order: the README, then docs/ in the order
    the README's table of documents lists them (a page may use runs an earlier one made), any
    other page of docs/, then each method's README.
    """
    table = README.read_text(encoding="utf-8").split("\n## Documentation\n", 1)[1]
    listed = re.findall(r"\]\((docs/[\w-]+\.md)\)", table)
    docs = [REPO / name for name in dict.fromkeys(listed)]
    docs += [path for path in sorted((REPO / "docs").glob("*.md")) if path not in docs]
    methods = sorted((REPO / "src" / "toolplay" / "methods").glob("*/README.md"))
    return [README, *docs, *methods]


@dataclass(frozen=True)
class Rule:
    """What the docs say a command does (`expect`, exit `code`), or why it is skipped."""

    pattern: str
    expect: tuple[str, ...] = ()
    code: int = 0
    skip: str = ""
    needs_shared: bool = False


KEY = ("OPENAI_API_KEY is not set", "--api-key-env")
RULES = [
    Rule(r"^make (run|test)\b", skip="builds .venv (the Makefile's own targets)"),
    Rule(r"(^|\s)ray start|--ray-address HEAD", skip="needs a Ray cluster (see tests/runs)"),
    Rule(r"^export OPENAI_API_KEY=", skip="a new user without a key: the next runs are refused"),
    Rule(r"^toolplay run .*\.\.\.", skip="elided command (`...`)"),
    Rule(r"openai:(MODEL|USER_MODEL)|replay:OUTPUTS|--base-url URL", skip="placeholder"),
    Rule(r"^toolplay run .*--assistant openai:gpt-4o-mini", expect=KEY, code=2),
    Rule(r"^toolplay validate --suite tooltalk:", ("passed validation",), needs_shared=True),
    Rule(
        r"^toolplay run --suite tooltalk:\S+ --assistant oracle",
        ("success_rate", "1.000", "Run written to runs/tt-oracle"),
        needs_shared=True,
    ),
    Rule(r"^toolplay compare runs/tt-sta runs/tt-dyn", skip="compares runs that need a model"),
    Rule(r"^toolplay run --suite quick --assistant python:my_agent:respond", ("similarity",)),
    Rule(r"^printf .* > human\.csv$"),
    Rule(r"^toolplay suites$", ("toolsandbox", "1032 scenarios")),
    Rule(r"^toolplay validate --suite toolsandbox$", ("ok: 1032 scenario(s)", "passed validation")),
    Rule(r"^toolplay run --suite toolsandbox --assistant openai:gpt-4o\S* ", expect=KEY, code=2),
    Rule(r"^REF_VENV/bin/python scripts/toolsandbox_export", skip="needs the reference's venv"),
    Rule(r"^toolplay validate --suite autode( |$)", ("ok: 165 scenario(s)", "passed validation")),
    Rule(r"^toolplay compare runs/sta runs/dyn", skip="compares runs that need a model"),
    Rule(r"^toolplay audit RUN_DIR", skip="the command's synopsis (placeholders)"),
    Rule(
        r"^toolplay (run --suite autode-data:\S+ (--mode static )?--out|audit) runs/"
        r"(u_gpt35_a_codellama13b_oasst_1round|u_llama7b_a_codellama13b_oasst_4rounds"
        r"|a_llama70b_substitute_static_force_5rounds|a_zephyr_7b_alpha_static_vllm_1round)\b",
        skip="docs/audit.md's example: tests/analysis/test_audit_autode.py replays the four "
        "files, audits them and checks the numbers the page quotes",
    ),
    Rule(r"openai:meta-llama/", skip="needs the paper's Llama-2-70B served at 127.0.0.1:8000"),
    Rule(
        r"^toolplay run --suite tooltalk:\S+ --assistant openai:gpt-4-0613",
        expect=KEY,
        code=2,
        needs_shared=True,
    ),
    Rule(r"^AUTODE=", skip="sets a variable"),
    Rule(r"^toolplay validate --suite autode-data:", ("ok: 276 scenario(s)",), needs_shared=True),
    Rule(
        r"^toolplay run --suite autode-data:\S+ --out runs/u_llama7b_a_codellama13b",
        ("0.563", "0.588", "0.566", "0.566 ± 0.023", "Round limit reached"),
        needs_shared=True,
    ),
    Rule(
        r"^toolplay run --suite autode-data:\S+ --mode static --out runs/a_zephyr_static",
        ("0.561", "0.556", "0.557"),
        needs_shared=True,
    ),
    Rule(r"^toolplay compare human:llama70b=", skip="needs human and dynamic runs of 3 models"),
    Rule(r"^pip install", skip="installs (make test has the inspect extra installed)"),
    Rule(r"^inspect eval toolplay/sandbox +--model mockllm/model", ("similarity",)),
    Rule(r"^inspect (eval|view)", skip="placeholder model or a viewer (tests/integrations)"),
    Rule(
        r"^toolplay (import-inspect|report runs/inspect|compare runs/inspect)",
        skip="an Inspect log",
    ),
    Rule(
        r"^toolplay review runs/ts-local --judge",
        skip="reviews a run played with a simulated user (tests/e2e/test_review.py does it)",
    ),
    Rule(r"^toolplay run --suite quick --assistant no-call --out runs/no-call", ("completed",)),
    Rule(r"^toolplay report runs/no-call", ("Report written to runs/no-call/report.html",)),
    Rule(r"^toolplay --plugin coin.py run .*coin:steady", ("similarity",)),
    Rule(r"^toolplay --plugin coin.py run .*coin:shak", ("similarity",)),
    Rule(
        r"^toolplay compare runs/steady runs/shaky",
        ("Paired differences: a = steady, b = shaky", "Comparison written to compare.html"),
    ),
    Rule(r"^toolplay run --suite quick --assistant oracle\s+--out runs/oracle", ("1.000",)),
    Rule(
        r"^toolplay compare runs/oracle runs/no-call$",
        ("Agreement per scenario", "Paired differences: a = oracle, b = no-call"),
    ),
    Rule(
        r"^toolplay compare runs/oracle runs/my-agent --human human.csv",
        ("Agreement per scenario", "human", "Comparison written to compare.html"),
    ),
]


def said_for_steady(text: str) -> tuple[str, ...]:
    """What the docs say the `steady` run prints (its prose and trials table)."""
    prose = re.search(
        r"The `steady` run prints `similarity ([\d.]+)` with its `95% CI ([\d.–]+)`, "
        r"pass\^3 ([\d.]+)\s+\(([\d.–]+)\)",
        text,
    )
    assert prose is not None, "the sentence about the steady run changed"
    table = re.findall(r"^\| (3|6|unlimited) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$", text, re.M)
    assert len(table) == 3
    return (*prose.groups(), *(cell for row in table for cell in row[1:]))


def said_for_compare(text: str) -> list[list[str]]:
    """The rows of the docs' `compare runs/steady runs/shaky` output block, as cells."""
    block = re.search(r"```\nPaired differences: a = steady, b = shaky\n(.*?)```", text, re.S)
    assert block is not None, "the compare output block changed"
    rows = []
    for line in block.group(1).splitlines():
        cells = re.findall(r"\[[^]]+\]|\S+", line)
        if len(cells) == 8:
            rows.append(cells)
    assert len(rows) == 5
    return rows


def readme_commands(text: str) -> list[str]:
    """Every command line of a document's `bash` blocks, continuations joined, in order."""
    found: list[str] = []
    for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#.*$", "", line.strip())  # a trailing comment
            if line and not line.startswith("#"):
                found.append(re.sub(r"\s+", " ", line))
    return found


def loops(commands: list[str]) -> list[str]:
    """`for a in X Y; do` ... `done` unrolled (the docs' loop over three assistants)."""
    out: list[str] = []
    i = 0
    while i < len(commands):
        match = re.fullmatch(r"for (\w+) in (.+); do", commands[i])
        if match is None:
            out.append(commands[i])
            i += 1
            continue
        end = commands.index("done", i)
        for value in match.group(2).split():
            out += [c.replace(f"${match.group(1)}", value) for c in commands[i + 1 : end]]
        i = end + 1
    return out


def fresh_clone(root: Path) -> Path:
    """The repository's files (tracked and new, not ignored) in `root/toolplay`."""
    names = (
        subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=REPO,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    clone = root / "toolplay"
    for name in filter(None, names):
        source = REPO / name
        if source.is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, clone / name)
    if SHARED.is_dir():
        (root / "shared").symlink_to(SHARED)
    return clone


def python_files(text: str) -> dict[str, str]:
    """The `python` blocks that open with `# NAME.py`: the files they are, by name."""
    found = {}
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        if match := re.match(r"# (\S+\.py)\n", block):
            found[match.group(1)] = block
    return found


def quoted(text: str, pattern: str) -> str:
    """A number the docs quote (the first group of `pattern` in `text`)."""
    match = re.search(pattern, text, re.S)
    assert match is not None, f"the docs no longer say {pattern!r}"
    return match.group(1)


def said_for(command: str, text: str) -> tuple[str, ...]:
    """Numbers the docs quote for what `command` prints, beyond its rule's."""
    if "coin:steady" in command:
        return said_for_steady(text)
    if "python:my_agent:respond" in command:
        return (quoted(text, r"my-agent\n```\n\nprints `similarity ([\d.]+)`"),)
    if command.startswith("toolplay compare runs/oracle runs/my-agent"):
        return (quoted(text, r"disagree, Pearson `(-?[\d.]+)`"),)
    return ()


def shell(command: str, cwd: Path) -> CliResult:
    """A command of the docs that is not `toolplay`, run by bash with the venv first on PATH."""
    env = {**ToolplayProcess.environment(), "PATH": f"{BIN}:{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    return CliResult(done.returncode, done.stdout, done.stderr)


def test_the_readme_commands_work_as_the_readme_says(
    toolplay_process: ToolplayProcess, tmp_path: Path
) -> None:
    texts = [path.read_text(encoding="utf-8") for path in documents()]
    text = "\n".join(texts)
    clone = fresh_clone(tmp_path)
    for name, source in python_files(text).items():
        (clone / name).write_text(source, encoding="utf-8")
    variables: dict[str, str] = {}
    ran: list[str] = []
    for command in loops([c for t in texts for c in readme_commands(t)]):
        rules = [r for r in RULES if re.search(r.pattern, command)]
        assert rules, f"command of the docs without a walk-through rule: {command}"
        rule = rules[0]
        if assignment := re.fullmatch(r"([A-Z_]+)=(\S+)", command):
            variables[assignment.group(1)] = assignment.group(2)
        if rule.skip or (rule.needs_shared and not SHARED.is_dir()):
            continue
        if command.startswith("inspect ") and not (BIN / "inspect").exists():
            continue  # the optional extra (make test installs it)
        line = re.sub(r"\$(\w+)", lambda m: variables.get(m.group(1), m.group(0)), command)
        args = shlex.split(line)
        env_key = os.environ.pop("OPENAI_API_KEY", None)
        try:
            if args[0] == "toolplay":
                result = toolplay_process(*args[1:], cwd=clone, timeout=600)
            else:
                result = shell(line, clone)
        finally:
            if env_key is not None:
                os.environ["OPENAI_API_KEY"] = env_key
        said = result.stdout + result.stderr
        assert result.code == rule.code, f"{command}\n{said[-3000:]}"
        for needle in (*rule.expect, *said_for(command, text)):
            assert needle in said, f"{command}: {needle!r} not printed\n{said[-3000:]}"
        if command.startswith("toolplay compare runs/steady runs/shaky"):
            for row in said_for_compare(text):
                assert any(all(cell in out for cell in row) for out in said.splitlines()), row
        ran.append(command)
    assert len(ran) >= 14, ran
    assert (clone / "runs/no-call/report.html").is_file()
    assert not (clone / "runs/gpt4o-mini").exists()  # refused before anything was written


@pytest.mark.parametrize("command", ["toolplay validate --suite autode # dynamic"])
def test_readme_commands_are_read_with_comments_and_continuations(command: str) -> None:
    text = f"```bash\n{command}\ntoolplay run --a \\\n    --b x\n```\n"
    assert readme_commands(text) == ["toolplay validate --suite autode", "toolplay run --a --b x"]
