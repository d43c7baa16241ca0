"""quality.md, quality.json and quality.svg from a QualityReport (pure).

The chart is hand-written SVG: one line of precision per label over the months read.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from corrections.quality import LabelNumbers, MonthQuality, QualityReport
from corrections.untrusted import clean_line

WIDTH, HEIGHT = 720, 360
LEFT, RIGHT, TOP, BOTTOM = 56, 170, 40, 48
# Colour-blind friendly (Okabe-Ito), then greys.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _label(numbers: LabelNumbers) -> dict[str, Any]:
    return {
        "label": numbers.label,
        "proposed": numbers.proposed,
        "kept": numbers.kept,
        "removed": numbers.removed,
        "added": numbers.added,
        "precision": None if numbers.precision is None else round(numbers.precision, 4),
        "recall": None if numbers.recall is None else round(numbers.recall, 4),
    }


def _month(month: MonthQuality) -> dict[str, Any]:
    return {
        "month": month.month,
        "complete": month.complete,
        "analyses": month.analyses,
        "corrected": month.corrected,
        "labels": [_label(n) for n in month.labels],
        "all_labels": _label(month.all_labels),
        "duplicates": {
            "confirmed": month.duplicates_confirmed,
            "objected": month.duplicates_objected,
            "open": month.duplicates_open,
        },
        "thumbs_down": {"counted": month.thumbs_down, "analyses": month.thumbs_down_analyses},
    }


def quality_json(report: QualityReport, month: str, cost: dict[str, int]) -> str:
    """quality.json: every month read; `month` is the one quality.md details."""
    document = {
        "v": 1,
        "repository": report.repository,
        "month": month,
        "complete_after": None
        if report.complete_after is None
        else report.complete_after.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "note": report.note,
        "months": [_month(m) for m in report.months],
        "cost": cost,
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _find(report: QualityReport, month: str) -> MonthQuality | None:
    return next((m for m in report.months if m.month == month), None)


def _row(numbers: LabelNumbers, bold: bool = False) -> str:
    name = f"`{clean_line(numbers.label)}`" if not bold else "**all labels**"
    cells = [
        name,
        str(numbers.proposed),
        str(numbers.kept),
        str(numbers.removed),
        str(numbers.added),
        _ratio(numbers.precision),
        _ratio(numbers.recall),
    ]
    return "| " + " | ".join(cells) + " |"


def quality_md(report: QualityReport, month: str, max_analyzed: int, scan_pages: int) -> str:
    """quality.md: the month's numbers, their definitions, and precision per label over the months."""
    lines = [f"# Quality of first analyses in {report.repository}: {month}", ""]
    found = _find(report, month)
    if report.note:
        lines += [f"> Note: {report.note}", ""]
    if found is None:
        lines += [f"No first analysis in {month} among the issues read.", ""]
    else:
        if not found.complete:
            lines += [
                "> This month is partial: the read stopped at its bound before reaching the issues "
                "last active at its start.",
                "",
            ]
        lines += [
            f"- First analyses: {found.analyses} (created in {month}, UTC)",
            f"- Corrected: {found.corrected} (the same rules as `corrections.md`)",
            f"- Duplicate notices: {found.duplicates_confirmed} confirmed, "
            f"{found.duplicates_objected} objected to, {found.duplicates_open} open",
            f"- 👎 counted (people with push access): {found.thumbs_down}, on "
            f"{found.thumbs_down_analyses} {'analysis' if found.thumbs_down_analyses == 1 else 'analyses'}",
            "",
            "| Label | Proposed | Kept | Removed | Added | Precision | Recall |",
            "|---|---:|---:|---:|---:|---:|---:|",
            *[_row(n) for n in found.labels],
            _row(found.all_labels, bold=True),
            "",
        ]
    lines += [
        "Proposed: the first analysis named the label or the assistant applied it. Removed: a person "
        "removed it after the analysis (and did not undo that). Kept: proposed and not removed. Added: a "
        "person added a label the assistant had not put forward. Precision = kept / proposed; "
        "recall = kept / (kept + added).",
        "",
        "## Precision per label, by month",
        "",
        "![Precision per label by month](quality.svg)",
        "",
    ]
    labels = _labels_over_months(report)
    if labels:
        header = ["Label", *[m.month + ("" if m.complete else " (partial)") for m in report.months]]
        lines += ["| " + " | ".join(header) + " |", "|---|" + "---:|" * len(report.months)]
        for label in labels:
            cells = [f"`{clean_line(label)}`"]
            for m in report.months:
                numbers = next((n for n in m.labels if n.label == label), None)
                cells.append(_ratio(numbers.precision) if numbers else "-")
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    edge = (
        "every issue of the repository was read"
        if report.complete_after is None
        else f"every issue active after {report.complete_after:%Y-%m-%d %H:%M} UTC was read"
    )
    lines += [
        f"Read: the first analyses of at most {max_analyzed} issues, most recently active first, found in "
        f"at most {scan_pages} pages of 100 issues; {edge}.",
        "",
    ]
    return "\n".join(lines)


