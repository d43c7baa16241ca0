"""scripts/check_venv.py: a restored venv is used only when it is what the lock builds (the replay
test poisons a real cache entry; these plant each other kind of change in a small venv)."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
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


CHECK = _script()


def _line(site: Path, name: str) -> str:
    data = (site / name).read_bytes()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).decode().rstrip("=")
    return f"{name},sha256={digest},{len(data)}"


def _distribution(site: Path, name: str, version: str, files: dict[str, str]) -> None:
    info = f"{name}-{version}.dist-info"
    (site / info).mkdir()
    for path, text in {**files, f"{info}/METADATA": f"Name: {name}\n"}.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(text, encoding="utf-8")
    lines = [_line(site, path) for path in [*files, f"{info}/METADATA"]]
    (site / info / "RECORD").write_text("\n".join([*lines, f"{info}/RECORD,,"]) + "\n", encoding="utf-8")


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
    _distribution(site, "demo", "1.0", {"demo/__init__.py": "X = 1\n"})
    _distribution(site, "other_pkg", "2.1", {"other.py": "Y = 2\n"})
    (site / "demo" / "__pycache__").mkdir()
    (site / "demo" / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"\0")
    lock = tmp_path / "action.txt"
    lock.write_text(LOCK, encoding="utf-8")
    return venv, python, lock


def _site(venv: Path) -> Path:
    return venv / "lib" / "python3.11" / "site-packages"


def test_the_venv_a_build_makes_is_usable(venv: tuple[Path, Path, Path]) -> None:
    CHECK.check(*venv)


def _another_interpreter(venv: Path) -> None:
    (venv / "bin" / "python").unlink()
    (venv / "bin" / "python").symlink_to("/bin/sh")


def _listed(venv: Path, name: str, text: str) -> None:
    """A file planted with its line in demo's RECORD (its sha256 and size right)."""
    site = _site(venv)
    (site / name).parent.mkdir(parents=True, exist_ok=True)
    (site / name).write_text(text, encoding="utf-8")
    record = site / "demo-1.0.dist-info" / "RECORD"
    record.write_text(_line(site, name) + "\n" + record.read_text(encoding="utf-8"), encoding="utf-8")


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
