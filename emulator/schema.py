"""GitHub's published GraphQL schema: fetched once with npm, integrity-checked, cached, built.

The one module of the project that obtains the schema. Two are built: the pinned npm release
(`load_schema`), and GitHub's current schema (`load_current_schema`): that release with the
overlay `schema_overlay.graphql` written by us from GitHub's schema of a later date (its source
pinned in `schema_overlay.toml`, docs/emulator.md "GitHub's current schema"). The emulator
executes the current one; the tests validate every query of the product against both; the
product itself never builds either at run time.

Run ``python -m emulator.schema`` to fetch it into the cache (``.ci/run`` does).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import io
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from graphql import (
    ArgumentNode,
    DefinitionNode,
    DocumentNode,
    EnumTypeDefinitionNode,
    FieldNode,
    GraphQLSchema,
    InputObjectTypeDefinitionNode,
    InterfaceTypeDefinitionNode,
    ObjectTypeDefinitionNode,
    TypeDefinitionNode,
    TypeInfo,
    TypeInfoVisitor,
    Visitor,
    build_ast_schema,
    parse,
    validate,
    visit,
)

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
def _npm_document() -> DocumentNode:
    """The npm release's SDL parsed once, for both schemas."""
    return parse(sdl_path().read_text(encoding="utf-8"), no_location=True)


@functools.cache
def load_schema() -> GraphQLSchema:
    """GitHub's schema, built from the SDL (which defines two fields twice, hence assume_valid)."""
    return build_ast_schema(_npm_document(), assume_valid_sdl=True, assume_valid=True)


OVERLAY = Path(__file__).with_name("schema_overlay.graphql")
OVERLAY_PIN = Path(__file__).with_name("schema_overlay.toml")

_WITH_FIELDS = (ObjectTypeDefinitionNode, InterfaceTypeDefinitionNode, InputObjectTypeDefinitionNode)


def _replaced(node: TypeDefinitionNode, **changes: Any) -> TypeDefinitionNode:
    """A copy of an AST node (they are frozen) with some attributes changed."""
    kept: dict[str, Any] = {key: getattr(node, key) for key in node.keys if key not in changes}
    return type(node)(**kept, **changes)


def _merged(base: TypeDefinitionNode, overlay: TypeDefinitionNode) -> TypeDefinitionNode:
    """`base` with the overlay's fields (or enum values) replacing those of the same name, the
    others added after."""
    if type(base) is not type(overlay):
        raise SchemaUnavailable(f"{OVERLAY.name}: {overlay.name.value} is not a {type(base).__name__}")
    if isinstance(base, _WITH_FIELDS) and isinstance(overlay, _WITH_FIELDS):
        given = {field.name.value: field for field in overlay.fields or ()}
        kept = [given.pop(field.name.value, field) for field in base.fields or ()]
        return _replaced(base, fields=(*kept, *given.values()))
    if isinstance(base, EnumTypeDefinitionNode) and isinstance(overlay, EnumTypeDefinitionNode):
        values = {value.name.value: value for value in overlay.values or ()}
        kept_values = [values.pop(value.name.value, value) for value in base.values or ()]
        return _replaced(base, values=(*kept_values, *values.values()))
    return overlay  # a union or scalar: the overlay's definition whole


def overlaid(base: DocumentNode, overlay: DocumentNode) -> DocumentNode:
    """The base SDL with the overlay's type definitions merged in (`_merged`); new types added."""
    given: dict[str, TypeDefinitionNode] = {}
    for definition in overlay.definitions:
        if not isinstance(definition, TypeDefinitionNode):
            raise SchemaUnavailable(f"{OVERLAY.name}: only type definitions may be given")
        given[definition.name.value] = definition
    definitions: list[DefinitionNode] = []
    for definition in base.definitions:
        if isinstance(definition, TypeDefinitionNode) and definition.name.value in given:
            definitions.append(_merged(definition, given.pop(definition.name.value)))
        else:
            definitions.append(definition)
    return DocumentNode(definitions=(*definitions, *given.values()))


@functools.cache
def load_current_schema() -> GraphQLSchema:
    """GitHub's current schema: the npm release with our overlay (`overlaid`)."""
    overlay = parse(OVERLAY.read_text(encoding="utf-8"), no_location=True)
    return build_ast_schema(overlaid(_npm_document(), overlay), assume_valid_sdl=True, assume_valid=True)


def overlay_additions() -> frozenset[tuple[str, str]]:
    """(type, field) of each overlay field the npm release lacks: where a document valid against
    the current schema may be refused by the npm one."""
    npm = load_schema()
    found: set[tuple[str, str]] = set()
    for definition in parse(OVERLAY.read_text(encoding="utf-8"), no_location=True).definitions:
        if isinstance(definition, _WITH_FIELDS):
            known = getattr(npm.get_type(definition.name.value), "fields", {})
            found.update(
                (definition.name.value, field.name.value)
                for field in definition.fields or ()
                if field.name.value not in known
            )
    return frozenset(found)


def npm_refusals(document: DocumentNode) -> list[str]:
    """What the npm release refuses in `document`, except the fields only the overlay has (GitHub
    added them after the release): a document the product sends must be valid against both."""
    added = overlay_additions()
    refused = []
    for error in validate(load_schema(), document):
        found = re.fullmatch(r"Cannot query field '(\w+)' on type '(\w+)'\.", error.message)
        if found is None or (found[2], found[1]) not in added:
            refused.append(error.message)
    return refused


class _Uses(Visitor):
    """Collects each field (`Type.field`) and argument (`Type.field(arg:)`) a document uses,
    with the deprecation reason the schema gives it (None when not deprecated)."""

    def __init__(self, info: TypeInfo) -> None:
        super().__init__()
        self.info = info
        self.found: dict[str, str | None] = {}
        self.fields: list[str] = []

    def enter_field(self, node: FieldNode, *_: object) -> None:
        parent, field = self.info.get_parent_type(), self.info.get_field_def()
        name = f"{parent.name}.{node.name.value}" if parent is not None else node.name.value
        self.fields.append(name)
        if field is not None and not node.name.value.startswith("__"):
            self.found[name] = field.deprecation_reason

    def leave_field(self, *_: object) -> None:
        self.fields.pop()

    def enter_argument(self, node: ArgumentNode, *_: object) -> None:
        argument = self.info.get_argument()
        if self.info.get_directive() is None and argument is not None and self.fields:
            self.found[f"{self.fields[-1]}({node.name.value}:)"] = argument.deprecation_reason


def uses(schema: GraphQLSchema, document: DocumentNode) -> dict[str, str | None]:
    """Every field and argument `document` uses in `schema`, with its deprecation reason."""
    info = TypeInfo(schema)
    collector = _Uses(info)
    visit(document, TypeInfoVisitor(info, collector))
    return collector.found


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
