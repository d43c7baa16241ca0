"""Check a virtual environment restored from the cache before anything in it runs.

    python -I scripts/check_venv.py VENV PYTHON LOCK

Run by action.yml with the setup Python (`-I`: no user site, no PYTHON* variable, no current
folder), standard library only, so nothing of the venv runs while it is judged. Exit 0 when the
venv is what a build from LOCK makes: its interpreter is PYTHON, its distributions are exactly
the lock's pins (pip and setuptools of the pip fallback only at the versions the setup Python
bundles, every file as in the setup Python's own wheel of them), every file a RECORD lists has the
RECORD's sha256 and size, each locked distribution's files are those of one of its pin's wheels
(its RECORD's rows sum to a line of LOCK's records file, `action-records.txt` beside it, written
by scripts/venv_records.py from the wheels the lock's hashes accept), nothing else is in
site-packages but the bytecode of listed modules, and no `.pth`, `sitecustomize` or
`usercustomize` is there, listed or not (they run when Python starts, `-P` or not), but
`distutils-precedence.pth` exactly as the bundled setuptools wheel has it. Otherwise exit 1 with
one line saying what is wrong; the action then builds the venv anew. What this cannot see
(docs/action.md, "The virtual environment"): a changed `.pyc`.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import os
import re
import sys
import zipfile
from pathlib import Path

_ENSUREPIP = frozenset({"pip", "setuptools"})
# Files that run when Python starts, from site-packages (site.py): never in a checked venv, but the
# bundled setuptools wheel's own `.pth`, as that wheel has it.
_STARTUP = frozenset({"sitecustomize", "usercustomize"})
_BUNDLED_PTH = frozenset({"distutils-precedence.pth"})
# What an installer adds to a wheel's RECORD (not in the wheel): never a module.
_INSTALLER_FILES = frozenset({"INSTALLER", "REQUESTED", "direct_url.json", "RECORD", "uv_cache.json"})
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")
_HASH = re.compile(r"--hash=sha256:([0-9a-f]{64})")


class Unusable(Exception):
    """The venv is not what the lock builds; the message says why, in one line."""


def normal_name(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lock: Path) -> dict[str, str]:
    """The lock's `name==version` pins, names normalised."""
    return {name: version for name, version in pinned_hashes(lock)}


def pinned_hashes(lock: Path) -> dict[tuple[str, str], frozenset[str]]:
    """The lock's pins, (normalised name, version), each with the sha256 hashes of its wheels."""
    found: dict[tuple[str, str], frozenset[str]] = {}
    pin: tuple[str, str] | None = None
    for line in lock.read_text(encoding="utf-8").splitlines():
        match = _PIN.match(line)
        if match:
            pin = (normal_name(match.group(1)), match.group(2))
            found[pin] = frozenset()
        elif not line[:1].isspace():
            pin = None
        if pin is not None:
            found[pin] |= frozenset(_HASH.findall(line))
    return found


def records_file(lock: Path) -> Path:
    """The records file of a lock: `action.txt` -> `action-records.txt` beside it."""
    return lock.with_name(f"{lock.stem}-records.txt")


