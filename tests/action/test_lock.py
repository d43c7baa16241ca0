"""The action's hashed locks cover pyproject.toml's runtime dependencies (scripts/lock makes them).

A dependency added to pyproject.toml without re-locking would make the action's install fail
on every runner (`--require-hashes` refuses anything unlisted): this test fails first, and says
what to run.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent.parent
RELOCK = "run scripts/lock and commit requirements/"
# What the action's runners are: CPython 3.11 (setup-python's "3.11") on Linux or macOS.
RUNNERS = [
    {"python_version": "3.11", "python_full_version": "3.11.9", "sys_platform": platform, "extra": ""}
    for platform in ("linux", "darwin")
]
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+?)(?:\s*;\s*(?P<marker>[^\\]+?))?\s*(?:\\)?$")
_HASH = re.compile(r"^\s+--hash=sha256:[0-9a-f]{64}\s*(?:\\)?$")


def parse_lock(path: Path) -> dict[str, tuple[str, int]]:
    """Each pinned package of a hashed requirements file: its version and how many hashes it has.

    Raises AssertionError naming the line for anything that is not a comment, a pin or a hash.
    A pin whose environment marker no runner satisfies (a universal lock pins e.g. numpy once
    for Python 3.11 and once for 3.12+) is checked for hashes but left out of the result.
    """
    pins: dict[str, tuple[str, int]] = {}
    current = ""
    skipped = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        pin = _PIN.match(line)
        if pin is not None:
            marker = pin.group("marker")
            skipped = marker is not None and not any(Marker(marker).evaluate(runner) for runner in RUNNERS)
            current = canonicalize_name(pin.group(1))
            if skipped:
                continue
            assert current not in pins, f"{path.name}:{number}: {current} pinned twice; {RELOCK}"
            pins[current] = (pin.group(2), 0)
        elif _HASH.match(line) and current and skipped:
            continue
        elif _HASH.match(line) and current:
            version, hashes = pins[current]
            pins[current] = (version, hashes + 1)
        else:
            raise AssertionError(f"{path.name}:{number}: neither a pin nor a sha256 hash: {line!r}; {RELOCK}")
    return pins


def runtime_requirements() -> list[Requirement]:
    """pyproject.toml's [project] dependencies."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [Requirement(text) for text in project["dependencies"]]


def applies(requirement: Requirement, extras: frozenset[str]) -> bool:
    """Whether a requirement is installed on some runner, with the extras asked for."""
    if requirement.marker is None:
        return True
    return any(
        requirement.marker.evaluate({**runner, "extra": extra})
        for runner in RUNNERS
        for extra in (extras or {""})
    )


@pytest.fixture(scope="module")
def lock() -> dict[str, tuple[str, int]]:
    return parse_lock(ROOT / "requirements" / "action.txt")


def test_every_pin_has_hashes(lock: dict[str, tuple[str, int]]) -> None:
    assert lock, "requirements/action.txt pins nothing"
    for name, (version, hashes) in lock.items():
        assert hashes >= 1, f"requirements/action.txt: {name}=={version} has no --hash; {RELOCK}"
    uv = parse_lock(ROOT / "requirements" / "uv.txt")
    assert list(uv) == ["uv"]
    # One wheel per platform: Linux x86_64/arm64 and macOS at least.
    assert uv["uv"][1] >= 3, f"requirements/uv.txt: too few hashes for uv; {RELOCK}"


def test_lock_pins_every_runtime_dependency(lock: dict[str, tuple[str, int]]) -> None:
    for requirement in runtime_requirements():
        name = canonicalize_name(requirement.name)
        assert name in lock, (
            f"pyproject.toml requires {requirement} but requirements/action.txt does not pin it; {RELOCK}"
        )
        version = lock[name][0]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"requirements/action.txt pins {name}=={version}, outside pyproject.toml's "
            f"{requirement}; {RELOCK}"
        )


def test_lock_is_closed_under_dependencies(lock: dict[str, tuple[str, int]]) -> None:
    """Every dependency of a locked package (as installed here) is locked too: --no-deps misses none."""
    extras: dict[str, frozenset[str]] = {}
    for requirement in runtime_requirements():
        key = canonicalize_name(requirement.name)
        extras[key] = extras.get(key, frozenset()) | frozenset(requirement.extras)
    for name in lock:
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue  # not installed in this venv: nothing to compare with
        for text in requires:
            needed = Requirement(text)
            if applies(needed, extras.get(name, frozenset())):
                assert canonicalize_name(needed.name) in lock, (
                    f"{name} requires {needed} but requirements/action.txt does not pin it; {RELOCK}"
                )


def test_a_dependency_added_without_relocking_fails(tmp_path: Path) -> None:
    """The check above, on a lock that misses one package, names it and says what to run."""
    lines = (ROOT / "requirements" / "action.txt").read_text(encoding="utf-8").splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith("jinja2=="))
    end = next(index for index in range(start + 1, len(lines)) if not lines[index].startswith(" "))
    stale = tmp_path / "action.txt"
    stale.write_text("\n".join(lines[:start] + lines[end:]), encoding="utf-8")
    pins = parse_lock(stale)
    assert "jinja2" not in pins
    with pytest.raises(AssertionError, match=r"does not pin it; run scripts/lock"):
        test_lock_pins_every_runtime_dependency(pins)
