"""Stand-in models for the loop and the backtest: deterministic keyword rules, not language models.

    python -m bench.stand_ins blind|half|following|all < prompt > answer.json

Both read the new issue from the prompt's section on it (`corrections prompt --event`: its title and
body as JSON strings, one per line, in a fence) or, in a prompt assembled otherwise, from a JSON
line of it (number, title, body), and answer with the JSON the example workflow asks for
(`{"labels": [...], "duplicate_of": N | null, "analysis": "..."}`).

- **blind** ignores the context. It labels by keywords (`KEYWORDS`), some of them wrong for the
  loop's repository on purpose (`bench/loop_world.py`: "slow" issues are bugs there, not
  performance; "support" issues are no questions; "typo" issues are docs), and it names as a
  duplicate any issue the reporter mentions (`#N`).
- **following** answers as blind does, then follows the corrections its prompt gives: for every
  correction line whose title shares a keyword with the new issue's title (a line the prompt
  calls similar), it leaves out a label a maintainer removed there, adds one a maintainer added
  there, and names no duplicate a maintainer objected to there.
- **half** follows as `following` does on every other issue (even numbers), and answers as blind
  on the others: a model that heeds its context half the time.
- **all** follows every correction line of its prompt, similar or not: a careless follower.
- **heeding** follows as `following` does, and heeds the analyses maintainers kept that the prompt
  shows (`#N "title" | date | kept: labels ...`, what was right on similar issues): on the first
  such line whose title shares a keyword with the new issue's, it proposes that line's labels.

None sees anything but its prompt; what "similar" means is the keyword, nothing more.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence

# A title's keyword -> the labels blind proposes for it.
KEYWORDS: dict[str, tuple[str, ...]] = {
    "crash": ("bug",),
    "slow": ("performance",),
    "how": ("question",),
    "support": ("enhancement", "question"),
    "typo": (),
    "flaky": ("bug",),
}
_MENTION = re.compile(r"#(\d{1,9})\b")
# A correction line of corrections.md: `#N "title" | date | parts...`.
_LINE = re.compile(r'^#(\d+) (".*?(?<!\\)") \| [^|]+ \| (.+)$', re.MULTILINE)


# The heading of the prompt's section on the issue being analysed (corrections/render/new_issue.py).
_SECTION = re.compile(r"^## The issue you are analysing: #(\d+)$", re.MULTILINE)


def _section_issue(prompt: str) -> dict[str, object]:
    """The issue of the prompt's section on it: its number, and the `title:` and `body:` lines of
    its fence as JSON strings (empty when the prompt has no such section)."""
    found = list(_SECTION.finditer(prompt))
    if not found:
        return {}
    issue: dict[str, object] = {"number": int(found[-1].group(1))}
    for line in prompt[found[-1].end() :].splitlines():
        key, _, value = line.partition(": ")
        if key in {"title", "body"} and value.startswith('"'):
            try:
                issue[key] = json.loads(value)
            except ValueError:
                continue
    return issue if "title" in issue else {}


def new_issue(prompt: str) -> dict[str, object]:
    """The new issue: from the prompt's section on it, else the prompt's last line that is a JSON
    object with a title (empty when none)."""
    section = _section_issue(prompt)
    if section:
        return section
    for line in reversed(prompt.splitlines()):
        if not line.startswith("{"):
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and "title" in value:
            return value
    return {}


def keywords(title: str) -> set[str]:
    """The title's words that are keywords."""
    return {word for word in re.findall(r"[a-z]+", title.lower()) if word in KEYWORDS}


def blind(issue: dict[str, object]) -> tuple[list[str], int | None]:
    """Labels by keyword, and the first issue the body mentions as a duplicate."""
    title, body = str(issue.get("title", "")), str(issue.get("body", ""))
    labels = sorted({label for word in keywords(title) for label in KEYWORDS[word]})
    mention = _MENTION.search(body)
    number = issue.get("number")
    duplicate = int(mention.group(1)) if mention and int(mention.group(1)) != number else None
    return labels, duplicate


def following(issue: dict[str, object], prompt: str, *, every: bool = False) -> tuple[list[str], int | None]:
    """blind's answer, corrected by every similar line of the prompt (`every`: by every line)."""
    labels, duplicate = blind(issue)
    mine = keywords(str(issue.get("title", "")))
    chosen = set(labels)
    for line in _LINE.finditer(prompt):
        try:
            title = json.loads(line.group(2))
        except ValueError:
            continue
        if not every and not mine & keywords(str(title)):
            continue
        for part in line.group(3).split(" | "):
            if part.startswith("maintainer removed label "):
                chosen -= set(part.removeprefix("maintainer removed label ").split(", "))
            elif part.startswith("maintainer added label "):
                chosen |= set(part.removeprefix("maintainer added label ").split(", "))
            elif duplicate is not None and part.startswith(f"duplicate notice (of #{duplicate}) objected"):
                duplicate = None
    return sorted(chosen), duplicate


def heeding(issue: dict[str, object], prompt: str) -> tuple[list[str], int | None]:
    """following's answer, or the labels of the first similar analysis maintainers kept."""
    labels, duplicate = following(issue, prompt)
    mine = keywords(str(issue.get("title", "")))
    for line in _LINE.finditer(prompt):
        try:
            title = json.loads(line.group(2))
        except ValueError:
            continue
        kept = next((p for p in line.group(3).split(" | ") if p.startswith("kept: labels ")), None)
        if kept is not None and mine & keywords(str(title)):
            return sorted(kept.removeprefix("kept: labels ").split("; ")[0].split(", ")), duplicate
    return labels, duplicate


KINDS = ("blind", "half", "following", "all", "heeding")


def answer(kind: str, prompt: str) -> str:
    """The stand-in's answer to a prompt, as one JSON object."""
    issue = new_issue(prompt)
    number = issue.get("number")
    heeds = kind == "following" or (kind == "half" and isinstance(number, int) and number % 2 == 0)
    if kind == "all":
        labels, duplicate = following(issue, prompt, every=True)
    elif kind == "heeding":
        labels, duplicate = heeding(issue, prompt)
    elif heeds:
        labels, duplicate = following(issue, prompt)
    else:
        labels, duplicate = blind(issue)
    text = f"A {kind} stand-in's analysis: labels {', '.join(labels) or 'none'}."
    return json.dumps({"labels": labels, "duplicate_of": duplicate, "analysis": text})


def main(argv: Sequence[str] | None = None) -> int:
    """Read the prompt on stdin, print the answer."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] not in KINDS:
        print(f"usage: python -m bench.stand_ins {'|'.join(KINDS)} < prompt", file=sys.stderr)
        return 2
    print(answer(args[0], sys.stdin.read()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
