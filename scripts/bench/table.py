"""Markdown tables for the benchmark report, readable as plain text in a terminal too."""
from __future__ import annotations


def number(value: float | None, digits: int = 1) -> str:
    """A measured value with thousands separators, or an em dash when there is none."""
    if value is None:
        return "—"
    return f"{value:,.{digits}f}"


def markdown(headers: list[str], rows: list[list[str]]) -> str:
    """Columns padded to their widest cell; the first column left-aligned, the rest right."""
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]

    def line(cells: list[str]) -> str:
        padded = [str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(cells, widths))]
        return "| " + " | ".join(padded) + " |"

    rule = "|" + "|".join([":" + "-" * (widths[0] + 1)] + ["-" * (w + 1) + ":" for w in widths[1:]]) + "|"
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])
