"""scripts/check_venv.py: a restored venv is used only when it is what the lock builds (the replay
test poisons a real cache entry; these plant each other kind of change in a small venv)."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import zipfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
LOCK = "demo==1.0 \\\n    --hash=sha256:00\nother-pkg==2.1 \\\n    --hash=sha256:11\n"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_venv", ROOT / "scripts" / "check_venv.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _records_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("venv_records", ROOT / "scripts" / "venv_records.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK = _script()
RECORDS = _records_script()


def _line(site: Path, name: str) -> str:
    data = (site / name).read_bytes()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).decode().rstrip("=")
    return f"{name},sha256={digest},{len(data)}"


def _wheel_bytes(name: str, version: str, files: dict[str, str]) -> bytes:
    """The wheel a distribution of `files` is installed from (its RECORD as a wheel has it)."""
    import io

    info = f"{name}-{version}.dist-info"
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w") as archive:
        lines = []
        for path, text in {**files, f"{info}/METADATA": f"Name: {name}\n"}.items():
            archive.writestr(path, text.encode())
            digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).decode().rstrip("=")
            lines.append(f"{path},sha256={digest},{len(text.encode())}")
        archive.writestr(f"{info}/RECORD", "\n".join([*lines, f"{info}/RECORD,,"]) + "\n")
    return stream.getvalue()


def _distribution(site: Path, name: str, version: str, files: dict[str, str]) -> None:
    info = f"{name}-{version}.dist-info"
    (site / info).mkdir()
    for path, text in {**files, f"{info}/METADATA": f"Name: {name}\n"}.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(text, encoding="utf-8")
    lines = [_line(site, path) for path in [*files, f"{info}/METADATA"]]
    (site / info / "RECORD").write_text("\n".join([*lines, f"{info}/RECORD,,"]) + "\n", encoding="utf-8")


DEMO_WHEEL = ("demo", "1.0", {"demo/__init__.py": "X = 1\n"})
OTHER_WHEEL = ("other_pkg", "2.1", {"other.py": "Y = 2\n"})


@pytest.fixture
def venv(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A venv as a build from LOCK makes it (two distributions, bytecode of one module)."""
    python = tmp_path / "python" / "bin" / "python3.11"
    python.parent.mkdir(parents=True)
    python.write_text("", encoding="utf-8")
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(python)
    (venv / "pyvenv.cfg").write_text(
        f"home = {python.parent}\ninclude-system-site-packages = false\n", encoding="utf-8"
    )
    site = venv / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    _distribution(site, *DEMO_WHEEL)
    _distribution(site, *OTHER_WHEEL)
    (site / "demo" / "__pycache__").mkdir()
    (site / "demo" / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"\0")
    lock = tmp_path / "action.txt"
    lock.write_text(LOCK, encoding="utf-8")
    # What scripts/venv_records.py writes from the lock's wheels: one line per wheel.
    (tmp_path / "action-records.txt").write_text(
        "# made from the wheels\n"
        + "".join(
            f"{pin} {RECORDS.wheel_digest(_wheel_bytes(*wheel))} {wheel[0]}-{wheel[1]}-py3-none-any.whl\n"
            for pin, wheel in (("demo==1.0", DEMO_WHEEL), ("other-pkg==2.1", OTHER_WHEEL))
        ),
        encoding="utf-8",
    )
    return venv, python, lock


def _site(venv: Path) -> Path:
    return venv / "lib" / "python3.11" / "site-packages"


def test_the_venv_a_build_makes_is_usable(venv: tuple[Path, Path, Path]) -> None:
    CHECK.check(*venv)


def _another_interpreter(venv: Path) -> None:
    (venv / "bin" / "python").unlink()
    (venv / "bin" / "python").symlink_to("/bin/sh")


def _listed(venv: Path, name: str, text: str) -> None:
    """A file planted or changed with its line in demo's RECORD (its sha256 and size right)."""
    site = _site(venv)
    (site / name).parent.mkdir(parents=True, exist_ok=True)
    (site / name).write_text(text, encoding="utf-8")
    record = site / "demo-1.0.dist-info" / "RECORD"
    others = [
        line for line in record.read_text(encoding="utf-8").splitlines() if not line.startswith(f"{name},")
    ]
    record.write_text("\n".join([_line(site, name), *others]) + "\n", encoding="utf-8")


