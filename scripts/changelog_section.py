"""Print the CHANGELOG.md section of one release, for its GitHub release notes.

    python scripts/changelog_section.py v1.2.0 [--changelog CHANGELOG.md] [--pyproject pyproject.toml]

The section is everything under the heading `## [1.2.0]` (a date may follow) up to the next `## `
heading or the link definitions that end the file. A missing or empty section is an error (exit 1, one line), so no release goes out
without notes; with --pyproject, so is a tag that differs from the project's version.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

_HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\]")
_LINK_DEFINITION = re.compile(r"^\[[^\]]+\]:\s")  # the version links at the end of the file


class ChangelogError(Exception):
    """The changelog has no usable section for the version; the message is one line."""


def version_of(tag: str) -> str:
    """`1.2.0` for the tag `v1.2.0` (or `1.2.0`)."""
    return tag[1:] if tag.startswith("v") else tag


def section(text: str, version: str, where: str = "CHANGELOG.md") -> str:
    """The body of the section `## [version]`, without its heading and surrounding blank lines."""
    lines = text.splitlines()
    start = None
    for number, line in enumerate(lines):
        match = _HEADING.match(line)
        if match is not None and start is None and match.group("version") == version:
            start = number + 1
        elif start is not None and (line.startswith("## ") or _LINK_DEFINITION.match(line)):
            body = lines[start:number]
            break
    else:
        body = lines[start:] if start is not None else []
    if start is None:
        raise ChangelogError(f"{where}: no section for {version} (a heading '## [{version}] - YYYY-MM-DD')")
    notes = "\n".join(body).strip("\n")
    if not notes.strip():
        raise ChangelogError(f"{where}: line {start}: the section for {version} is empty")
    return notes + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print the section of the tag given; 1 with one line on stderr when there is none."""
    parser = argparse.ArgumentParser(prog="changelog_section.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("tag", help="the release tag, e.g. v1.2.0")
    parser.add_argument("--changelog", default="CHANGELOG.md")
    parser.add_argument("--pyproject", help="check that the tag is this project's version")
    args = parser.parse_args(argv)
    version = version_of(args.tag)
    try:
        if args.pyproject:
            declared = tomllib.loads(Path(args.pyproject).read_text(encoding="utf-8"))["project"]["version"]
            if declared != version:
                raise ChangelogError(f"{args.pyproject}: version is {declared}, the tag says {version}")
        notes = section(Path(args.changelog).read_text(encoding="utf-8"), version, args.changelog)
    except (ChangelogError, OSError) as error:
        print(f"changelog_section: {error}", file=sys.stderr)
        return 1
    sys.stdout.write(notes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
