"""quality.svg reads at a glance: counts beside percentages, no series hidden, gaps for missing months."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

from corrections.quality.chart import PALETTE, quality_svg
from corrections.quality.numbers import MonthQuality, QualityReport, RecurrenceNumbers
from corrections.rules.labels import LabelNumbers

SVG = "{http://www.w3.org/2000/svg}"
OKABE_ITO = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000"}


def _month(month: str, *labels: tuple[str, int, int]) -> MonthQuality:
    numbers = tuple(LabelNumbers(label=name, proposed=p, kept=k, removed=p - k) for name, p, k in labels)
    return MonthQuality(
        month=month,
        complete=True,
        analyses=len(labels),
        corrected=0,
        labels=numbers,
        all_labels=LabelNumbers("all labels"),
        duplicates_confirmed=0,
        duplicates_objected=0,
        duplicates_open=0,
        duplicates_objected_by_other=0,
        thumbs_down=0,
        thumbs_down_analyses=0,
    )


def _chart(*months: MonthQuality) -> ET.Element:
    report = QualityReport(repository="octo/q", months=months, complete_after=None, note=None)
    return ET.fromstring(quality_svg(report))  # noqa: S314 - our own output


def _texts(root: ET.Element) -> list[str]:
    return [element.text or "" for element in root.iter(f"{SVG}text")]


def test_a_drop_on_one_proposal_shows_its_counts() -> None:
    root = _chart(_month("2026-10", ("config", 2, 2)), _month("2026-11", ("config", 1, 0)))
    texts = _texts(root)
    assert "100% (2/2)" in texts and "0% (0/1)" in texts


def test_labels_with_the_same_value_do_not_hide_each_other() -> None:
    same = [("bug", 3, 3), ("docs", 1, 1), ("enhancement", 2, 2)]
    root = _chart(_month("2026-10", *same), _month("2026-11", *same))
    dots = [(c.get("cx"), c.get("cy")) for c in root.iter(f"{SVG}circle")]
    assert len(dots) == 6 and len(set(dots)) == 6  # every dot has its own place
    names = _texts(root)
    assert {"bug", "docs", "enhancement"} <= set(names)  # each series named directly


def test_colours_are_okabe_ito_and_distinct() -> None:
    assert set(PALETTE) <= OKABE_ITO and len(set(PALETTE)) == len(PALETTE)
    labels = [(f"l{n}", 1, 1) for n in range(len(PALETTE))]
    root = _chart(_month("2026-10", *labels))
    fills = [c.get("fill") for c in root.iter(f"{SVG}circle")]
    assert len(set(fills)) == len(PALETTE)


def test_a_month_without_data_is_a_gap_not_a_zero() -> None:
    root = _chart(
        _month("2026-07", ("bug", 2, 2), ("docs", 1, 1)),
        _month("2026-09", ("bug", 1, 1)),  # August: nothing read; September: docs not put forward
    )
    texts = _texts(root)
    assert "2026-08" in texts and "no analysis read" in texts
    circles = list(root.iter(f"{SVG}circle"))
    assert len(circles) == 3  # bug in July and September, docs in July: no dot for what was not there
    assert not any(text.startswith("0% (") for text in texts)
    # No line joins July to September across the empty August.
    assert [line for line in root.iter(f"{SVG}line") if line.get("stroke-width") == "2"] == []


def test_consecutive_months_are_joined() -> None:
    root = _chart(_month("2026-10", ("bug", 2, 1)), _month("2026-11", ("bug", 2, 2)))
    assert len([line for line in root.iter(f"{SVG}line") if line.get("stroke-width") == "2"]) == 1


def test_no_label_says_so() -> None:
    assert "No proposed label in the months read" in _texts(_chart(_month("2026-10")))


def test_long_months_stay_in_order_across_a_year() -> None:
    root = _chart(_month("2026-11", ("bug", 1, 1)), _month("2027-02", ("bug", 1, 1)))
    months = [t for t in _texts(root) if t[:2] == "20"]
    assert months == ["2026-11", "2026-12", "2027-01", "2027-02"]


def _looks(root: ET.Element) -> list[tuple[str | None, str | None, str | None, str | None]]:
    """Each label's look: its name's colour and style, its line's dashes, its dot's fill."""
    names = [
        t for t in root.iter(f"{SVG}text") if t.get("font-weight") == "bold" and t.get("font-size") is None
    ]
    lines = [line for line in root.iter(f"{SVG}line") if line.get("stroke-width") == "2"]
    dots = list(root.iter(f"{SVG}circle"))
    return [
        (name.get("fill"), name.get("font-style"), line.get("stroke-dasharray"), dot.get("fill"))
        for name, line, dot in zip(names, lines, dots[::2], strict=True)
    ]


def test_no_two_of_21_labels_look_alike() -> None:
    # Before: the 8th label had the 1st's colour, line and dots (the demo's bug and platform-windows).
    labels = [(f"l{n:02}", 1, 1) for n in range(21)]
    root = _chart(_month("2026-10", *labels), _month("2026-11", *labels))
    looks = _looks(root)
    assert len(looks) == 21 and len(set(looks)) == 21
    assert {colour for colour, *_ in looks} == set(PALETTE)  # never a colour off the palette
    assert "the colours come round again" in " ".join(_texts(root))


def test_the_caption_is_wrapped_within_the_chart() -> None:
    # Before: the repeats row's sentence ran 150 characters on one line, cut at the right edge.
    given = RecurrenceNumbers(analyses=3, corrections=3, given=1)
    root = _chart(replace(_month("2026-10", ("bug", 1, 1)), complete=False, recurrences=given))
    width = float(root.get("width") or 0)
    captions = [
        t for t in root.iter(f"{SVG}text") if t.get("font-size") == "11" and t.get("fill") == "#555555"
    ]
    assert len(captions) >= 4 and any("repeats" in (caption.text or "") for caption in captions)
    for caption in captions:
        # DejaVu Sans, the widest common sans-serif, about 0.55 em a character of prose at 11 px.
        assert float(caption.get("x") or 0) + 6.05 * len(caption.text or "") <= width