def read_records(path: Path) -> dict[tuple[str, str], frozenset[str]]:
    """A records file's digests by pin: `name==version digest wheel` lines (# comments aside)."""
    found: dict[tuple[str, str], frozenset[str]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split()
        match = _PIN.match(fields[0])
        if len(fields) != 3 or match is None or not re.fullmatch(r"[0-9a-f]{64}", fields[1]):
            raise Unusable(f"{path.name}, line {number}: not `name==version digest wheel`")
        pin = (normal_name(match.group(1)), match.group(2))
        found[pin] = found.get(pin, frozenset()) | {fields[1]}
    return found


def _installer_added(path: str) -> bool:
    """Whether a path in site-packages is what an installer adds, never a wheel's: bytecode, and
    its own files in the top `.dist-info` folder (INSTALLER, RECORD...)."""
    parts = path.split("/")
    if "__pycache__" in parts[:-1] and parts[-1].endswith(".pyc"):
        return True
    return len(parts) == 2 and parts[0].endswith(".dist-info") and parts[1] in _INSTALLER_FILES


def records_digest(rows: list[tuple[str, str, int]]) -> str:
    """The sum of a distribution's files in site-packages: (path, urlsafe-base64 sha256 as RECORD
    writes it, size) rows, what an installer adds left out, sorted, hashed with sha256. The same
    for a wheel (scripts/venv_records.py) and for what uv or pip installed from it."""
    kept = sorted(f"{path},{hashed},{size}" for path, hashed, size in rows if not _installer_added(path))
    return hashlib.sha256("\n".join(kept).encode("utf-8")).hexdigest()


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


def _recorded(site: Path, record: Path) -> tuple[set[Path], str]:
    """The files a RECORD lists, each checked against its hash and size: their paths, and the sum
    of those in site-packages (`records_digest`)."""
    listed = set()
    rows: list[tuple[str, str, int]] = []
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
            found = _digest(path)
            if found != (hashed.removeprefix("sha256="), int(size or -1)):
                raise Unusable(f"{name}: not the file {record.parent.name}/RECORD lists")
            if path.is_relative_to(site):  # scripts in bin/ never run: the action runs python -P -m
                rows.append((path.relative_to(site).as_posix(), *found))
    return listed, records_digest(rows)


def bundled() -> dict[str, Path]:
    """The wheels the running Python's ensurepip bundles (what `python -m venv` installs), by
    normalised name: the pip fallback's pip and setuptools are checked against them."""
    try:
        import ensurepip
    except ImportError:
        return {}
    found = {}
    for wheel in sorted((Path(ensurepip.__file__).parent / "_bundled").glob("*.whl")):
        found[normal_name(wheel.name.split("-", 1)[0])] = wheel
    return found


def _wheel_record(wheel: Path) -> dict[str, tuple[str, str]]:
    """A wheel's own RECORD: path -> (hash, size)."""
    with zipfile.ZipFile(wheel) as archive:
        info = next(name for name in archive.namelist() if name.endswith(".dist-info/RECORD"))
        rows = csv.reader(archive.read(info).decode("utf-8").splitlines())
        return {row[0]: (row[1], row[2]) for row in rows if len(row) >= 3}


def _anchored(site: Path, info: Path, wheel: Path) -> None:
    """Every file the installed RECORD lists is the bundled wheel's own (same hash and size), but
    what an installer adds: its own files in the .dist-info, bytecode, scripts in bin/."""
    own = _wheel_record(wheel)
    with (info / "RECORD").open(encoding="utf-8", newline="") as stream:
        for row in csv.reader(stream):
            if not row:
                continue
            name, hashed, size = [*row, "", ""][:3]
            added = (
                (name.startswith(info.name + "/") and name.rsplit("/", 1)[-1] in _INSTALLER_FILES)
                or "/__pycache__/" in f"/{name}"
                or name.startswith("../")
            )
            if added and name not in own:
                if name.endswith(".pth") or (name.startswith("../") and not name.startswith("../../../bin/")):
                    raise Unusable(f"{info.name}/RECORD: {name} is not in the bundled {wheel.name}")
                continue
            if own.get(name) != (hashed, size):
                raise Unusable(f"{info.name}/RECORD: {name} is not the bundled {wheel.name}'s")


def _startup_file(site: Path, path: Path) -> bool:
    """Whether Python runs `path` when it starts: a `.pth` of site-packages, or a module named
    sitecustomize or usercustomize (a file or a package) anywhere it can be imported from."""
    if path.suffix == ".pth":
        return True
    top = path.relative_to(site).parts[0]
    return top.split(".", 1)[0] in _STARTUP


def check(venv: Path, python: Path, lock: Path, wheels: dict[str, Path] | None = None) -> None:
    """Raise Unusable unless `venv` is what a build from `lock` with `python` makes; `wheels`: the
    setup Python's bundled wheels by name (default: those of the running Python)."""
    _check_interpreter(venv, python)
    site = _site_packages(venv)
    expected = pins(lock)
    sums = read_records(records_file(lock))
    own_wheels = bundled() if wheels is None else wheels
    installed: dict[str, str] = {}
    listed: set[Path] = set()
    allowed: set[Path] = set()
    unlike: list[str] = []  # locked distributions whose files are no wheel's of their pin
    for info in sorted(site.glob("*.dist-info")):
        name, _, version = info.name.removesuffix(".dist-info").partition("-")
        key = normal_name(name)
        installed[key] = version
        if expected.get(key) != version:
            wheel = own_wheels.get(key) if key in _ENSUREPIP else None
            if wheel is None or not wheel.name.startswith(f"{name}-{version}-"):
                raise Unusable(f"{info.name}: neither a pin of the lock nor the setup Python's bundled wheel")
            _anchored(site, info, wheel)
            allowed |= {site / pth for pth in _BUNDLED_PTH}
            listed |= _recorded(site, info / "RECORD")[0]
            continue
        files, summed = _recorded(site, info / "RECORD")
        if summed not in sums.get((key, version), frozenset()):
            unlike.append(info.name)
        listed |= files
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
        if _startup_file(site, path) and not (path in allowed and path in listed):
            raise Unusable(
                f"{path.relative_to(venv)}: runs when Python starts; a venv built from the lock has none"
            )
        if path in listed or _bytecode_of_listed(path, listed):
            continue
        raise Unusable(f"{path.relative_to(venv)}: in site-packages but in no RECORD")
    if unlike:
        raise Unusable(
            f"{unlike[0]}: its files (RECORD) are not those of any wheel of its pin that "
            f"{records_file(lock).name} lists"
        )


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
