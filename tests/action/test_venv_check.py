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


CHANGES: dict[str, tuple[Callable[[Path], object], str]] = {
    "a .pth": (lambda v: (_site(v) / "evil.pth").write_text("import os\n"), "evil.pth: in site-packages but in no RECORD"),
    "sitecustomize": (lambda v: (_site(v) / "sitecustomize.py").write_text(""), "sitecustomize.py: in site-packages"),
    "a changed file": (lambda v: (_site(v) / "demo" / "__init__.py").write_text("X = 2\n"), "demo/__init__.py: not the file"),
    "an extra package": (
        lambda v: _distribution(_site(v), "extra", "0.1", {"extra.py": ""}),
        "distributions differ from the lock: extra [('extra', '0.1')]",
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
