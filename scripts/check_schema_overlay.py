"""Check emulator/schema_overlay.graphql against a copy of GitHub's schema file.

    python scripts/check_schema_overlay.py PATH/TO/schema.graphql

PATH is a local copy of `schema.graphql` from octokit/graphql-schema (branch `schema-update`;
docs/emulator.md, "GitHub's current schema", says how to get one). Nothing is downloaded and the
copy is never kept in this repository. The check says whether the copy is the pinned one
(emulator/schema_overlay.toml: commit and sha256), then compares with the real file:

- every field the overlay gives: its type, arguments and deprecation;
- every field and argument a product document uses (npm release + overlay): the same there,
  so a change GitHub made to something the product reads and the overlay lacks is found;
- every product document (and a batched CorrectionDetails) validates against the real file.

Exit 0 when all agree, 1 with one line per difference otherwise.
"""

from __future__ import annotations

import hashlib
import sys
import tomllib
from pathlib import Path

from graphql import GraphQLField, GraphQLSchema, Undefined, build_schema, parse, validate

from emulator.schema import OVERLAY, OVERLAY_PIN, load_current_schema, uses
from queries.documents import expand, operation, operation_names


def _field(schema: GraphQLSchema, owner: str, name: str) -> GraphQLField | None:
    fields = getattr(schema.get_type(owner), "fields", None)
    return fields.get(name) if fields else None


def _signature(field: GraphQLField) -> str:
    arguments = ", ".join(
        f"{name}: {argument.type}"
        + ("" if argument.default_value is Undefined else f" = {argument.default_value!r}")
        + (f" @deprecated({argument.deprecation_reason!r})" if argument.deprecation_reason else "")
        for name, argument in sorted(field.args.items())
    )
    deprecated = f" @deprecated({field.deprecation_reason!r})" if field.deprecation_reason else ""
    return f"({arguments}): {field.type}{deprecated}"


def _use_signature(schema: GraphQLSchema, use: str) -> str | None:
    """`Type.field` or `Type.field(arg:)` as the schema defines it; None when it has no such thing."""
    head, _, argument = use.partition("(")
    owner, _, name = head.partition(".")
    field = _field(schema, owner, name)
    if field is None:
        return None
    if not argument:
        return _signature(field)
    found = field.args.get(argument.rstrip(":)"))
    if found is None:
        return None
    return (
        f"{found.type} @deprecated({found.deprecation_reason!r})"
        if found.deprecation_reason
        else str(found.type)
    )


def differences(real: GraphQLSchema) -> list[str]:
    """Each way the overlay (and the product's reads of the current schema) differ from `real`."""
    found: list[str] = []
    current = load_current_schema()
    for definition in parse(OVERLAY.read_text(encoding="utf-8")).definitions:
        owner = definition.name.value  # type: ignore[attr-defined]
        for node in getattr(definition, "fields", None) or ():
            ours, theirs = _field(current, owner, node.name.value), _field(real, owner, node.name.value)
            assert ours is not None
            if theirs is None:
                found.append(f"overlay {owner}.{node.name.value}: not in the real file")
            elif _signature(ours) != _signature(theirs):
                found.append(f"overlay {owner}.{node.name.value}: {_signature(ours)} != {_signature(theirs)}")
    documents = [(name, operation(name).document) for name in operation_names()]
    batch = {"analyses": 2, "permission": 2, "timeline": 2, "moreReactions": 2}
    documents.append(("CorrectionDetails (batched)", expand(operation("CorrectionDetails"), batch).document))
    for name, document in documents:
        for error in validate(real, document):
            found.append(f"{name}: refused by the real file: {error.message}")
        for use in uses(current, document):
            read, listed = _use_signature(current, use), _use_signature(real, use)
            if read != listed:
                found.append(f"{name}: {use}: ours {read} != real {listed}")
    return sorted(set(found))


def main(argv: list[str]) -> int:
    """Compare the overlay with the file at argv[0]; print the pin's verdict and each difference."""
    if len(argv) != 1:
        print("usage: python scripts/check_schema_overlay.py PATH/TO/schema.graphql", file=sys.stderr)
        return 2
    path = Path(argv[0])
    try:
        data = path.read_bytes()
    except OSError as error:
        print(f"error: {path}: {error.strerror}", file=sys.stderr)
        return 2
    pin = tomllib.loads(OVERLAY_PIN.read_text(encoding="utf-8"))
    digest = hashlib.sha256(data).hexdigest()
    if digest == pin["sha256"]:
        print(f"{path}: the pinned file ({pin['repository']}@{pin['commit'][:12]}, sha256 {digest[:12]})")
    else:
        print(
            f"{path}: NOT the pinned file (sha256 {digest[:12]}, pinned {pin['sha256'][:12]}): a newer schema?"
        )
    real = build_schema(data.decode("utf-8"), assume_valid_sdl=True, assume_valid=True)
    found = differences(real)
    for line in found:
        print(line)
    print(f"{len(found)} difference(s) between the overlay and {path}")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
