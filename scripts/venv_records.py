"""Write requirements/action-records.txt: what each locked wheel installs into site-packages.

    python scripts/venv_records.py [--lock requirements/action.txt] [--output requirements/action-records.txt]
    python scripts/venv_records.py --check   # exit 1 when the file is not what the lock makes

Run by scripts/lock after it pins requirements/action.txt. For every pin, every wheel of that
version that the lock's sha256 hashes accept and that a runner of the action can install (CPython
3.11 on Linux x86_64 or aarch64 with glibc, macOS x86_64 or arm64) is downloaded from PyPI's JSON
simple API (PEP 691), checked against its lock hash, and summed as scripts/check_venv.py sums an
installed distribution (`installed_digest`): the sha256 of its files' paths in site-packages,
sha256 and size, without what an installer adds (bytecode, INSTALLER, REQUESTED, RECORD...). A
restored venv whose distribution sums to none of its pin's lines is refused: a module changed
together with its RECORD line no longer passes. Standard library only.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import re
import sys
import urllib.request
import zipfile
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from scripts.check_venv import normal_name, pinned_hashes, records_digest  # the one sum, beside the check

SIMPLE_API = "https://pypi.org/simple/{name}/"
ACCEPT = "application/vnd.pypi.simple.v1+json"
PYTHON = 11  # CPython 3.11, what action.yml's setup-python installs
# Platform tags of the action's runners (glibc Linux, macOS; Intel and ARM), and pure wheels.
_PLATFORM = re.compile(
    r"^(any|manylinux(1|2010|2014)_(x86_64|aarch64)|manylinux_2_\d+_(x86_64|aarch64)"
    r"|macosx_\d+_\d+_(x86_64|arm64|universal2))$"
)
HEADER = """\
# What each wheel of requirements/action.txt installs into site-packages, made by scripts/lock
# (scripts/venv_records.py) from the wheels on PyPI whose sha256 the lock lists; do not edit.
# One line per wheel a runner of the action can install: `name==version digest wheel`. The
# digest sums the wheel's files (path, sha256, size) as scripts/check_venv.py sums an installed
# distribution's RECORD; a restored venv is used only when each distribution sums to one of its
# pin's lines.
"""


class RecordsError(Exception):
    """No records file: the message is one line."""


def fits(filename: str) -> bool:
    """Whether a wheel installs on a runner's CPython 3.11 (its python, ABI and platform tags)."""
    parts = filename.removesuffix(".whl").split("-")
    if len(parts) < 5:
        return False
    pythons, abis, platforms = (set(tag.split(".")) for tag in parts[-3:])
    if not any(_PLATFORM.match(platform) for platform in platforms):
        return False
    if "none" in abis and pythons & {"py3", f"py3{PYTHON}", f"cp3{PYTHON}"}:
        return True
    if f"cp3{PYTHON}" in abis and f"cp3{PYTHON}" in pythons:
        return True
    stable = [int(tag[3:]) for tag in pythons if re.fullmatch(r"cp3\d+", tag)]
    return "abi3" in abis and any(minor <= PYTHON for minor in stable)


def wheel_digest(data: bytes) -> str:
    """A wheel's files as an installer puts them into site-packages, summed (`records_digest`):
    `NAME.data/purelib|platlib/` unpacked at the top, its other `.data` folders (scripts, headers,
    data) outside site-packages and not summed."""
    rows = []
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            if info.is_dir():
                continue
            parts = PurePosixPath(info.filename).parts
            if parts[0].endswith(".data"):
                if len(parts) < 3 or parts[1] not in ("purelib", "platlib"):
                    continue
                parts = parts[2:]
            content = archive.read(info)
            hashed = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).decode("ascii").rstrip("=")
            rows.append(("/".join(parts), hashed, len(content)))
    return records_digest(rows)


def _get(url: str, accept: str | None = None) -> bytes:
    """One GET of PyPI, HTTPS only."""
    if not url.startswith("https://"):
        raise RecordsError(f"{url}: not an https URL")
    request = urllib.request.Request(url, headers={"Accept": accept} if accept else {})  # noqa: S310 - https only
    with urllib.request.urlopen(request, timeout=60) as answer:  # noqa: S310 - https only
        return bytes(answer.read())


def records(lock: Path) -> list[str]:
    """The file's lines for `lock`, sorted; RecordsError when a pin has no wheel for the runners."""
    lines = []
    for (name, version), hashes in sorted(pinned_hashes(lock).items()):
        listing = json.loads(_get(SIMPLE_API.format(name=name), ACCEPT))
        found = 0
        for file in listing.get("files", []):
            filename = str(file.get("filename", ""))
            sha256 = (file.get("hashes") or {}).get("sha256")
            if not filename.endswith(".whl") or sha256 not in hashes or not fits(filename):
                continue
            if normal_name(filename.split("-", 1)[0]) != name or filename.split("-")[1] != version:
                continue
            data = _get(str(file["url"]))
            if hashlib.sha256(data).hexdigest() != sha256:
                raise RecordsError(f"{filename}: downloaded, but not the sha256 the lock lists")
            lines.append(f"{name}=={version} {wheel_digest(data)} {filename}")
            found += 1
            print(f"  {filename}", file=sys.stderr)
        if not found:
            raise RecordsError(f"{name}=={version}: no wheel of the lock for the action's runners")
    return sorted(lines)


def main(argv: list[str]) -> int:
    """The command line; 0 written (or up to date with --check), 1 not (one line)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--lock", type=Path, default=Path("requirements/action.txt"))
    parser.add_argument("--output", type=Path, default=Path("requirements/action-records.txt"))
    parser.add_argument("--check", action="store_true", help="only say whether the file is up to date")
    args = parser.parse_args(argv)
    try:
        text = HEADER + "".join(f"{line}\n" for line in records(args.lock))
    except (RecordsError, OSError, ValueError, zipfile.BadZipFile) as error:
        print(f"venv_records: {error}", file=sys.stderr)
        return 1
    if args.check:
        if not args.output.is_file() or args.output.read_text(encoding="utf-8") != text:
            print(
                f"venv_records: {args.output} is not what {args.lock} makes: run scripts/lock",
                file=sys.stderr,
            )
            return 1
        return 0
    args.output.write_text(text, encoding="utf-8")
    print(f"{args.output}: {text.count(chr(10)) - HEADER.count(chr(10))} wheels", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