def _labels_over_months(report: QualityReport) -> list[str]:
    seen: list[str] = []
    for month in report.months:
        for numbers in month.labels:
            if numbers.proposed and numbers.label not in seen:
                seen.append(numbers.label)
    return seen


def quality_svg(report: QualityReport) -> str:
    """A line chart of precision (0 to 100 %) per label over the months read."""
    months = [m.month for m in report.months]
    labels = _labels_over_months(report)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    inset = 30  # keeps the first and last month's points off the axis
    step = (plot_w - 2 * inset) / max(1, len(months) - 1)

    def x(index: int) -> float:
        return LEFT + (inset + index * step if len(months) > 1 else plot_w / 2)

    def y(value: float) -> float:
        return TOP + plot_h * (1 - value)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
        f"<title>Precision per label by month: {escape(clean_line(report.repository))}</title>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        f'<text x="{LEFT}" y="24" font-size="14">Precision per label (kept / proposed)</text>',
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<line x1="{LEFT}" y1="{y(tick):.1f}" x2="{LEFT + plot_w}" y2="{y(tick):.1f}" stroke="#dddddd"/>'
        )
        parts.append(f'<text x="{LEFT - 8}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:.0%}</text>')
    for index, month in enumerate(report.months):
        name = month.month + ("*" if not month.complete else "")
        parts.append(
            f'<text x="{x(index):.1f}" y="{TOP + plot_h + 20}" text-anchor="middle">{escape(name)}</text>'
        )
    for number, label in enumerate(labels):
        colour = PALETTE[number % len(PALETTE)]
        dash = "" if number < len(PALETTE) else ' stroke-dasharray="4 3"'
        points: list[tuple[float, float]] = []
        for index, month in enumerate(report.months):
            numbers = next((n for n in month.labels if n.label == label), None)
            if numbers is not None and numbers.precision is not None:
                points.append((x(index), y(numbers.precision)))
        if len(points) > 1:
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        for px, py in points:
            parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3.5" fill="{colour}"/>')
        legend_y = TOP + 6 + number * 18
        parts.append(
            f'<line x1="{WIDTH - RIGHT + 16}" y1="{legend_y}" x2="{WIDTH - RIGHT + 36}" y2="{legend_y}" '
            f'stroke="{colour}" stroke-width="2"{dash}/>'
        )
        parts.append(
            f'<text x="{WIDTH - RIGHT + 42}" y="{legend_y + 4}">{escape(clean_line(label)[:18])}</text>'
        )
    if not labels:
        parts.append(
            f'<text x="{LEFT + plot_w / 2:.1f}" y="{TOP + plot_h / 2:.1f}" text-anchor="middle">'
            "No proposed label in the months read</text>"
        )
    if any(not m.complete for m in report.months):
        parts.append(f'<text x="{LEFT}" y="{HEIGHT - 8}" fill="#555555">* partial month</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
