"""What the local `learnings` commands do: list, show, add, edit, remove, export, import, render.

They work on the local learnings file only (learnings.store.file finds and reads it); staleness is
looked for against git (learnings.store.tracked_files), changes are made by learnings.store.edit, the block is
rendered by learnings.prompt.block. Imported by learnings.cli when one of them runs. The learnings' models
(pydantic) load once the file has been read, and the renderer (jinja2) only for what shows it, so a
missing file or configuration answers at once. A usage error is raised as UsageError (the command
line prints it); a skipped line of the store is a warning on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.untrusted import clean_line
from assistant.validation import validation_problem
from commandline.notices import Notices
from commandline.usage import UsageError
from learnings.rules.globs import GlobError, check_globs
from learnings.store.file import StoreFile, checkout_config, load, locate, save

if TYPE_CHECKING:
    from learnings.rules.model import Learning, Source
    from learnings.store.jsonl import LoadedLearnings


def _store_file(args: argparse.Namespace) -> StoreFile:
    return locate(args.file, args.config)


def _load(store: StoreFile, *, missing_is_empty: bool) -> tuple[str, LoadedLearnings]:
    """The file's text and learnings; a warning on stderr for each skipped line."""
    text, loaded = load(store, missing_is_empty=missing_is_empty)
    say = Notices("learnings")
    for warning in loaded.warnings:
        say.warning(warning)
    say.close()
    return text, loaded


def _stale_ids(store: StoreFile, learnings: Sequence[Learning]) -> frozenset[str]:
    """Stale learnings against the files git tracks; a note on stderr outside a git checkout."""
    from learnings.store.tracked_files import stale_in_checkout

    found = stale_in_checkout(store.path, learnings)
    if found is None:
        print("learnings: note: not in a git checkout, stale learnings not looked for", file=sys.stderr)
        return frozenset()
    return found


_COLUMN = 40  # characters a column of `learnings list` is padded to, at most


