"""The documentation's existence check (issue 21): what the docs name must exist.

Every `toolplay COMMAND` written as code (a `bash` block's line, or an inline code span) must
be a command of the CLI, and every `--option` after it an option of that command (global
options before it, `--option KEY=VALUE` keys among the run settings). An `--option` named
anywhere else in the text must be an option of some toolplay command, or belong to a program
the docs run: one in this repository (its source must contain the option) or a foreign one
listed in `FOREIGN` (Inspect, Ray, the reference's own scripts). Every relative link must
point at a file that exists, and an `#anchor` at a heading of that file.

The CLI is read from the Typer app's click command tree, never from its help text.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

import typer

ROOT = Path(__file__).resolve().parents[1]

# Options of programs outside this repository that the docs name, by program.
FOREIGN = {
    "--model": "inspect",
    "--model-role": "inspect",
    "--epochs": "inspect",
    "--fail-on-error": "inspect",
    "--no-fail-on-error": "inspect",
    "--token-limit": "inspect",
    "--head": "ray",
    "--port": "ray",
    "--address": "ray",
    "--api_mode": "ToolTalk's evaluate_openai.py (the reference's)",
    "--disable_documentation": "ToolTalk's evaluate_openai.py (the reference's)",
    "--strict": "mypy",
}
# Options of this repository's own scripts and tools named in prose, with the command line
# that runs the program defining them (its source, or its `--help`, must name the option).
OWNED = {
    "--licence": "python scripts/toolsandbox_export",
    "--format": "python scripts/toolsandbox_export",
    "--details": "python scripts/measure_user_checks.py",
    "--check": "python scripts/gen_cli_docs.py",
    "--runslow": "python tests/conftest.py",
    "--runlive": "python tests/conftest.py",
    "--baseline": "python bench/bench_call_cpu.py",
    "--reference-python": "python bench/bench_toolsandbox.py",
    "--quick": "python bench/run_all.py",
    "--latency": "python -m toolplay.testing",
    "--rate-limit": "python -m toolplay.testing",
}
# Programs outside this repository whose command lines the docs show.
FOREIGN_PROGRAMS = ("inspect", "ray", "pip", "make", "export", "mypy", "ruff", "pytest")
OPTION = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*\*?")
PLACEHOLDER = re.compile(r"^[A-Z][A-Z_]*$|[<…]|\.\.\.")


@dataclass(frozen=True)
class Cli:
    """The command tree: each command's options (option -> takes a value), the global ones."""

    commands: dict[str, dict[str, bool]]
    global_options: dict[str, bool]
    option_keys: frozenset[str]

    def any_option(self, option: str) -> bool:
        """Whether some toolplay command (or the group) has `option`."""
        known = [self.global_options, *self.commands.values()]
        return any(_known(option, options) for options in known)


@dataclass(frozen=True)
class Problem:
    """Something a document names that does not exist."""

    file: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.what}"


def _options(command: object) -> dict[str, bool]:
    """The options of a click command, each with whether it takes a value."""
    found = {"--help": False}
    for param in getattr(command, "params", []):
        if param.param_type_name != "option":
            continue
        takes_value = not (param.is_flag or getattr(param, "count", False))
        for name in (*param.opts, *param.secondary_opts):
            found[name] = takes_value
    return found


def cli_model() -> Cli:
    """The toolplay CLI as the docs may name it, read from the Typer app."""
    from toolplay.catalog import build_catalog
    from toolplay.cli import app
    from toolplay.runs import option_keys

    group = typer.main.get_command(app)
    context = group.make_context("toolplay", [], resilient_parsing=True)
    commands = {}
    for name in group.list_commands(context):
        commands[name] = _options(group.get_command(context, name))
    keys = option_keys(build_catalog([]))  # the core's settings and the components' own
    return Cli(commands, _options(group), frozenset(keys))


def documents(root: Path = ROOT) -> list[Path]:
    """The files checked: the README, docs/, each method's README and bench/README.md."""
    docs = sorted((root / "docs").glob("*.md"))
    methods = sorted((root / "src" / "toolplay" / "methods").glob("*/README.md"))
    return [root / "README.md", *docs, *methods, root / "bench" / "README.md"]


@dataclass(frozen=True)
class _Piece:
    """A part of a document: a fenced code block (with its language) or prose."""

    text: str
    line: int  # the number of its first line
    language: str | None  # None: prose


