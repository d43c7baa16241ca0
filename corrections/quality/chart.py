"""quality.svg: precision per label by month, as small multiples that read at a glance (pure).

One row per label (and a last row, the repeat rate: recurrences given / corrections), one column per
calendar month from the first month read to the last. In each cell a dot's height is the label's precision that month (bottom of the row 0 %, top 100 %), and
beside it the numbers it comes from, `kept/proposed` and the percentage, so that one proposal
dropping from 100 % to 0 % reads as `0/1`, not as a collapse. Rows never share a plot, so labels
with the same value cannot hide each other. A month in which the label was not put forward (or
nothing was read) is an empty cell and a gap in the line, never a dot at 0. Each label keeps one
colour of the Okabe-Ito palette, which people with the common colour-vision deficiencies can
tell apart (Okabe and Ito, "Color Universal Design", 2008); the label's name is written on its
row, so colour is never the only key. A longer palette would hold colours those people confuse, so
past the seventh label the colours come round again, each round with its own line (dashed, then
dotted), hollow dots and names in italics: no two of the first 21 labels look alike. The caption is wrapped to the
chart's width.
"""

from __future__ import annotations

import itertools
import textwrap
from html import escape

from assistant.untrusted import clean_line
from corrections.quality.numbers import MonthQuality, QualityReport

# Okabe-Ito, without its yellow (#F0E442), which is too light on white for thin lines and text.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
NAME_WIDTH, COLUMN, MARGIN, MIN_WIDTH = 170, 100, 16, 640
TOP, ROW, FOOT = 64, 60, 64
BAND_TOP, BAND_HEIGHT = 8, 28  # where 100 % and 0 % sit inside a row; the numbers go below
MAX_NAME = 20
# Each round of the palette: the line's dash pattern ("" solid) and whether its dots are hollow.
ROUNDS = (("", False), ("6 3", True), ("2 3", True))
NOTE_LINE, NOTE_CHAR = 14, 6.0  # a caption line's height, and a generous width of one of its characters


