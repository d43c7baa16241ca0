"""Write requirements/uv-wheels.txt: the wheel of uv's pinned version for each runner platform.

    python scripts/uv_wheels.py [--lock requirements/uv.txt] [--output requirements/uv-wheels.txt]

Run by scripts/lock once it has pinned uv. action.yml downloads its runner's line with curl and
checks the sha256 itself, so a cold runner gets uv in a fraction of a second instead of through
pip (which spends seconds of CPU hash-checking and unpacking the same 17 MB wheel). The files and
their hashes come from PyPI's JSON simple API (PEP 691); each hash must be one of the lock's, so
this file can only name wheels that pip would also accept. A platform without a wheel, or a hash
the lock does not have, is an error (exit 1, one line) and nothing is written.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import urllib.request
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

SIMPLE_API = "https://pypi.org/simple/uv/"
ACCEPT = "application/vnd.pypi.simple.v1+json"
# The action's runners as `uname -s` and `uname -m` name them, and the platform tag of their wheel
# (its first group a version: the lowest one wins, it runs on the most machines). Linux runners
# are glibc; uv's musl-static aarch64 wheel also carries a manylinux tag.
RUNNERS: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("Linux", "x86_64", re.compile(r"^manylinux_2_(\d+)_x86_64$")),
    ("Linux", "aarch64", re.compile(r"^manylinux_2_(\d+)_aarch64$")),
    ("Darwin", "x86_64", re.compile(r"^macosx_(\d+)_(\d+)_x86_64$")),
    ("Darwin", "arm64", re.compile(r"^macosx_(\d+)_(\d+)_arm64$")),
)
_PIN = re.compile(r"^uv==(?P<version>[0-9][0-9A-Za-z.]*)")
_HASH = re.compile(r"--hash=sha256:([0-9a-f]{64})")
HEADER = """\
# uv {version}'s wheel for each of the action's runner platforms, made by scripts/lock from PyPI
# ({api}); do not edit. One line per runner:
#   `uname -s` `uname -m` sha256 URL
# action.yml downloads its runner's line with curl, checks the sha256 and extracts only the uv
# binary; a runner without a line (or a failed download or check) installs uv from
# requirements/uv.txt with pip. Every sha256 here is one of requirements/uv.txt's hashes.
"""


class WheelsError(Exception):
    """No usable wheel list: the message is one line."""


def pinned_uv(lock_text: str) -> tuple[str, frozenset[str]]:
    """uv's pinned version in requirements/uv.txt and the sha256 hashes listed for it."""
    version = next((pin.group("version") for pin in map(_PIN.match, lock_text.splitlines()) if pin), None)
    if version is None:
        raise WheelsError("requirements/uv.txt pins no uv==VERSION")
    return version, frozenset(_HASH.findall(lock_text))


def _rank(filename: str, version: str, pattern: re.Pattern[str]) -> tuple[int, ...] | None:
    """The platform version of a wheel that fits the runner (lower runs on more machines), or None."""
    prefix = f"uv-{version}-py3-none-"
    if not (filename.startswith(prefix) and filename.endswith(".whl")):
        return None
    ranks = [
        tuple(int(part) for part in match.groups())
        for match in map(pattern.match, filename[len(prefix) : -len(".whl")].split("."))
        if match
    ]
    return min(ranks) if ranks else None


def choose_wheels(
    files: Iterable[Mapping[str, Any]], version: str, lock_hashes: frozenset[str]
) -> list[tuple[str, str, str, str]]:
    """(os, machine, sha256, url) for each runner, from the simple API's `files` of uv.

    Yanked files and files without a sha256 are passed over; a runner without a wheel, or a
    chosen wheel whose hash the lock lacks, raises WheelsError.
    """
    usable = [
        entry
        for entry in files
        if not entry.get("yanked") and entry.get("hashes", {}).get("sha256") and entry.get("url")
    ]
    chosen = []
    for system, machine, pattern in RUNNERS:
        fitting = [
            (rank, entry)
            for entry in usable
            if (rank := _rank(str(entry["filename"]), version, pattern)) is not None
        ]
        if not fitting:
            raise WheelsError(f"PyPI has no uv {version} wheel for {system} {machine}")
        _, entry = min(fitting, key=lambda found: (found[0], str(found[1]["filename"])))
        sha256, url = str(entry["hashes"]["sha256"]), str(entry["url"])
        if sha256 not in lock_hashes:
            raise WheelsError(f"{entry['filename']}: sha256 {sha256} is not in requirements/uv.txt")
        if not url.startswith("https://files.pythonhosted.org/"):
            raise WheelsError(f"{entry['filename']}: not served by files.pythonhosted.org: {url}")
        chosen.append((system, machine, sha256, url))
    return chosen


def render(version: str, wheels: Iterable[tuple[str, str, str, str]]) -> str:
    """The text of requirements/uv-wheels.txt."""
    lines = [" ".join(wheel) for wheel in wheels]
    return HEADER.format(version=version, api=SIMPLE_API) + "\n".join(lines) + "\n"


def fetch_files() -> list[Mapping[str, Any]]:
    """uv's files on PyPI (JSON simple API)."""
    request = urllib.request.Request(SIMPLE_API, headers={"Accept": ACCEPT})
    with urllib.request.urlopen(request, timeout=60) as answer:  # noqa: S310 - a fixed https URL
        files: list[Mapping[str, Any]] = json.load(answer)["files"]
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lock", type=Path, default=Path("requirements/uv.txt"))
    parser.add_argument("--output", type=Path, default=Path("requirements/uv-wheels.txt"))
    arguments = parser.parse_args(argv)
    try:
        version, hashes = pinned_uv(arguments.lock.read_text(encoding="utf-8"))
        text = render(version, choose_wheels(fetch_files(), version, hashes))
    except (WheelsError, OSError, ValueError, KeyError) as error:
        print(f"uv_wheels: {error}", file=sys.stderr)
        return 1
    arguments.output.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