def _list(args: argparse.Namespace) -> int:
    store = _store_file(args)
    _text, loaded = _load(store, missing_is_empty=False)
    stale_ids = _stale_ids(store, loaded.learnings)
    if args.json:
        rows = [
            {**learning.model_dump(mode="json"), "stale": learning.id in stale_ids}
            for learning in loaded.learnings
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    if not loaded.learnings:
        print(f"no learnings in {store.path}", file=sys.stderr)
        return 0
    table: list[tuple[str, ...]] = []
    for learning in loaded.learnings:
        status = "stale" if learning.id in stale_ids else learning.status
        kind = f"suppression:{learning.category}" if learning.kind == "suppression" else "note"
        paths = clean_line(",".join(learning.paths)) or "(whole repository)"
        updated = learning.model_dump(mode="json")["updatedAt"]
        table.append((learning.id, status, clean_line(kind), paths, updated, clean_line(learning.text)))
    # Columns aligned as gh aligns a table; the text, last, runs on (a column is at most 40 wide).
    widths = [min(max(len(row[column]) for row in table), _COLUMN) for column in range(5)]
    for row in table:
        print("  ".join([*(cell.ljust(width) for cell, width in zip(row[:5], widths, strict=True)), row[5]]))
    return 0


def _source(args: argparse.Namespace) -> Source:
    from pydantic import ValidationError

    from learnings.rules.model import Source

    try:
        return Source(
            issue=args.issue,
            pull_request=args.pull_request,
            comment=args.comment,
            accepted_by=args.accepted_by,
        )
    except ValidationError as error:
        raise UsageError(f"source: {validation_problem(error)}") from error


def _add(args: argparse.Namespace) -> int:
    try:
        paths = check_globs(args.paths)
    except GlobError as error:
        raise UsageError(f"--paths: {error}") from error
    store = _store_file(args)  # a configuration error answers before the models load
    source = _source(args)
    text, loaded = _load(store, missing_is_empty=True)
    from pydantic import ValidationError

    from learnings.store.edit import EditError, add, what_add_did

    known = {learning.id: learning for learning in loaded.learnings}
    try:
        learnings, learning = add(
            loaded.learnings,
            args.text,
            paths,
            args.category,
            datetime.now(UTC),
            kind=args.kind,
            source=source,
        )
    except EditError as error:
        raise UsageError(f"{store.path}: {error}") from error
    except ValidationError as error:
        raise UsageError(f"{store.path}: {validation_problem(error)}") from error
    if learnings != list(loaded.learnings):
        save(store, text, learnings)
    said = what_add_did(known.get(learning.id), learning, paths)
    if said:
        print(f"learnings: {said}", file=sys.stderr)
    print(learning.id)
    return 0


def _find(learnings: Sequence[Learning], store: StoreFile, learning_id: str) -> Learning:
    found = next((learning for learning in learnings if learning.id == learning_id), None)
    if found is None:
        raise UsageError(f"{store.path}: unknown learning id `{learning_id}`")
    return found


def _describe_source(source: Source) -> str:
    from learnings.prompt.block import source_parts

    return ", ".join(source_parts(source)) or "written by hand"


def _show(args: argparse.Namespace) -> int:
    store = _store_file(args)
    _text, loaded = _load(store, missing_is_empty=False)
    learning = _find(loaded.learnings, store, args.id)
    stale_ids = _stale_ids(store, [learning])
    if args.json:
        row = {**learning.model_dump(mode="json"), "stale": learning.id in stale_ids}
        print(json.dumps(row, ensure_ascii=False, indent=2))
        return 0
    dates = learning.model_dump(mode="json")
    status = (
        f"{learning.status}, stale (no tracked file matches its paths)"
        if learning.id in stale_ids
        else learning.status
    )
    rows = [
        ("id", learning.id),
        ("status", status),
        ("kind", learning.kind),
        ("text", clean_line(learning.text)),
        ("paths", clean_line(", ".join(learning.paths)) or "(whole repository)"),
        ("category", clean_line(learning.category or "-")),
        ("source", _describe_source(learning.source)),
        ("created", dates["createdAt"]),
        ("updated", dates["updatedAt"]),
    ]
    for name, value in rows:
        print(f"{name + ':':<10}{value}")
    return 0


def _edit(args: argparse.Namespace) -> int:
    if args.text is None and args.paths is None:
        raise UsageError("edit: give --text, --paths or both")
    try:
        paths = check_globs(args.paths) if args.paths is not None else None
    except GlobError as error:
        raise UsageError(f"--paths: {error}") from error
    store = _store_file(args)
    text, loaded = _load(store, missing_is_empty=False)
    from pydantic import ValidationError

    from learnings.store.edit import EditError, edit

    try:
        learnings, learning = edit(loaded.learnings, args.id, datetime.now(UTC), text=args.text, paths=paths)
    except EditError as error:
        raise UsageError(f"{store.path}: {error}") from error
    except ValidationError as error:
        raise UsageError(f"{store.path}: {validation_problem(error)}") from error
    if learnings == list(loaded.learnings):
        print(f"learnings: {learning.id} unchanged: it already says that", file=sys.stderr)
    else:
        save(store, text, learnings)
    print(learning.id)
    return 0


def _remove(args: argparse.Namespace) -> int:
    store = _store_file(args)
    text, loaded = _load(store, missing_is_empty=False)
    from learnings.store.edit import EditError, remove

    try:
        learnings, learning = remove(loaded.learnings, args.id, datetime.now(UTC))
    except EditError as error:
        raise UsageError(f"{store.path}: {error}") from error
    if learnings == list(loaded.learnings):
        print(f"learnings: {learning.id} was already retired", file=sys.stderr)
    else:
        save(store, text, learnings)
    print(learning.id)
    return 0


def _export(args: argparse.Namespace) -> int:
    _text, loaded = _load(_store_file(args), missing_is_empty=False)
    from learnings.store.jsonl import to_jsonl

    sys.stdout.write(to_jsonl(loaded.learnings))
    return 0


def _import(args: argparse.Namespace) -> int:
    store = _store_file(args)  # a configuration error answers before the source is read
    source = StoreFile(Path(args.src), named=True)
    _source_text, incoming = _load(source, missing_is_empty=False)
    text, loaded = _load(store, missing_is_empty=True)
    from learnings.store.edit import merge

    learnings, added, updated = merge(loaded.learnings, incoming.learnings, datetime.now(UTC))
    if added or updated:
        save(store, text, learnings)
    print(f"{store.path}: {added} added, {updated} updated from {source.path}")
    return 0


def _render(args: argparse.Namespace) -> int:
    store = _store_file(args)
    _text, loaded = _load(store, missing_is_empty=False)
    from learnings.prompt.block import render_block

    config_entries = args.max_entries
    if config_entries is None:
        config_entries = checkout_config(args.config).learnings.max_prompt_entries
    block = render_block(
        loaded.learnings,
        changed_paths=args.paths,
        max_entries=config_entries,
        max_chars=args.max_chars,
        stale_ids=_stale_ids(store, loaded.learnings),
    )
    sys.stdout.write(block)
    return 0


_HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "list": _list,
    "show": _show,
    "add": _add,
    "edit": _edit,
    "remove": _remove,
    "export": _export,
    "import": _import,
    "render": _render,
}
NAMES = frozenset(_HANDLERS)


def run(args: argparse.Namespace) -> int:
    """Run the local command `args.command`; 0 done, UsageError for what cannot be done as asked."""
    return _HANDLERS[args.command](args)