CHANGES: dict[str, tuple[Callable[[Path], object], str]] = {
    "a .pth": (lambda v: (_site(v) / "evil.pth").write_text("import os\n"), "evil.pth: runs when Python starts"),
    "sitecustomize": (lambda v: (_site(v) / "sitecustomize.py").write_text(""), "sitecustomize.py: runs when Python starts"),
    # Before: each of these passed (a RECORD line makes a file "listed"; pip was not checked).
    "a .pth with its RECORD line": (lambda v: _listed(v, "evil.pth", "import os\n"), "evil.pth: runs when Python starts"),
    "usercustomize with its RECORD line": (
        lambda v: _listed(v, "usercustomize/__init__.py", "import os\n"),
        "usercustomize/__init__.py: runs when Python starts",
    ),
    "a fake pip-99.0 listing a sitecustomize.py": (
        lambda v: _distribution(_site(v), "pip", "99.0", {"sitecustomize.py": "import os\n"}),
        "pip-99.0.dist-info: neither a pin of the lock nor the setup Python's bundled wheel",
    ),
    # Before: each of these passed (each file had its RECORD line; nothing tied a RECORD to the lock).
    "a module changed with its RECORD line": (
        lambda v: _listed(v, "demo/__init__.py", "import os\nX = 1\n"),
        "demo-1.0.dist-info: its files (RECORD) are not those of any wheel of its pin",
    ),
    "a module planted with its RECORD line": (
        lambda v: _listed(v, "demo/evil.py", "import os\n"),
        "demo-1.0.dist-info: its files (RECORD) are not those of any wheel of its pin",
    ),
    "a changed file": (lambda v: (_site(v) / "demo" / "__init__.py").write_text("X = 2\n"), "demo/__init__.py: not the file"),
    "an extra package": (
        lambda v: _distribution(_site(v), "extra", "0.1", {"extra.py": ""}),
        "extra-0.1.dist-info: neither a pin of the lock nor the setup Python's bundled wheel",
    ),
    "another interpreter": (_another_interpreter, "is not a link to"),
    "system site-packages": (
        lambda v: (v / "pyvenv.cfg").write_text((v / "pyvenv.cfg").read_text().replace("false", "true")),
        "include-system-site-packages is not false",
    ),
    "bytecode without a source": (
        lambda v: (_site(v) / "demo" / "__pycache__" / "evil.cpython-311.pyc").write_bytes(b"\0"),
        "evil.cpython-311.pyc: in site-packages but in no RECORD",
    ),
}  # fmt: skip


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_each_change_makes_it_unusable(venv: tuple[Path, Path, Path], change: str) -> None:
    plant, said = CHANGES[change]
    plant(venv[0])
    with pytest.raises(CHECK.Unusable, match=None) as refused:
        CHECK.check(*venv)
    assert said in str(refused.value)


def _wheel(folder: Path, name: str, version: str, files: dict[str, str]) -> Path:
    """A bundled wheel as ensurepip ships it: its files and its RECORD."""
    import zipfile

    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    with zipfile.ZipFile(wheel, "w") as archive:
        lines = []
        for path, text in {**files, f"{info}/METADATA": f"Name: {name}\n"}.items():
            data = text.encode()
            archive.writestr(path, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).decode().rstrip("=")
            lines.append(f"{path},sha256={digest},{len(data)}")
        archive.writestr(f"{info}/RECORD", "\n".join([*lines, f"{info}/RECORD,,"]) + "\n")
    return wheel


SETUPTOOLS = {"setuptools/__init__.py": "", "distutils-precedence.pth": "import os\n"}