def _months_between(first: str, last: str) -> list[str]:
    """Every calendar month from `first` to `last` (YYYY-MM), both included."""
    year, month = int(first[:4]), int(first[5:])
    months: list[str] = []
    while f"{year:04d}-{month:02d}" <= last:
        months.append(f"{year:04d}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return months


def _name(label: str) -> str:
    text = clean_line(label)
    return escape(text if len(text) <= MAX_NAME else text[: MAX_NAME - 1] + "…")


# One cell: the ratio, and the two counts it comes from.
_Cell = tuple[float, int, int]
REPEATS_ROW = "repeats"
REPEATS_COLOUR = "#555555"


def _precision(label: str, months: list[str], by_month: dict[str, MonthQuality]) -> list[_Cell | None]:
    """A label's precision (kept/proposed) per month; None where it was not put forward: a gap."""
    cells: list[_Cell | None] = []
    for month in months:
        found = by_month.get(month)
        numbers = next((n for n in found.labels if n.label == label), None) if found else None
        if numbers is None or numbers.precision is None:
            cells.append(None)
        else:
            cells.append((numbers.precision, numbers.kept, numbers.proposed))
    return cells


def _repeat_rates(months: list[str], by_month: dict[str, MonthQuality]) -> list[_Cell | None]:
    """The repeat rate (recurrences given / corrections) per month; None where the month had no correction."""
    cells: list[_Cell | None] = []
    for month in months:
        found = by_month.get(month)
        numbers = found.recurrences if found else None
        if numbers is None or numbers.rate is None:
            cells.append(None)
        else:
            cells.append((numbers.rate, numbers.given, numbers.corrections))
    return cells


def _notes(report: QualityReport, *, repeats: bool, rounds: bool) -> list[str]:
    """The caption's sentences, each wrapped to the chart's width by the caller."""
    notes = [
        "Each row is one label: the dot is its precision that month, the numbers are precision (kept/proposed).",
        "An empty cell is a month in which the assistant did not put the label forward: a gap, not 0%.",
    ]
    if rounds:
        notes.append(
            f"Past the {len(PALETTE)}th label the colours come round again, each round with a dashed, then "
            "a dotted line, hollow dots and its names in italics."
        )
    if repeats:
        notes.append(
            "The last row, repeats: the share of the month's corrections that came back from a similar "
            "issue whose correction the model had been given (given/corrections)."
        )
    if any(not m.complete for m in report.months):
        notes.append("* partial month: the read stopped at its bound before reaching the month's start.")
    return notes


def quality_svg(report: QualityReport) -> str:
    """The chart; months without data are gaps, every value carries its counts."""
    months = _months_between(report.months[0].month, report.months[-1].month) if report.months else []
    by_month = {m.month: m for m in report.months}
    labels = report.proposed_labels()
    rows = [
        (_name(label), PALETTE[row % len(PALETTE)], _precision(label, months, by_month))
        for row, label in enumerate(labels)
    ]
    repeats = _repeat_rates(months, by_month)
    if any(cell is not None for cell in repeats):
        rows.append((REPEATS_ROW, REPEATS_COLOUR, repeats))
    width = max(MIN_WIDTH, NAME_WIDTH + COLUMN * max(1, len(months)) + MARGIN)
    lines = [
        line
        for note in _notes(report, repeats=len(rows) > len(labels), rounds=len(labels) > len(PALETTE))
        for line in textwrap.wrap(note, int((width - 2 * MARGIN) / NOTE_CHAR))
    ]
    height = TOP + ROW * max(1, len(rows)) + FOOT + NOTE_LINE * max(0, len(lines) - 2)

    def column_x(index: int) -> float:
        return NAME_WIDTH + COLUMN * index + COLUMN / 2

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f"<title>Precision per label by month: {escape(clean_line(report.repository))}</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="{MARGIN}" y="24" font-size="14" font-weight="bold">'
        "Precision per label by month (kept / proposed)</text>",
    ]
    for index, month in enumerate(months):
        found = by_month.get(month)
        name = month + ("*" if found is not None and not found.complete else "")
        colour = "#222222" if found is not None else "#999999"
        parts.append(
            f'<text x="{column_x(index):.0f}" y="{TOP - 16}" fill="{colour}" text-anchor="middle">'
            f"{escape(name)}</text>"
        )
        if found is None:
            parts.append(
                f'<text x="{column_x(index):.0f}" y="{TOP - 4}" fill="#999999" font-size="10" '
                'text-anchor="middle">no analysis read</text>'
            )
    right = NAME_WIDTH + COLUMN * max(1, len(months)) - 12
    for row, (name, colour, cells) in enumerate(rows):
        top = TOP + ROW * row
        dash, hollow = ROUNDS[row // len(PALETTE) % len(ROUNDS)] if row < len(labels) else ROUNDS[0]
        pattern = f' stroke-dasharray="{dash}"' if dash else ""
        hundred, zero = top + BAND_TOP, top + BAND_TOP + BAND_HEIGHT
        if row % 2 == 0:
            parts.append(
                f'<rect x="{MARGIN / 2:.0f}" y="{top}" width="{width - MARGIN}" height="{ROW}" fill="#f4f4f4"/>'
            )
        style = ' font-style="italic"' if hollow else ""
        parts.append(
            f'<text x="{MARGIN}" y="{top + 28}" fill="{colour}" font-weight="bold"{style}>{name}</text>'
        )
        # The row's scale: 100 % dotted, 0 % solid, both named at the left.
        parts.append(
            f'<text x="{NAME_WIDTH - 4}" y="{hundred + 4}" font-size="9" fill="#777777" text-anchor="end">100%</text>'
        )
        parts.append(
            f'<text x="{NAME_WIDTH - 4}" y="{zero + 3}" font-size="9" fill="#777777" text-anchor="end">0%</text>'
        )
        parts.append(
            f'<line x1="{NAME_WIDTH}" y1="{hundred}" x2="{right}" y2="{hundred}" stroke="#cccccc" stroke-dasharray="2 3"/>'
        )
        parts.append(f'<line x1="{NAME_WIDTH}" y1="{zero}" x2="{right}" y2="{zero}" stroke="#aaaaaa"/>')
        points: list[tuple[float, float, _Cell] | None] = [
            None if cell is None else (column_x(index), zero - BAND_HEIGHT * cell[0], cell)
            for index, cell in enumerate(cells)
        ]
        for before, after in itertools.pairwise(points):
            if before is not None and after is not None:
                parts.append(
                    f'<line x1="{before[0]:.1f}" y1="{before[1]:.1f}" x2="{after[0]:.1f}" y2="{after[1]:.1f}" '
                    f'stroke="{colour}" stroke-width="2"{pattern}/>'
                )
        for point in points:
            if point is None:
                continue
            x, y, (ratio, part, whole) = point
            look = (
                f'fill="#ffffff" stroke="{colour}" stroke-width="2"'
                if hollow
                else f'fill="{colour}" stroke="#ffffff"'
            )
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" {look}/>')
            parts.append(
                f'<text x="{x:.1f}" y="{zero + 16}" font-size="11" text-anchor="middle" fill="#222222">'
                f"{ratio:.0%} ({part}/{whole})</text>"
            )
    if not labels:
        parts.append(
            f'<text x="{width / 2:.0f}" y="{TOP + ROW / 2:.0f}" text-anchor="middle">'
            "No proposed label in the months read</text>"
        )
    foot = height - FOOT - NOTE_LINE * max(0, len(lines) - 2) + 18
    for number, line in enumerate(lines):
        parts.append(
            f'<text x="{MARGIN}" y="{foot + NOTE_LINE * number}" fill="#555555" font-size="11">{escape(line)}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
