"""Check a virtual environment restored from the cache before anything in it runs.

    python -I scripts/check_venv.py VENV PYTHON LOCK

Run by action.yml with the setup Python (`-I`: no user site, no PYTHON* variable, no current
folder), standard library only, so nothing of the venv runs while it is judged. Exit 0 when the
venv is what a build from LOCK makes: its interpreter is PYTHON, its distributions are exactly
the lock's pins, every file a RECORD lists has the RECORD's sha256 and size, and nothing else is
in site-packages but the bytecode of listed modules (no `.pth`, no `sitecustomize`, no extra
package). Otherwise exit 1 with one line saying what is wrong; the action then builds the venv
anew. What this cannot see (docs/action.md, "The virtual environment"): a file changed together
with its RECORD line, and a changed `.pyc`.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import os
import re
import sys
from pathlib import Path

_ENSUREPIP = frozenset({"pip", "setuptools"})
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


class Unusable(Exception):
    """The venv is not what the lock builds; the message says why, in one line."""


def _normal(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lock: Path) -> dict[str, str]:
    """The lock's `name==version` pins, names normalised."""
    found = {}
    for line in lock.read_text(encoding="utf-8").splitlines():
        match = _PIN.match(line)
        if match:
            found[_normal(match.group(1))] = match.group(2)
    return found


def _site_packages(venv: Path) -> Path:
    folders = sorted((venv / "lib").glob("python3.*/site-packages"))
    if len(folders) != 1:
        raise Unusable(f"{len(folders)} site-packages folders, expected 1")
    return folders[0]


def _check_interpreter(venv: Path, python: Path) -> None:
    linked = venv / "bin" / "python"
    if not linked.is_symlink() or linked.resolve() != python.resolve():
        raise Unusable(f"{linked} is not a link to {python}")
    config = (venv / "pyvenv.cfg").read_text(encoding="utf-8")
    settings = dict(line.split("=", 1) for line in config.splitlines() if "=" in line)
    settings = {key.strip(): value.strip() for key, value in settings.items()}
    if settings.get("include-system-site-packages") != "false":
        raise Unusable("pyvenv.cfg: include-system-site-packages is not false")
    if Path(settings.get("home", "")).resolve() != python.resolve().parent:
        raise Unusable(f"pyvenv.cfg: home is not {python.resolve().parent}")


def _digest(path: Path) -> tuple[str, int]:
    hashed = hashlib.sha256()
    size = 0
    with path.open("rb") as stream:
        while chunk := stream.read(1 << 20):
            hashed.update(chunk)
            size += len(chunk)
    return base64.urlsafe_b64encode(hashed.digest()).decode("ascii").rstrip("="), size


def _recorded(site: Path, record: Path) -> set[Path]:
    """The files a RECORD lists, each checked against its hash and size; returns their paths."""
    listed = set()
    with record.open(encoding="utf-8", newline="") as stream:
        for row in csv.reader(stream):
            if not row:
                continue
            name, hashed, size = [*row, "", ""][:3]
            path = Path(os.path.normpath(site / name))
            listed.add(path)
            if path == record:
                continue  # a RECORD cannot hold its own hash
            if not hashed and path.parent.name == "__pycache__" and path.suffix == ".pyc":
                continue  # pip lists the bytecode it compiled without a hash
            if not hashed.startswith("sha256="):
                raise Unusable(f"{record.parent.name}/RECORD: {name} has no sha256")
            if path.is_symlink() or not path.is_file():
                raise Unusable(f"{name}: listed in {record.parent.name}/RECORD but not a file")
            if _digest(path) != (hashed.removeprefix("sha256="), int(size or -1)):
                raise Unusable(f"{name}: not the file {record.parent.name}/RECORD lists")
    return listed


def check(venv: Path, python: Path, lock: Path) -> None:
    """Raise Unusable unless `venv` is what a build from `lock` with `python` makes."""
    _check_interpreter(venv, python)
    site = _site_packages(venv)
    expected = pins(lock)
    installed: dict[str, str] = {}
    listed: set[Path] = set()
    for info in sorted(site.glob("*.dist-info")):
        name, _, version = info.name.removesuffix(".dist-info").partition("-")
        installed[_normal(name)] = version
        listed |= _recorded(site, info / "RECORD")
    # The pip fallback's venv also holds what `python -m venv` put there (ensurepip).
    installed = {
        name: version for name, version in installed.items() if name not in _ENSUREPIP or name in expected
    }
    if installed != expected:
        extra = sorted(set(installed.items()) - set(expected.items()))
        missing = sorted(set(expected.items()) - set(installed.items()))
        raise Unusable(f"distributions differ from the lock: extra {extra}, missing {missing}")
    for path in sorted(site.rglob("*")):
        if path.is_dir() and not path.is_symlink():
            continue
        if path in listed or _bytecode_of_listed(path, listed):
            continue
        raise Unusable(f"{path.relative_to(venv)}: in site-packages but in no RECORD")


def _bytecode_of_listed(path: Path, listed: set[Path]) -> bool:
    """Whether `path` is `__pycache__/NAME.TAG.pyc` of a listed `NAME.py` (a regular file)."""
    if path.parent.name != "__pycache__" or path.suffix != ".pyc" or path.is_symlink():
        return False
    source = path.parent.parent / (path.name.split(".", 1)[0] + ".py")
    return source in listed


def main(argv: list[str]) -> int:
    """The command line: VENV PYTHON LOCK; 0 usable, 1 not (one line on stdout)."""
    venv, python, lock = (Path(argument) for argument in argv)
    try:
        check(venv, python, lock)
    except (Unusable, OSError, ValueError) as error:
        print(f"the restored virtual environment is not usable: {error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
