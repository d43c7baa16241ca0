"""quality.md and quality.json from a QualityReport (pure); the chart is in quality_chart."""

from __future__ import annotations

import json
from typing import Any

from assistant.untrusted import clean_line
from corrections.quality.numbers import MonthQuality, QualityReport, per_100
from corrections.quality.recurrences import NEAREST
from corrections.rules import duplicates, labels, thumbs
from corrections.rules.labels import LabelNumbers

TIME = "%Y-%m-%dT%H:%M:%SZ"


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
        "covers_after": None if month.covers_after is None else month.covers_after.strftime(TIME),
        "analyses": month.analyses,
        "corrected": month.corrected,
        "labels": [_label(n) for n in month.labels],
        "all_labels": _label(month.all_labels),
        "duplicates": {
            "confirmed": month.duplicates_confirmed,
            "objected": month.duplicates_objected,
            "objected_by_other": month.duplicates_objected_by_other,
            "open": month.duplicates_open,
        },
        "thumbs_down": {"counted": month.thumbs_down, "analyses": month.thumbs_down_analyses},
        "recurrences": {
            "corrections": month.recurrences.corrections,
            "analyses": month.recurrences.analyses,
            "given": month.recurrences.given,
            "not_given": month.recurrences.not_given,
            "uncorrected": month.recurrences.uncorrected,
        },
        "repeats": month.recurrences.given,  # deprecated: the old name of recurrences given
        "contexts_partial": month.recurrences.contexts_partial,
        "contexts_whole_after": None
        if month.contexts_whole_after is None
        else month.contexts_whole_after.strftime(TIME),
        "receipts": month.receipts,
        "second_look": {
            "analyses": month.second_look.analyses,
            "duplicates": month.second_look.duplicates,
            "labels": month.second_look.labels,
        },
    }


def quality_json(report: QualityReport, month: str, cost: dict[str, int]) -> str:
    """quality.json: every month read; `month` is the one quality.md details."""
    document = {
        "v": 1,
        "repository": report.repository,
        "month": month,
        "complete_after": None if report.complete_after is None else report.complete_after.strftime(TIME),
        "note": report.note,
        "months": [_month(m) for m in report.months],
        "cost": cost,
    }
    if report.month_read is not None:
        read = report.month_read
        document["budget"] = {"points": read.budget, "spent": read.spent, "ended": read.budget_ended}
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
            edge = f"{found.covers_after:%Y-%m-%d %H:%M} UTC" if found.covers_after else "its bound"
            read = report.month_read
            if read is None:
                bound = f"its bound ({max_analyzed} analysed issues, {scan_pages} pages of 100)"
            elif read.budget_ended:
                bound = f"its points budget ({read.budget} points; {read.spent} spent)"
            else:
                bound = "a page GitHub did not answer (the note says why)"
            lines += [
                f"> This month is partial: it counts the first analyses of the issues active after "
                f"{edge}, where the read stopped at {bound}; the month's first analyses on issues "
                "last active before then are not counted.",
                "",
            ]
        lines += [
            f"- First analyses: {found.analyses} (created in {month}, UTC)",
            f"- Corrected: {found.corrected} (the same rules as `corrections.md`)",
            "- "
            + duplicates.month_words(
                found.duplicates_confirmed,
                found.duplicates_objected,
                found.duplicates_objected_by_other,
                found.duplicates_open,
            ),
            "- " + thumbs.month_words(found.thumbs_down, found.thumbs_down_analyses),
            *second_look_lines(found),
            *recurrence_lines(found),
            "",
            "| Label | Proposed | Kept | Removed | Added | Precision | Recall |",
            "|---|---:|---:|---:|---:|---:|---:|",
            *[_row(n) for n in found.labels],
            _row(found.all_labels, bold=True),
            "",
        ]
    lines += [
        labels.QUALITY_DEFINITIONS + " A correction recurs when maintainers had made the same "
        "decision (removed the same label, added the same label, or objected to a duplicate notice of "
        f"the same issue) on an earlier issue among the {NEAREST} corrected issues nearest to this one; "
        "it was given when that earlier correction was in the analysis's context (the model did it "
        "again), not given when it was not (it had left the window, was ranked out or cut: the product "
        "forgot). The context is the analysis's receipt, or else the one a read just before it would "
        "have given.",
        "",
        "## Precision per label, by month",
        "",
        "Each bar is the label's precision that month, a block for each tenth, with the numbers it "
        "comes from; `-`: the label was not put forward. The same as a chart: `quality.svg`, beside "
        "this file.",
        "",
    ]
    proposed = report.proposed_labels()
    if proposed:
        header = ["Label", *[m.month + ("" if m.complete else " (partial)") for m in report.months]]
        lines += ["| " + " | ".join(header) + " |", "|---|" + "---:|" * len(report.months)]
        for label in proposed:
            cells = [f"`{clean_line(label)}`"]
            for m in report.months:
                numbers = next((n for n in m.labels if n.label == label), None)
                cells.append(_with_counts(numbers))
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    edge = (
        "every issue of the repository was read"
        if report.complete_after is None
        else f"every issue active after {report.complete_after:%Y-%m-%d %H:%M} UTC was read"
    )
    read = report.month_read
    if read is None:
        how = (
            f"the first analyses of at most {max_analyzed} issues, most recently active first, found in "
            f"at most {scan_pages} pages of 100 issues"
        )
    else:
        how = (
            f"the first analyses of every issue active since {read.month} began, most recently active "
            f"first, within a budget of {read.budget} points ({read.spent} spent"
            + (", the budget ended the read" if read.budget_ended else "")
            + ")"
        )
    lines += [f"Read: {how}; {edge}.", ""]
    return "\n".join(lines)


