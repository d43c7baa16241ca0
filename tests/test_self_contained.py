"""A clone of this repository alone explains the product: no document, --help or rendered summary
points at a file the repository does not have, or at the team's design notes outside it.

The checker is a pure function of a text (`bad_references`); the unit tests below plant bad
references to show that it catches each kind, and the scans run it over everything an adopter
reads: README and the other root documents, docs/, action.yml, the workflows and examples, the
templates, the step summary snapshots and the `--help` of every command and subcommand.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Names of the team's design material, which never ships: a reader of the repository cannot open them.
FORBIDDEN = (
    re.compile(r"\.\./shared"),
    re.compile(r"shared/docs"),
    re.compile(r"\bcontracts\.md\b"),
    re.compile(r"\bgithub-facts\b"),
    re.compile(r"\bsource designs?\b", re.IGNORECASE),
)
# Files that live in the adopter's repository or in the context folder the reader writes, not here.
ADOPTER_FILES = frozenset(
    {"labels.md", "assistant.toml", "learnings.jsonl", "instructions.md", "prompt.md", "examples.md"}
)
ADOPTER_PREFIXES = (".github/assistant",)
# Names shaped like paths that are not files: the branch `learnings sync` commits to.
NOT_PATHS = frozenset({"assistant/learnings"})

_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_RELATIVE = re.compile(r"(?<![\w.-])((?:\.\./)+[\w.@/-]*)")
_BARE_MD = re.compile(r"(?<![\w/.<>-])([\w-]+\.md)\b")
_WILDCARD = re.compile(r"[<>*{}\[\]$]")


@dataclass(frozen=True)
class Repository:
    """The paths a reference may name: every file and folder of the checkout, relative to its root."""

    root: Path
    paths: frozenset[str]
    basenames: frozenset[str]
    top: frozenset[str]

    @classmethod
    def of(cls, root: Path, files: Iterable[str]) -> Repository:
        """The repository holding `files` (relative POSIX paths) and their folders."""
        paths: set[str] = set()
        for name in files:
            parts = PurePosixPath(name).parts
            paths.update("/".join(parts[: i + 1]) for i in range(len(parts)))
        return cls(
            root=root,
            paths=frozenset(paths),
            basenames=frozenset(PurePosixPath(p).name for p in paths),
            top=frozenset(p for p in paths if "/" not in p),
        )

    def has(self, path: str) -> bool:
        """Whether `path` (relative, maybe with a trailing slash or a pattern tail) exists here."""
        cut = _WILDCARD.search(path)
        if cut is not None:
            path = path[: cut.start()].rsplit("/", 1)[0] if "/" in path[: cut.start()] else ""
        path = path.strip("/")
        return path == "" or path in self.paths


def _inside(repo: Repository, where: PurePosixPath, target: str) -> str | None:
    """`target` (relative to the folder of `where`) as a path from the root; None when outside."""
    parts: list[str] = list(where.parent.parts)
    for part in PurePosixPath(target).parts:
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def bad_references(text: str, where: str, repo: Repository) -> list[str]:
    """Every reference in `text` (read at `where`, a path from the root) that a clone cannot follow."""
    here = PurePosixPath(where)
    found: list[str] = []
    for pattern in FORBIDDEN:
        found += [
            f"{where}: names {m.group(0)!r}, which is not part of the repository"
            for m in pattern.finditer(text)
        ]
    for match in _LINK.finditer(text):
        target = match.group(1).split("#", 1)[0]
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
            continue  # an anchor, or a URL (https:, mailto:)
        resolved = (
            _inside(repo, here, target.lstrip("/")) if not target.startswith("/") else target.lstrip("/")
        )
        if resolved is None or not repo.has(resolved):
            found.append(f"{where}: link to {target!r}, which the repository does not have")
    for match in _RELATIVE.finditer(text):
        resolved = _inside(repo, here, match.group(1))
        if resolved is None or not repo.has(resolved):
            found.append(f"{where}: {match.group(1)!r} points outside the repository or at nothing")
    for found_token in re.findall(r"(?<![\w.@/-])((?:\.?[\w-]+/)+[\w.<>*{}-]*)", text):
        token = found_token.rstrip(".")  # the end of a sentence
        top = token.split("/", 1)[0]
        if top not in repo.top or token.startswith(ADOPTER_PREFIXES) or token in NOT_PATHS or repo.has(token):
            continue
        found.append(f"{where}: {token!r} is not a file or folder of the repository")
    for name in _BARE_MD.findall(text):
        if name not in repo.basenames and name not in ADOPTER_FILES:
            found.append(f"{where}: {name!r} is not a file of the repository")
    return found


# --- the checker can fail ---------------------------------------------------------------------

TOY = Repository.of(
    Path("/toy"), ["README.md", "docs/rules.md", "docs/action.md", "examples/first-analysis.yml"]
)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("See ../shared/docs/rules.md for the meaning.", "../shared"),
        ("contracts.md says what each file holds.", "contracts.md"),
        ("GraphQL points (github-facts.md) are shared.", "github-facts"),
        ("As in the source design, it reads REST.", "source design"),
        ("Read [the rules](docs/missing.md) first.", "docs/missing.md"),
        ("Read [the rules](../outside.md) first.", "../outside.md"),
        ("Copy examples/quality.yml into your workflows.", "examples/quality.yml"),
        ("The world format is in design.md.", "design.md"),
    ],
)
def test_the_checker_catches_a_planted_bad_reference(text: str, needle: str) -> None:
    found = bad_references(f"# Title\n\nAll good: docs/rules.md.\n{text}\n", "README.md", TOY)
    assert found, f"not caught: {text}"
    assert any(needle in line for line in found), found


def test_the_checker_accepts_references_that_exist() -> None:
    text = (
        "See [the rules](docs/rules.md#labels), [the action](./docs/action.md) and docs/rules.md, "
        "copy examples/first-analysis.yml, read `issues/<number>.md`, `labels.md` and "
        "`.github/assistant/labels.md` of your repository, [GitHub](https://docs.github.com).\n"
    )
    assert bad_references(text, "README.md", TOY) == []
    assert bad_references("Back to [the readme](../README.md).", "docs/action.md", TOY) == []
    assert bad_references("[rules](rules.md)", "docs/action.md", TOY) == []
    assert bad_references("[rules](rules.md)", "README.md", TOY) != []


# --- the scans --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def repo() -> Repository:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return Repository.of(ROOT, [name for name in listed if (ROOT / name).exists()])


def _documents() -> list[Path]:
    names = ["README.md", "CONTRIBUTING.md", "SECURITY.md", "CHANGELOG.md", "action.yml"]
    files = [ROOT / name for name in names]
    files += sorted((ROOT / "docs").glob("*.md"))
    files += sorted((ROOT / "examples").glob("*.yml"))
    files += sorted((ROOT / ".github" / "workflows").glob("*.yml"))
    files += sorted(ROOT.glob("*/templates/*.j2"))
    files += sorted((ROOT / "snapshots" / "test_action_e2e").glob("*step-summary*.md"))
    return files


@pytest.mark.parametrize("path", _documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_what_an_adopter_reads_points_only_inside_the_repository(path: Path, repo: Repository) -> None:
    where = path.relative_to(ROOT).as_posix()
    assert bad_references(path.read_text(encoding="utf-8"), where, repo) == []


def test_the_scan_covers_the_documents_an_adopter_reads() -> None:
    scanned = {p.relative_to(ROOT).as_posix() for p in _documents()}
    for name in [
        "README.md",
        "docs/rules.md",
        "docs/world-format.md",
        "action.yml",
        "examples/first-analysis.yml",
    ]:
        assert name in scanned
    assert any("step-summary" in name for name in scanned)


BIN = Path(sys.executable).parent  # the console scripts installed beside this interpreter
PROGRAMS = {
    "corrections": [str(BIN / "corrections")],
    "learnings": [str(BIN / "learnings")],
    "python -m emulator": [sys.executable, "-m", "emulator"],
    "python -m bench": [sys.executable, "-m", "bench"],
}


def _help(command: list[str]) -> str:
    done = subprocess.run(
        [*command, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, f"{command} --help: exit {done.returncode}: {done.stderr}"
    return done.stdout


def _subcommands(help_text: str) -> list[str]:
    """The subcommands a --help lists.

    Either argparse's own form, a positional `{a,b}` in the usage line (not an option's choices
    `[--x {a,b}]`), or a metavar (`COMMAND ...`) whose choices are the lines indented under
    "positional arguments".
    """
    usage = help_text.split("\n\n", 1)[0]
    choices = re.search(r"(?<!\w )\{([\w,-]+)\}", usage)
    if choices:
        return choices.group(1).split(",")
    if not re.search(r"\b[A-Z]+ \.\.\.", usage) or "positional arguments:" not in help_text:
        return []
    section = help_text.split("positional arguments:", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^ {4}([a-z][\w-]*)(?: {2,}|$)", section, re.MULTILINE)


def _every_help() -> dict[str, str]:
    """The --help of each program, then of each subcommand its usage line lists, level by level."""
    helps: dict[str, str] = {}
    level = [(name, command) for name, command in PROGRAMS.items()]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for _depth in range(3):  # program, subcommand, sub-subcommand: never more
            texts = list(pool.map(_help, [command for _, command in level]))
            following: list[tuple[str, list[str]]] = []
            for (name, command), text in zip(level, texts, strict=True):
                helps[name] = text
                following += [(f"{name} {sub}", [*command, sub]) for sub in _subcommands(text)]
            level = following
    return helps


def test_every_help_points_only_inside_the_repository(repo: Repository) -> None:
    helps = _every_help()
    assert {"corrections read", "corrections quality", "learnings add", "learnings sync"} <= set(helps)
    found: list[str] = []
    for name, text in helps.items():
        found += bad_references(text, f"`{name} --help`", repo)
    assert found == []


def _design_note_names(text: str) -> list[str]:
    return [match.group(0) for pattern in FORBIDDEN for match in pattern.finditer(text)]


def test_no_tracked_file_names_the_design_notes(repo: Repository) -> None:
    """Comments and docstrings are read too: no file of the repository (code, tests, scripts,
    configuration) names the team's design notes, which a clone does not have. This file alone
    lists their names, to look for them."""
    found = []
    for name in sorted(repo.paths):
        path = ROOT / name
        if name == "tests/test_self_contained.py" or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary (images, wheels): no text to read
        found += [f"{name}: {needle}" for needle in _design_note_names(text)]
    assert found == []


def test_the_design_note_scan_sees_a_docstring() -> None:
    assert _design_note_names('"""The world (contracts.md world format)."""') == ["contracts.md"]
    assert _design_note_names("# see ../shared/docs/rules.md") == ["../shared", "shared/docs"]
