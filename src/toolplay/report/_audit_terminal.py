"""`toolplay audit` in the terminal: the runs, the flags with their rules, the most suspect
scenarios.

The scenario table is laid out by hand rather than as a rich table, so that at 80 columns no
scenario id and no number is ever cut: six numbers of six characters take 42 columns, and an
id that does not fit beside them gets a line of its own with the numbers under it. The flags of
each scenario follow on indented lines (words wrap; ids and values are single words).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from toolplay.analysis import Audit, ScenarioAudit

__all__ = ["render_audit"]

_COLUMNS = ("solve", "mean", "floor", "ceil", "trial±", "discr")
_WIDTH = 6
_GAP = 1


def _num(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.2f}" if signed else f"{value:.2f}"


def _numbers(item: ScenarioAudit) -> list[str]:
    return [
        _num(item.solve_rate),
        _num(item.mean),
        _num(item.floor),
        _num(item.ceiling),
        _num(item.trial_disagreement),
        _num(item.discrimination.r, signed=True),
    ]


def _cells(cells: Sequence[str]) -> str:
    return "".join(" " * _GAP + cell.rjust(_WIDTH) for cell in cells)


def _runs(audit: Audit, console: Console) -> None:
    for run in audit.runs:
        line = Text(f"  {run.role:<8}", style="dim")
        line.append(run.label, style="bold")
        console.print(line, overflow="fold")
        mean = "-" if run.mean is None else f"{run.mean:.3f}"
        played = " · played by the audit" if run.played else ""
        facts = Text(
            f"{run.mode} · {run.trials} trial(s) · {run.scenarios} scenarios · mean {mean}{played}",
            style="dim",
        )
        console.print(Padding(facts, (0, 0, 0, 10)))


def _flags(audit: Audit, console: Console) -> None:
    table = Table(
        title="Flags (each scenario can carry several)",
        title_justify="left",
        title_style="bold",
        header_style="dim",
    )
    table.add_column("flag", no_wrap=True)
    table.add_column("weight", justify="right", no_wrap=True)
    table.add_column("scenarios", justify="right", no_wrap=True)
    table.add_column("rule")
    for rule in audit.rules:
        table.add_row(
            Text(rule.code),
            Text(str(rule.weight)),
            Text(str(audit.flag_counts.get(rule.code, 0))),
            Text(rule.rule),
        )
    console.print(table)


def _scenarios(items: Sequence[ScenarioAudit], console: Console) -> None:
    numbers = len(_COLUMNS) * (_WIDTH + _GAP)
    room = console.width - numbers - 2
    widest = max((len(i.id) for i in items), default=0)
    inline = widest <= room
    id_width = widest if inline else 0
    header = Text("  " + "scenario".ljust(id_width) + _cells(_COLUMNS), style="dim")
    console.print(header, no_wrap=True, overflow="ignore")
    for item in items:
        if inline:
            line = Text("  ")
            line.append(item.id.ljust(id_width), style="bold")
            line.append(_cells(_numbers(item)))
            console.print(line, no_wrap=True, overflow="ignore")
        else:
            console.print(Text("  " + item.id, style="bold"), overflow="fold")
            console.print(Text("  " + _cells(_numbers(item))), no_wrap=True, overflow="ignore")
        for flag in item.flags:
            line = Text(flag.code, style="yellow")
            line.append(f": {flag.detail}")
            console.print(Padding(line, (0, 0, 0, 6)))


def render_audit(audit: Audit, console: Console, *, top: int = 20) -> None:
    """Print the audit: runs, flags and rules, then the `top` most suspect scenarios.

    Args:
        audit: The result of `audit_runs`.
        console: Where to print.
        top: How many flagged scenarios to list (all of them are in the files).
    """
    title = Text("toolplay audit", style="bold")
    title.append(
        f" · {audit.suite} · suite version {audit.suite_version} · {audit.scenarios} "
        f"scenarios · {audit.flagged} flagged"
    )
    console.print(title)
    _runs(audit, console)
    _flags(audit, console)
    flagged = [i for i in audit.items if i.flags][:top]
    if flagged:
        console.print(
            Text(
                f"Most suspect scenarios ({len(flagged)} of {audit.flagged} flagged)",
                style="bold",
            )
        )
        _scenarios(flagged, console)
        console.print(
            Text(
                "solve: share of the runs' trials passed · mean: mean score · floor, ceil: "
                "no-call's and the oracle's score · trial±: trial disagreement · discr: "
                "discrimination r (item-rest correlation over the runs)",
                style="dim",
            )
        )
    for note in audit.notes:
        console.print(Text(f"note: {note}", style="dim"))
