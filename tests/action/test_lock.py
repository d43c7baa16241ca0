"""The action's hashed locks cover pyproject.toml's runtime dependencies (scripts/lock makes them).

A dependency added to pyproject.toml without re-locking would make the action's install fail
on every runner (`--require-hashes` refuses anything unlisted): this test fails first, and says
what to run. requirements/uv-wheels.txt, the uv wheel action.yml downloads for each runner
platform, names only wheels of the pinned uv whose hashes requirements/uv.txt has.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

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
# The runners action.yml supports, as `uname -s` and `uname -m` name them, and the family of the
# platform tag their uv wheel must carry (Linux runners are glibc: manylinux).
UV_RUNNERS = {
    ("Linux", "x86_64"): "manylinux_",
    ("Linux", "aarch64"): "manylinux_",
    ("Darwin", "x86_64"): "macosx_",
    ("Darwin", "arm64"): "macosx_",
}


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


def check_uv_wheels(wheels: Path, uv_lock: Path) -> None:
    """requirements/uv-wheels.txt names, for every runner, one wheel of uv.txt's uv with one of its hashes.

    Raises AssertionError naming the line (or the runner without one) and what to run.
    """
    lock_text = uv_lock.read_text(encoding="utf-8")
    version = re.search(r"^uv==(\S+)", lock_text, re.MULTILINE)
    assert version is not None, f"{uv_lock.name} pins no uv; {RELOCK}"
    hashes = set(re.findall(r"--hash=sha256:([0-9a-f]{64})", lock_text))
    found: set[tuple[str, str]] = set()
    for number, line in enumerate(wheels.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        where = f"{wheels.name}:{number}"
        fields = line.split()
        assert len(fields) == 4, f"{where}: not `uname -s` `uname -m` sha256 URL: {line!r}; {RELOCK}"
        system, machine, sha256, url = fields
        runner = (system, machine)
        assert runner in UV_RUNNERS, f"{where}: {system} {machine} is not a runner of the action"
        assert runner not in found, f"{where}: {system} {machine} listed twice; {RELOCK}"
        found.add(runner)
        assert sha256 in hashes, f"{where}: sha256 {sha256} is not one of {uv_lock.name}'s hashes; {RELOCK}"
        assert url.startswith("https://files.pythonhosted.org/packages/"), f"{where}: {url} is not PyPI's"
        filename = url.rsplit("/", 1)[1]
        prefix = f"uv-{version.group(1)}-py3-none-"
        assert filename.startswith(prefix) and filename.endswith(".whl"), (
            f"{where}: {filename} is not a wheel of uv {version.group(1)}; {RELOCK}"
        )
        tags = filename[len(prefix) : -len(".whl")].split(".")
        assert any(tag.startswith(UV_RUNNERS[runner]) and tag.endswith("_" + machine) for tag in tags), (
            f"{where}: {filename} is not a wheel for {system} {machine}"
        )
    for system, machine in sorted(set(UV_RUNNERS) - found):
        raise AssertionError(f"{wheels.name}: no uv wheel for {system} {machine}; {RELOCK}")


def test_uv_wheels_cover_every_runner_with_a_locked_hash() -> None:
    check_uv_wheels(ROOT / "requirements" / "uv-wheels.txt", ROOT / "requirements" / "uv.txt")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda text: re.sub(r"(?m)^Linux aarch64 .*\n", "", text), r"no uv wheel for Linux aarch64"),
        (lambda text: re.sub(r"(?m)^(Darwin arm64) [0-9a-f]{64}", r"\1 " + "a" * 64, text), r"is not one of"),
        (
            lambda text: text.replace("macosx_11_0_arm64", "macosx_11_0_x86_64"),
            r"not a wheel for Darwin arm64",
        ),
        (lambda text: text.replace("uv-0.", "uv-9."), r"is not a wheel of uv"),
        (lambda text: text + "Windows AMD64 " + "b" * 64 + " https://x\n", r"not a runner of the action"),
    ],
)
def test_a_stale_or_foreign_uv_wheel_list_fails(tmp_path: Path, change: Any, message: str) -> None:
    """The check above, on a list that misses a runner or names a wheel uv.txt does not allow."""
    text = (ROOT / "requirements" / "uv-wheels.txt").read_text(encoding="utf-8")
    stale = tmp_path / "uv-wheels.txt"
    stale.write_text(change(text), encoding="utf-8")
    assert stale.read_text(encoding="utf-8") != text
    with pytest.raises(AssertionError, match=message):
        check_uv_wheels(stale, ROOT / "requirements" / "uv.txt")


@pytest.fixture(scope="module")
def uv_wheels() -> ModuleType:
    spec = importlib.util.spec_from_file_location("uv_wheels", ROOT / "scripts" / "uv_wheels.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["uv_wheels"] = module
    spec.loader.exec_module(module)
    return module


def _file(filename: str, sha256: str, **extra: Any) -> dict[str, Any]:
    url = f"https://files.pythonhosted.org/packages/ab/cd/{filename}"
    return {"filename": filename, "url": url, "hashes": {"sha256": sha256}, **extra}


def test_scripts_lock_picks_each_runners_widest_wheel_of_the_pinned_version(uv_wheels: ModuleType) -> None:
    """The oldest glibc and macOS a wheel runs on wins; other versions, yanked files, musl, sdists are passed over."""
    files = [
        _file("uv-1.2.0-py3-none-manylinux_2_28_aarch64.whl", "1" * 64),
        _file(
            "uv-1.2.0-py3-none-manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64.whl",
            "2" * 64,
        ),
        _file("uv-1.2.0-py3-none-musllinux_1_1_x86_64.whl", "3" * 64),
        _file("uv-1.2.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "4" * 64),
        _file("uv-1.1.0-py3-none-manylinux_2_5_x86_64.whl", "5" * 64),
        _file("uv-1.2.0-py3-none-manylinux_2_12_x86_64.whl", "6" * 64, yanked="broken"),
        _file("uv-1.2.0-py3-none-macosx_11_0_arm64.whl", "7" * 64),
        _file("uv-1.2.0-py3-none-macosx_10_12_x86_64.whl", "8" * 64),
        _file("uv-1.2.0.tar.gz", "9" * 64),
    ]
    lock = frozenset(str(digit) * 64 for digit in range(1, 10))
    chosen = {
        (system, machine): sha256
        for system, machine, sha256, _ in uv_wheels.choose_wheels(files, "1.2.0", lock)
    }
    assert chosen == {
        ("Linux", "x86_64"): "4" * 64,
        ("Linux", "aarch64"): "2" * 64,
        ("Darwin", "x86_64"): "8" * 64,
        ("Darwin", "arm64"): "7" * 64,
    }
    with pytest.raises(uv_wheels.WheelsError, match=r"is not in requirements/uv.txt"):
        uv_wheels.choose_wheels(files, "1.2.0", lock - {"2" * 64})
    with pytest.raises(uv_wheels.WheelsError, match=r"no uv 1.2.0 wheel for Darwin arm64"):
        uv_wheels.choose_wheels(
            [entry for entry in files if "_arm64" not in entry["filename"]], "1.2.0", lock
        )
