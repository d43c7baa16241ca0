"""What each parser of a stranger's text costs on its worst input: `python -m bench --parsers`.

For every parser the product runs on untrusted text (globs against paths, what a comment shows
for a proposal, commands in a comment, a learnings line, the configuration file, label look-ups),
a set of adversarial inputs at the size GitHub or the product allows (65,536 characters of a
comment, 1,024 of a glob, 10,000 of a path and up to 32,767), each timed on its own in CPU time
(best of `runs`, so that a busy machine does not inflate it). The report gives each parser's worst
input and its time against the bound the product promises for one input. Not a test: timings
belong here (docs/performance.md, "Parsers of untrusted text").
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.commands import command_lines
from assistant.config import ConfigError, parse_toml
from corrections.rules.vocabulary import Vocabulary
from learnings.rules.globs import MAX_GLOB, MAX_PATH, parse_glob
from learnings.rules.proposals import ProposalError, parse_proposal, proposal_marker
from learnings.store.jsonl import parse_jsonl

COMMENT = 65_536  # GitHub's longest comment body
PATH = 10_000


@dataclass(frozen=True)
class Case:
    """One adversarial input of one parser."""

    parser: str
    name: str
    run: Callable[[], object]


def _glob_cases() -> list[Case]:
    chinese = "".join(chr(0x4E00 + n) for n in range(MAX_GLOB - 1))
    backtrack = parse_glob("*a" * 12 + "*b")
    every_class = parse_glob("".join(f"[{chr(0x4E00 + 2 * n)}-{chr(0x4E01 + 2 * n)}]" for n in range(200)))
    deep = parse_glob("**/" + "*a/**/" * 150 + "b")
    questions = parse_glob("?" + chinese)
    return [
        Case("glob", "*a*a…*b against aaa…a/b (10,000)", lambda: backtrack.matches("a" * (PATH - 2) + "/b")),
        Case("glob", "*a*a…*b against aaa…a (32,767)", lambda: backtrack.matches("a" * MAX_PATH)),
        Case("glob", "200 classes against 10,000 CJK", lambda: every_class.matches(chinese * 10)),
        Case(
            "glob", "**/*a/**/… (901 chars) against a/a/… (10,000)", lambda: deep.matches("a/" * (PATH // 2))
        ),
        Case("glob", "? then 1,023 distinct literals", lambda: questions.matches("x" + chinese)),
        Case("glob", "parse 1,024 characters of classes", lambda: _parse_fresh("[!a-z]" * (MAX_GLOB // 6))),
    ]


def _parse_fresh(text: str) -> object:
    parse_glob.cache_clear()
    return parse_glob(text).automaton


HOSTILE_MARKDOWN = {
    "![": "![",
    "[": "[",
    "[a](": "[a](",
    "_a": "_a",
    "*_": "*_",
    "<a ": "<a ",
    "&#": "&#",
    "# a (headings)": "# a\n",
    "[a]: b (definitions)": "[a]: b\n",
    "<details>": "<details>\n\n",
    "> (quotes)": "> ",
}


def _filled(unit: str, size: int, tail: str) -> str:
    return (unit * (size // len(unit) + 1))[: size - len(tail)] + tail


def _proposal(body: str) -> object:
    try:
        return parse_proposal(body)
    except ProposalError:
        return None


def _markdown_cases() -> list[Case]:
    cases: list[Case] = []
    marker = "\n\n" + proposal_marker("Skip the security review of src/auth", ["src/auth/**"], "security")
    for name, unit in HOSTILE_MARKDOWN.items():
        proposal_body = _filled(unit, COMMENT, marker)
        command_body = _filled(unit, COMMENT, "\n/assistant not-duplicate")
        cases.append(
            Case("proposal (what a comment shows)", name, functools.partial(_proposal, proposal_body))
        )
        cases.append(Case("commands", name, functools.partial(command_lines, command_body, "/assistant")))
    spanning = "\n\n".join(["[a](" * 240 + "\n/assistant remember x"] * 70)[:COMMENT]
    cases.append(
        Case(
            "commands", "70 paragraphs of [a]( with a command", lambda: command_lines(spanning, "/assistant")
        )
    )
    many = "/assistant remember x\n\n" * (COMMENT // 23)
    cases.append(Case("commands", "2,849 command paragraphs", lambda: command_lines(many, "/assistant")))
    return cases


def _config(text: str) -> object:
    try:
        return parse_toml(text, Path("assistant.toml"))
    except ConfigError:
        return None


def _other_cases() -> list[Case]:
    deep_lines = "\n".join(["[" * 1_000, "[" * 100_000, '{"a": ' * 10_000]) + "\n"
    store = ("[" * 1_000 + "\n") * 1_000
    labels = Vocabulary(tuple(f"label-{n}" for n in range(40_000)))
    return [
        Case("learnings line", "1,000 / 100,000 [ and 10,000 {", lambda: parse_jsonl(deep_lines, source="s")),
        Case("learnings store (1 MB)", "1,000 lines of 1,000 [", lambda: parse_jsonl(store, source="s")),
        Case("configuration", "3,000 nested arrays", lambda: _config("a = " + "[" * 3_000 + "]" * 3_000)),
        Case("configuration", "3,000 nested tables", lambda: _config("a = " + "{b = " * 3_000 + "}" * 3_000)),
        Case(
            "label look-up",
            "40,000 labels, 40,000 look-ups",
            lambda: [labels.canonical(f"LABEL-{n}") for n in range(40_000)],
        ),
    ]


# The bound the product promises for one input of each parser (docs/performance.md).
BOUNDS_MS = {
    "glob": 50.0,
    "proposal (what a comment shows)": 1_500.0,
    "commands": 500.0,
    "learnings line": 100.0,
    "learnings store (1 MB)": 1_000.0,
    "configuration": 50.0,
    "label look-up": 100.0,
}


def _timed(case: Case, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        case.run()
        best = min(best, time.process_time() - started)
    return best * 1_000


def parser_bench(runs: int = 3) -> dict[str, Any]:
    """Every case timed, and each parser's worst case against its bound."""
    cases = [*_glob_cases(), *_markdown_cases(), *_other_cases()]
    timed: list[dict[str, Any]] = [
        {"parser": case.parser, "input": case.name, "ms": round(_timed(case, runs), 2)} for case in cases
    ]
    worst: dict[str, dict[str, Any]] = {}
    for row in timed:
        known = worst.get(row["parser"])
        if known is None or row["ms"] > known["ms"]:
            worst[row["parser"]] = row
    summary = [
        {**row, "bound_ms": BOUNDS_MS[name], "met": row["ms"] <= BOUNDS_MS[name]}
        for name, row in worst.items()
    ]
    return {"cases": timed, "worst": summary}


def parser_markdown(found: dict[str, Any]) -> str:
    """The worst input of each parser, as a table (then every case)."""
    lines = ["| parser | worst input | CPU ms | bound ms | met |", "|---|---|---|---|---|"]
    for row in found["worst"]:
        met = "yes" if row["met"] else "**no**"
        lines.append(
            f"| {row['parser']} | {row['input']} | {row['ms']:.1f} | {row['bound_ms']:.0f} | {met} |"
        )
    lines += ["", "| parser | input | CPU ms |", "|---|---|---|"]
    lines += [f"| {row['parser']} | {row['input']} | {row['ms']:.1f} |" for row in found["cases"]]
    return "\n".join(lines)