BAR = 10  # blocks of a full bar: one a tenth


def _with_counts(numbers: LabelNumbers | None) -> str:
    """`▰▰▰▰▰▰▰▰▱▱ 79% (11/14)`: a bar, the percentage and what it comes from (Markdown that every
    viewer shows, a step summary included); `-` when the label was not put forward."""
    if numbers is None or numbers.precision is None:
        return "-"
    full = round(numbers.precision * BAR)
    bar = "▰" * full + "▱" * (BAR - full)
    return f"{bar} {_ratio(numbers.precision)} ({numbers.kept}/{numbers.proposed})"


def _per_100(part: int, analyses: int) -> str:
    value = per_100(part, analyses)
    return "-" if value is None else f"{value:.1f}"


def second_look_lines(month: MonthQuality) -> list[str]:
    """What the second look changed before posting, as the month's markers record it; nothing
    when it changed nothing (or was off, or the markers are older than it)."""
    found = month.second_look
    if not found.analyses:
        return []
    notices = f"{found.duplicates} duplicate notice{'' if found.duplicates == 1 else 's'}"
    labels = f"{found.labels} label{'' if found.labels == 1 else 's'}"
    return [
        f"- Second look: it changed {found.analyses} of {month.analyses} first analyses before they "
        f"were posted, leaving out {notices} and {labels} (`corrections explain N` says which and why)"
    ]


def recurrence_lines(month: MonthQuality) -> list[str]:
    """The month's corrections and recurrences per 100 analyses, in words with their counts
    (quality.md and the step summary); the repeat rate only beside them."""
    numbers = month.recurrences
    analyses = "analysis" if month.analyses == 1 else "analyses"
    return [
        f"- Corrections: {_per_100(numbers.corrections, numbers.analyses)} per 100 analyses "
        f"({numbers.corrections} correcting decisions on {numbers.analyses} {analyses})",
        f"- Recurrences: {_per_100(numbers.recurrences, numbers.analyses)} per 100 analyses: "
        f"{numbers.given} given ({_per_100(numbers.given, numbers.analyses)}; the model had been shown "
        f"a similar issue's correction and did it again), {numbers.not_given} not given "
        f"({_per_100(numbers.not_given, numbers.analyses)}; the similar issue's correction was not in "
        "its context)",
        f"- Not corrected: {numbers.uncorrected} of {numbers.analyses} {analyses} (reported apart: "
        "a mistake nobody corrected is not counted either way)",
        f"- Repeat rate, beside: {numbers.given} of {numbers.corrections} corrections "
        f"({_ratio(numbers.rate)}) recurred although given",
        f"- Receipts: {month.receipts} of {month.analyses} {analyses} said what their model was given; "
        "the others' contexts were reconstructed as of each analysis",
        *(
            [
                f"- Reconstructed in part: {numbers.contexts_partial} of those contexts, where the read did "
                "not reach back far enough to know the whole window; their recurrences may count as not "
                "given a line that was given, and miss a similar earlier issue (a read reaching further "
                "back can change them by as many)"
                + (
                    f". The last of them is the analysis made at {month.contexts_whole_after:%Y-%m-%d %H:%M} "
                    "UTC: the month's analyses made after then are counted from whole contexts"
                    if month.contexts_whole_after is not None
                    else ""
                )
            ]
            if numbers.contexts_partial
            else []
        ),
    ]