def _pieces(text: str) -> Iterator[_Piece]:
    """The document cut into prose and fenced code blocks."""
    lines: list[str] = []
    fence: str | None = None
    language: str | None = None
    start = 1
    for number, line in enumerate(text.split("\n"), start=1):
        opening = re.match(r"^\s*(```+|~~~+)\s*([\w+-]*)", line) if fence is None else None
        closing = fence is not None and line.strip().startswith(fence)
        if opening is None and not closing:
            lines.append(line)
            continue
        yield _Piece("\n".join(lines), start, language)
        lines, start = [], number + 1
        fence, language = (opening.group(1), opening.group(2)) if opening else (None, None)
    yield _Piece("\n".join(lines), start, language)


def _code_spans(prose: str) -> Iterator[tuple[int, str]]:
    """Inline code spans of prose (offset, content); a span never crosses a blank line."""
    for match in re.finditer(r"(`+)(.+?)\1", prose, re.S):
        if "\n\n" not in match.group(2):
            yield match.start(), match.group(2).replace("\\|", "|")


def _shell_lines(block: str) -> Iterator[tuple[int, str, str]]:
    """A shell block's logical lines: (line offset, command, its trailing comment)."""
    pending: list[str] = []
    first = 0
    for number, raw in enumerate(block.split("\n")):
        if not pending:
            first = number
        if raw.rstrip().endswith("\\"):
            pending.append(raw.rstrip()[:-1])
            continue
        joined = " ".join(part.strip() for part in [*pending, raw])
        pending = []
        if joined.startswith("#"):
            yield first, "", joined
            continue
        command, _, comment = joined.partition(" #")
        yield first, command.strip(), comment


@dataclass(frozen=True)
class _Program:
    """A program of this repository as the docs run it: `python PATH` or `python -m MODULE`."""

    command: str

    def files(self, root: Path) -> list[Path]:
        """Its source files (a package: every module of it); none if it does not exist."""
        words = self.command.split(" ")
        if words[1] == "-m":
            path = root / "src" / Path(*words[2].split("."))
            path = path if path.is_dir() else path.with_suffix(".py")
        else:
            path = root / words[1]
        if path.is_dir():
            return sorted(path.rglob("*.py"))
        return [path] if path.is_file() else []


def _program(words: list[str]) -> _Program | None:
    """The repository program a command line runs, if it runs one."""
    for i, word in enumerate(words[:3]):
        if word == "-m" and i + 1 < len(words) and words[i + 1].startswith("toolplay."):
            return _Program(f"python -m {words[i + 1]}")
        if word.startswith(("scripts/", "bench/", "tests/")):
            return _Program(f"python {word}")
    return None


def _known(option: str, names: Collection[str]) -> bool:
    """Whether `option` is one of `names`; a prefix (`--ci-*`) stands for every `--ci-...`.

    `names` may also be a program's source text, which must then contain the option.
    """
    if option.endswith("*"):
        prefix = option[:-1]
        return (
            prefix in names if isinstance(names, str) else any(n.startswith(prefix) for n in names)
        )
    return option in names


