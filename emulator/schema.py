"""GitHub's published GraphQL schema: fetched once with npm, integrity-checked, cached, built.

The one module of the project that obtains the schema. The emulator executes it and
the tests validate every query of the product against it; the product itself never
builds it at run time.

Run ``python -m emulator.schema`` to fetch it into the cache (``.ci/run`` does).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import io
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from graphql import GraphQLSchema, build_schema

PACKAGE = "@octokit/graphql-schema"
VERSION = "15.26.1"
# The npm registry's `dist.integrity` of that version (npm view @octokit/graphql-schema@15.26.1 dist).
INTEGRITY = "sha512-RFDC2MpRBd4AxSRvUeBIVeBU7ojN/SxDfALUd7iVYOSeEK3gZaqR2MGOysj4Zh2xj2RY5fQAUT+Oqq7hWTraMA=="
TARBALL = f"octokit-graphql-schema-{VERSION}.tgz"


class SchemaUnavailable(RuntimeError):
    """The schema is not cached and could not be fetched or verified."""


def cache_dir() -> Path:
    """Where the tarball and the extracted SDL live (outside the repository)."""
    configured = os.environ.get("CORRECTION_READER_CACHE")
    if configured:
        return Path(configured)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "correction-reader"


def _check_integrity(data: bytes) -> None:
    algorithm, _, expected = INTEGRITY.partition("-")
    actual = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if actual != expected:
        raise SchemaUnavailable(
            f"{TARBALL}: integrity check failed (expected {INTEGRITY}, got {algorithm}-{actual})"
        )


def _extract_sdl(data: bytes) -> str:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        member = archive.extractfile("package/schema.graphql")
        if member is None:
            raise SchemaUnavailable(f"{TARBALL} has no package/schema.graphql")
        return member.read().decode("utf-8")


def _npm_pack(destination: Path) -> Path:
    try:
        subprocess.run(
            ["npm", "pack", f"{PACKAGE}@{VERSION}", "--pack-destination", str(destination), "--silent"],
            check=True,
            capture_output=True,
            timeout=300,
        )
    except FileNotFoundError as error:
        raise SchemaUnavailable("npm is not installed; it is needed once to fetch GitHub's schema") from error
    except subprocess.CalledProcessError as error:
        stderr = error.stderr.decode(errors="replace").strip().splitlines()
        detail = stderr[-1] if stderr else f"exit {error.returncode}"
        raise SchemaUnavailable(f"npm pack {PACKAGE}@{VERSION} failed: {detail}") from error
    except subprocess.TimeoutExpired as error:
        raise SchemaUnavailable(f"npm pack {PACKAGE}@{VERSION} timed out") from error
    return destination / TARBALL


def sdl_path(*, fetch: bool = True) -> Path:
    """Path of the cached, verified ``schema.graphql``; fetches it with npm when missing."""
    directory = cache_dir()
    sdl = directory / f"schema-{VERSION}.graphql"
    if sdl.exists():
        return sdl
    tarball = directory / TARBALL
    if not tarball.exists():
        if not fetch:
            raise SchemaUnavailable(f"{sdl} is missing; run `python -m emulator.schema` to fetch it")
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=directory) as scratch:
            fetched = _npm_pack(Path(scratch))
            _check_integrity(fetched.read_bytes())
            os.replace(fetched, tarball)
    data = tarball.read_bytes()
    _check_integrity(data)
    text = _extract_sdl(data)
    partial = sdl.with_suffix(".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, sdl)
    return sdl


@functools.cache
def load_schema() -> GraphQLSchema:
    """GitHub's schema, built from the SDL (which defines two fields twice, hence assume_valid)."""
    text = sdl_path().read_text(encoding="utf-8")
    return build_schema(text, assume_valid_sdl=True, assume_valid=True)


def main() -> int:
    """Fetch and verify the schema into the cache; print where it is."""
    try:
        path = sdl_path()
    except SchemaUnavailable as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