def test_the_pip_fallbacks_bundled_setuptools_is_anchored_to_its_wheel(
    venv: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    wheels = {"setuptools": _wheel(tmp_path, "setuptools", "65.5.0", SETUPTOOLS)}
    _distribution(_site(venv[0]), "setuptools", "65.5.0", SETUPTOOLS)
    CHECK.check(*venv, wheels=wheels)  # its own .pth, as its wheel has it
    (_site(venv[0]) / "distutils-precedence.pth").write_text("import evil\n", encoding="utf-8")
    record = _site(venv[0]) / "setuptools-65.5.0.dist-info" / "RECORD"
    lines = record.read_text(encoding="utf-8").splitlines()
    lines[1] = _line(_site(venv[0]), "distutils-precedence.pth")
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(CHECK.Unusable, match=r"distutils-precedence\.pth is not the bundled"):
        CHECK.check(*venv, wheels=wheels)  # changed with its RECORD line: not the wheel's


def test_a_distribution_may_be_any_wheel_its_pin_lists(venv: tuple[Path, Path, Path]) -> None:
    # Another runner's wheel of the same pin (another platform's build) sums to another line.
    records = venv[2].with_name("action-records.txt")
    text = records.read_text(encoding="utf-8")
    records.write_text(
        text.replace("demo==1.0 ", "demo==1.0 " + "0" * 64 + " demo-1.0-cp311-x.whl\ndemo==1.0 ", 1)
    )
    CHECK.check(*venv)
    records.write_text("".join(line + "\n" for line in text.splitlines() if not line.startswith("demo==")))
    with pytest.raises(CHECK.Unusable, match=r"demo-1\.0\.dist-info: its files \(RECORD\) are not those"):
        CHECK.check(*venv)  # a pin the records file does not list


def test_a_records_file_that_is_not_one_is_refused_naming_its_line(venv: tuple[Path, Path, Path]) -> None:
    venv[2].with_name("action-records.txt").write_text("# made\ndemo==1.0 nothex\n", encoding="utf-8")
    with pytest.raises(
        CHECK.Unusable, match=r"action-records\.txt, line 2: not `name==version digest wheel`"
    ):
        CHECK.check(*venv)


def test_a_wheel_sums_as_what_an_installer_puts_in_site_packages() -> None:
    # purelib and platlib are unpacked at the top, scripts go to bin/ (not summed); what the
    # installer adds (INSTALLER, its RECORD, bytecode) is never summed.
    files = {
        "pkg/__init__.py": "A = 1\n",
        "pkg-1.0.data/purelib/extra.py": "B = 2\n",
        "pkg-1.0.data/scripts/run": "#!python\n",
    }
    installed = [
        ("pkg/__init__.py", "A = 1\n"),
        ("extra.py", "B = 2\n"),
        ("pkg-1.0.dist-info/METADATA", "Name: pkg\n"),
    ]
    rows = [
        (
            path,
            base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).decode().rstrip("="),
            len(text),
        )
        for path, text in installed
    ]
    added = [("pkg-1.0.dist-info/INSTALLER", "x", 3), ("pkg/__pycache__/__init__.cpython-311.pyc", "y", 9)]
    assert RECORDS.wheel_digest(_wheel_bytes("pkg", "1.0", files)) == CHECK.records_digest(rows + added)


@pytest.mark.parametrize(
    ("wheel", "fits"),
    [
        ("demo-1.0-py3-none-any.whl", True),
        (
            "aiohttp-3.14.5-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl",
            True,
        ),
        ("aiohttp-3.14.5-cp311-cp311-macosx_11_0_arm64.whl", True),
        ("pydantic_core-2.50.5-cp39-abi3-macosx_10_12_x86_64.whl", True),
        ("aiohttp-3.14.5-cp312-cp312-manylinux_2_17_x86_64.whl", False),
        ("aiohttp-3.14.5-cp311-cp311-musllinux_1_2_x86_64.whl", False),
        ("aiohttp-3.14.5-cp311-cp311-win_amd64.whl", False),
        ("x-1.0-cp312-abi3-manylinux_2_17_x86_64.whl", False),
    ],
)
def test_the_records_hold_the_wheels_a_runner_can_install(wheel: str, fits: bool) -> None:
    assert RECORDS.fits(wheel) is fits


def test_the_records_file_covers_every_pin_of_the_lock_on_every_runner() -> None:
    # A lock changed without `scripts/lock` (which writes both) fails here, offline; the replay
    # test checks that a real build sums to the lines (tests/action/test_replay.py).
    lock = ROOT / "requirements" / "action.txt"
    lines = [
        line.split()
        for line in CHECK.records_file(lock).read_text(encoding="utf-8").splitlines()
        if not line.startswith("#")
    ]
    hashes = CHECK.pinned_hashes(lock)
    assert {(CHECK.normal_name(pin.split("==")[0]), pin.split("==")[1]) for pin, _, _ in lines} == set(hashes)
    assert CHECK.read_records(CHECK.records_file(lock)).keys() == hashes.keys()
    runners = {
        "Linux x86_64": ("manylinux", ("_x86_64",)),
        "Linux aarch64": ("manylinux", ("_aarch64",)),
        "macOS x86_64": ("macosx", ("_x86_64", "_universal2")),
        "macOS arm64": ("macosx", ("_arm64", "_universal2")),
    }
    for name, version in hashes:
        wheels = [wheel for pin, _, wheel in lines if pin == f"{name}=={version}"]
        assert all(RECORDS.fits(wheel) for wheel in wheels)
        for runner, (system, machines) in runners.items():
            assert any(
                wheel.endswith("-none-any.whl") or (system in wheel and any(m in wheel for m in machines))
                for wheel in wheels
            ), f"{name}=={version}: no wheel for {runner}"