class Checker:
    """Checks documents against the CLI and the repository (see the module docstring)."""

    def __init__(self, cli: Cli, root: Path = ROOT) -> None:
        self.cli, self.root = cli, root
        self._helps: dict[str, str] = {}

    def check(self, path: Path) -> list[Problem]:
        """Every problem of one document: names that do not exist, links that lead nowhere."""
        text = path.read_text(encoding="utf-8")
        name = str(path.relative_to(self.root)) if path.is_relative_to(self.root) else str(path)
        return self.check_text(text, name, path.parent)

    def check_text(self, text: str, name: str, folder: Path) -> list[Problem]:
        """`check` on a document's text; `folder` is where its relative links start."""
        problems: list[Problem] = []
        own = anchors_of(text)
        for piece in _pieces(text):
            if piece.language is None:
                problems += self._prose(piece, name, folder, own)
            elif piece.language in ("bash", "sh", "shell", "console"):
                for offset, command, comment in _shell_lines(piece.text):
                    line = piece.line + offset
                    problems += [Problem(name, line, w) for w in self._command(command, True)]
                    problems += [Problem(name, line, w) for w in self._loose(comment)]
        return problems

    def _prose(self, piece: _Piece, name: str, folder: Path, own: set[str]) -> list[Problem]:
        problems = []
        rest = piece.text
        for offset, span in _code_spans(piece.text):
            line = piece.line + piece.text.count("\n", 0, offset)
            problems += [Problem(name, line, w) for w in self._command(span, False)]
            rest = rest.replace(f"`{span}`", " ", 1)
        for match in OPTION.finditer(rest):
            line = piece.line + rest.count("\n", 0, match.start())
            problems += [Problem(name, line, w) for w in self._loose(match.group(0))]
        for match in re.finditer(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", rest):
            line = piece.line + rest.count("\n", 0, match.start())
            found = self._link(match.group(1), folder, own)
            problems += [Problem(name, line, w) for w in found]
        return problems

    def _command(self, text: str, block: bool) -> list[str]:
        """What is wrong with a command line (a shell block's line or an inline code span)."""
        words = " ".join(text.split()).split(" ")
        if words[0] in ("toolplay", ".venv/bin/toolplay"):
            return self._toolplay(words[1:])
        if not OPTION.search(text):
            return []
        program = _program(words)
        if program is not None:
            return self._owned(OPTION.findall(text), program)
        if words[0] in FOREIGN_PROGRAMS or (block and "=" in words[0]):
            name = words[0] if "=" not in words[0] else words[1]
            wrong = [o for o in OPTION.findall(text) if FOREIGN.get(o) != name]
            return [f"{o}: not an option of `{name}` that the docs may name" for o in wrong]
        return self._loose(text)

    def _toolplay(self, words: list[str]) -> list[str]:
        """A `toolplay ...` line: global options, a command, its options."""
        problems = []
        i = 0
        while i < len(words) and words[i].startswith("--"):
            option = words[i].split("=")[0]
            if option not in self.cli.global_options:
                problems.append(f"{option}: no such global option of toolplay")
            i += 2 if self.cli.global_options.get(option) and "=" not in words[i] else 1
        if i >= len(words) or PLACEHOLDER.search(words[i].strip("[]")):
            return problems  # `toolplay`, `toolplay --help`, `toolplay COMMAND ...`
        command = words[i]
        if command not in self.cli.commands:
            return [*problems, f"`toolplay {command}`: no such command"]
        options = self.cli.commands[command]
        rest = " ".join(words[i + 1 :])
        for option in OPTION.findall(rest):
            if not _known(option, options):
                problems.append(f"{option}: not an option of `toolplay {command}`")
        return problems + self._keys(rest)

    def _keys(self, text: str) -> list[str]:
        """`--option KEY=VALUE` keys that are no run setting (placeholders aside)."""
        keys = re.findall(r"--option[ =]+([^\s=`\]]+)=", text)
        return [
            f"--option {key}=: no such setting"
            for key in keys
            if not PLACEHOLDER.search(key) and key not in self.cli.option_keys
        ]

    def _owned(self, options: list[str], program: _Program) -> list[str]:
        """Options of a program of this repository: its source or its `--help` names each."""
        files = program.files(self.root)
        if not files:
            return [f"`{program.command}`: no such program in the repository"]
        source = "\n".join(f.read_text(encoding="utf-8") for f in files)
        wrong = [o for o in options if not _known(o, source)]
        if wrong and "argparse" in source:
            shown = self._help(program)
            wrong = [o for o in wrong if not _known(o, shown)]
        return [f"{o}: not an option of `{program.command}`" for o in wrong]

    def _help(self, program: _Program) -> str:
        """What `PROGRAM --help` prints (argparse programs only; cached)."""
        if program.command not in self._helps:
            argv = [sys.executable, *program.command.split(" ")[1:], "--help"]
            done = subprocess.run(
                argv, cwd=self.root, capture_output=True, text=True, timeout=120, check=False
            )
            self._helps[program.command] = done.stdout
        return self._helps[program.command]

    def _loose(self, text: str) -> list[str]:
        """Options named outside a command line: toolplay's, a foreign program's, or owned."""
        problems = []
        for option in OPTION.findall(text):
            if self.cli.any_option(option) or option in FOREIGN:
                continue
            if option in OWNED:
                problems += self._owned([option], _Program(OWNED[option]))
                continue
            problems.append(f"{option}: no toolplay command has this option")
        return problems + self._keys(text)

    def _link(self, target: str, folder: Path, own: set[str]) -> list[str]:
        """A relative link: the file must exist, an anchor must be one of its headings."""
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
            return []
        path_part, _, anchor = target.partition("#")
        anchors = own
        if path_part:
            path = (folder / path_part).resolve()
            if not path.exists():
                return [f"link to {target}: no such file"]
            if not anchor:
                return []
            if path.suffix != ".md":
                return [f"link to {target}: an anchor into a file that is not Markdown"]
            anchors = anchors_of(path.read_text(encoding="utf-8"))
        if anchor and anchor not in anchors:
            return [f"link to {target}: no heading with that anchor"]
        return []


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[*_]{1,2}([^*_]+)[*_]{1,2}", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors_of(text: str) -> set[str]:
    """Every heading anchor of a Markdown document (repeated headings get -1, -2, ...)."""
    seen: dict[str, int] = {}
    anchors = set()
    for piece in _pieces(text):
        if piece.language is not None:
            continue
        for match in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", piece.text, re.M):
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            anchors.add(base if count == 0 else f"{base}-{count}")
    return anchors
