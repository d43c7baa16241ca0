"""The distribution's version for `corrections --version` and `learnings --version`.

Read from the pyproject.toml beside the packages (the action runs the checkout without
installing it), else from the installed package's metadata. Imports nothing of the network
stack, so `--version` answers at once.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

DISTRIBUTION = "correction-reader"
_PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def package_version() -> str:
    """The version of correction-reader, e.g. `1.0.0`; `unknown` when nothing says it.

    The pyproject.toml beside the packages first (a checkout, as the action runs it, or an
    editable install: the code's own version), then the installed metadata (a wheel has no
    pyproject.toml there). importlib.metadata alone took longer than the rest of `--version`.
    """
    import tomllib

    try:
        project = tomllib.loads(_PYPROJECT.read_text(encoding="utf-8")).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        project = {}
    version = project.get("version") if project.get("name") == DISTRIBUTION else None
    if isinstance(version, str) and version:
        return version
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


class VersionAction(argparse.Action):
    """`--version`: prints `PROG VERSION` on stdout and exits 0; the version is looked up only then."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        kwargs.setdefault("help", "print the version and exit")
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        print(f"{parser.prog} {package_version()}", flush=True)
        parser.exit()
