"""The `learnings` command: list, show, add, edit, remove, export, import and render the local file.

This module parses the arguments and prints; the work is in the modules named for it (the file in
learnings.store_file, staleness against git in learnings.tracked_files, changes in learnings.edit,
the block in learnings.prompt). These commands work on a local file only (the default from
`[learnings] file` in the configuration); `sync` and `memory` talk to GitHub and live in
learnings.github_cli. A usage error (missing file, bad glob, unknown id, bad configuration) is one
line on stderr naming the file and exits 2; a skipped line of the store is a warning on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from assistant.untrusted import clean_line
from assistant.version import VersionAction
from commandline.arguments import HelpFormatter, epilog
from commandline.notices import Notices
from commandline.usage import UsageError
from learnings.edit import EditError, add, edit, merge, remove, what_add_did
from learnings.github_cli import add_parsers
from learnings.globs import GlobError, check_globs
from learnings.model import Learning, Source
from learnings.prompt import DEFAULT_MAX_CHARS, render_block, source_parts
from learnings.store import LoadedLearnings, to_jsonl
from learnings.store_file import StoreFile, checkout_config, load, locate, save
from learnings.tracked_files import stale_in_checkout


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
    found = stale_in_checkout(store.path, learnings)
    if found is None:
        print("learnings: note: not in a git checkout, stale learnings not looked for", file=sys.stderr)
        return frozenset()
    return found


def _problem(error: ValidationError) -> str:
    first = error.errors()[0]
    key = ".".join(str(part) for part in first["loc"])
    message = first["msg"].removeprefix("Value error, ")
    return f"`{key}`: {message}" if key else message


def _list(args: argparse.Namespace) -> int:
    store = _store_file(args)
    _text, loaded = _load(store, missing_is_empty=False)
    stale_ids = _stale_ids(store, loaded.learnings)
    if args.json:
        rows = [
            {**json.loads(learning.model_dump_json()), "stale": learning.id in stale_ids}
            for learning in loaded.learnings
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    if not loaded.learnings:
        print(f"no learnings in {store.path}", file=sys.stderr)
        return 0
    for learning in loaded.learnings:
        status = "stale" if learning.id in stale_ids else learning.status
        kind = f"suppression:{learning.category}" if learning.kind == "suppression" else "note"
        paths = ",".join(learning.paths) or "(whole repository)"
        updated = learning.model_dump(mode="json")["updatedAt"]
        print(
            f"{learning.id}  {status:<7}  {kind}  {clean_line(paths)}  {updated}  {clean_line(learning.text)}"
        )
    return 0


def _source(args: argparse.Namespace) -> Source:
    try:
        return Source(
            issue=args.issue,
            pull_request=args.pull_request,
            comment=args.comment,
            accepted_by=args.accepted_by,
        )
    except ValidationError as error:
        raise UsageError(f"source: {_problem(error)}") from error


def _add(args: argparse.Namespace) -> int:
    try:
        paths = check_globs(args.paths)
    except GlobError as error:
        raise UsageError(f"--paths: {error}") from error
    source = _source(args)
    store = _store_file(args)
    text, loaded = _load(store, missing_is_empty=True)
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
        raise UsageError(f"{store.path}: {_problem(error)}") from error
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
    return ", ".join(source_parts(source)) or "written by hand"


def _show(args: argparse.Namespace) -> int:
    store = _store_file(args)
    _text, loaded = _load(store, missing_is_empty=False)
    learning = _find(loaded.learnings, store, args.id)
    stale_ids = _stale_ids(store, [learning])
    if args.json:
        row = {**json.loads(learning.model_dump_json()), "stale": learning.id in stale_ids}
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
    try:
        learnings, learning = edit(loaded.learnings, args.id, datetime.now(UTC), text=args.text, paths=paths)
    except EditError as error:
        raise UsageError(f"{store.path}: {error}") from error
    except ValidationError as error:
        raise UsageError(f"{store.path}: {_problem(error)}") from error
    if learnings == list(loaded.learnings):
        print(f"learnings: {learning.id} unchanged: it already says that", file=sys.stderr)
    else:
        save(store, text, learnings)
    print(learning.id)
    return 0


def _remove(args: argparse.Namespace) -> int:
    store = _store_file(args)
    text, loaded = _load(store, missing_is_empty=False)
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
    sys.stdout.write(to_jsonl(loaded.learnings))
    return 0


def _import(args: argparse.Namespace) -> int:
    source = StoreFile(Path(args.src), named=True)
    _source_text, incoming = _load(source, missing_is_empty=False)
    store = _store_file(args)
    text, loaded = _load(store, missing_is_empty=True)
    learnings, added, updated = merge(loaded.learnings, incoming.learnings, datetime.now(UTC))
    if added or updated:
        save(store, text, learnings)
    print(f"{store.path}: {added} added, {updated} updated from {source.path}")
    return 0


def _render(args: argparse.Namespace) -> int:
    store = _store_file(args)
    _text, loaded = _load(store, missing_is_empty=False)
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


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def _local(commands: Any, name: str, summary: str, *examples: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        parents=[_common()],
        help=summary,
        description=f"{summary[0].upper()}{summary[1:]}. {_LOCAL}",
        epilog=epilog(*examples, token=False),
        formatter_class=HelpFormatter,
    )
    return parser


_LOCAL = (
    "Works on the local learnings file: --file, else [learnings] file of the configuration "
    "(.github/assistant/learnings.jsonl), in the top folder of the git checkout whatever the current "
    "folder. No token needed."
)


def _common() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--file",
        help="the learnings file (default: [learnings] file of the configuration, "
        ".github/assistant/learnings.jsonl, in the checkout's top folder)",
    )
    common.add_argument(
        "--config",
        help="the configuration file (default: .github/assistant.toml in the checkout's top folder, when it exists)",
    )
    return common


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="learnings",
        description="The team's reviewed learnings: a JSONL file in the repository, changed only through "
        "pull requests, rendered into the assistant's prompt.",
        epilog=epilog(
            "learnings add 'Integration tests need TEST_DB_URL' --paths 'test/**'", "learnings list"
        ),
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action=VersionAction)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", help="one of:")

    listing = _local(commands, "list", "every learning, stale ones flagged", "learnings list --json")
    listing.add_argument("--json", action="store_true", help="a JSON array instead of lines")
    listing.set_defaults(handler=_list)

    showing = _local(commands, "show", "one learning, every field", "learnings show l_x7c2")
    showing.add_argument("id", metavar="ID", help="the learning's id (l_ and letters or digits)")
    showing.add_argument("--json", action="store_true", help="the learning as JSON")
    showing.set_defaults(handler=_show)

    adding = _local(
        commands,
        "add",
        "add a learning (or update the one with the same text); prints its id",
        "learnings add 'Integration tests need TEST_DB_URL' --paths 'test/**' --issue 142",
    )
    adding.add_argument(
        "text", help="what the assistant should keep in mind (one line, at most 500 characters)"
    )
    adding.add_argument(
        "--paths",
        nargs="+",
        default=[],
        metavar="GLOB",
        help="files it is about, as globs (default: none, a general learning for every path)",
    )
    adding.add_argument("--category", help="the finding category a suppression silences (default: none)")
    adding.add_argument(
        "--kind",
        choices=["note", "suppression"],
        default="note",
        help="a note for the prompt, or a suppression of findings (default: %(default)s)",
    )
    thread = adding.add_mutually_exclusive_group()
    thread.add_argument("--issue", type=int, metavar="N", help="the issue it came from")
    thread.add_argument("--pull-request", type=int, metavar="N", help="the pull request it came from")
    adding.add_argument(
        "--comment", type=int, metavar="ID", help="the comment it came from (its database id)"
    )
    adding.add_argument("--accepted-by", metavar="LOGIN", help="who accepted it")
    adding.set_defaults(handler=_add)

    editing = _local(
        commands,
        "edit",
        "change a learning's text or paths in place (same id; only its line of the file changes)",
        "learnings edit l_x7c2 --text 'Integration tests need TEST_DB_URL and Docker' --paths 'test/**'",
    )
    editing.add_argument("id", metavar="ID", help="the learning's id")
    editing.add_argument("--text", help="the new text (default: unchanged)")
    editing.add_argument(
        "--paths",
        nargs="*",
        metavar="GLOB",
        help="the new paths, replacing the old ones; --paths alone makes it general (default: unchanged)",
    )
    editing.set_defaults(handler=_edit)

    removing = _local(
        commands,
        "remove",
        "retire a learning (it stays in the file, marked retired)",
        "learnings remove l_x7c2",
    )
    removing.add_argument("id", metavar="ID", help="the learning's id")
    removing.set_defaults(handler=_remove)

    exporting = _local(
        commands, "export", "the learnings as JSONL on stdout", "learnings export > learnings-backup.jsonl"
    )
    exporting.set_defaults(handler=_export)

    importing = _local(
        commands,
        "import",
        "merge another learnings file (the same text is updated, not copied)",
        "learnings import other-repo-learnings.jsonl",
    )
    importing.add_argument("src", metavar="SRC", help="the learnings file to merge in")
    importing.set_defaults(handler=_import)

    rendering = _local(
        commands,
        "render",
        "the prompt block for changed paths, as the assistant would read it",
        "learnings render --paths src/api/users.py",
    )
    rendering.add_argument(
        "--paths",
        nargs="+",
        default=[],
        metavar="PATH",
        help="the changed paths that rank learnings (default: none, general learnings only first)",
    )
    rendering.add_argument(
        "--max-entries",
        type=_count,
        metavar="N",
        help="learnings in the block at most (default: [learnings] max_prompt_entries, 20)",
    )
    rendering.add_argument(
        "--max-chars",
        type=_count,
        default=DEFAULT_MAX_CHARS,
        metavar="N",
        help="characters of the block at most (default: %(default)s)",
    )
    rendering.set_defaults(handler=_render)

    add_parsers(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; 0 on success, 2 on a usage error (one line on stderr)."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.handler(args)
    except UsageError as error:
        print(f"learnings: {error}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
