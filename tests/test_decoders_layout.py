"""One decoder per wire format (issue 36, item 3), found by what the modules parse: a call of
`json.loads`, `json.load`, `tomllib.loads`, `tomllib.load`, or a model's `model_validate_json` /
`validate_json`, is a decoder. Each module that holds one is listed in DECODERS with the one format
it decodes, and no format is listed twice: a second parser of a format fails here, by its name and
line, until it calls the first.

As gidgethub's `decipher_response`: each format's decoder is tested on recorded samples
(tests/samples/).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from tests.test_layout import MODULES

PARSERS = frozenset({"loads", "load", "model_validate_json", "validate_json"})
_PARSING_MODULES = frozenset({"json", "tomllib"})

# Module -> the one format it decodes; its samples or tests name it.
DECODERS: dict[str, str] = {
    "assistant.config": "the configuration file (TOML)",
    "assistant.version": "pyproject.toml's version, in a checkout",
    "queries.graphql_post": "GitHub's GraphQL answer",
    "queries.client": "a GitHub REST answer",
    "commandline.event": "the workflow's event payload ($GITHUB_EVENT_PATH)",
    "corrections.render.context_folder": "corrections.json (a context folder's index)",
    "corrections.render.output": "the context folder's manifest",
    "corrections.render.model_answer": "the model's answer",
    "corrections.rules.markers": "the analysis marker's payload",
    "corrections.commands.init_files": "pip's direct_url.json (PEP 610)",
    "corrections.commands.backtest_cache": "the backtest's caches (answers, permissions)",
    "learnings.store.jsonl": "a learnings.jsonl line",
    "learnings.prompt.pr_memory": "the PR memory (its marker, a maintainer's file)",
    "learnings.sync.marks": "the sync's mark",
    "learnings.rules.proposals": "a learning proposal's marker",
    "learnings.store.suppression": "a finding's marker",
    "emulator.world": "the emulator's world file",
    "emulator.server": "a request to the emulator",
}


def parse_calls(path: Path) -> list[int]:
    """The lines of `path` that decode a format: json/tomllib's loads and load, and pydantic's
    `model_validate_json` and `validate_json` on any model or adapter."""
    found: list[int] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        name, owner = node.func.attr, node.func.value
        if name in {"model_validate_json", "validate_json"} or (
            name in {"loads", "load"} and isinstance(owner, ast.Name) and owner.id in _PARSING_MODULES
        ):
            found.append(node.lineno)
    return found


@functools.cache
def parsing() -> dict[str, list[int]]:
    """Each module of the product that decodes a format -> the lines that do. Parsed when a test
    asks, not when the module is collected: every xdist worker collects every test module."""
    return {name: lines for name, path in MODULES.items() if (lines := parse_calls(path))}


def test_the_check_finds_a_parser_by_its_call(tmp_path: Path) -> None:
    module = tmp_path / "second.py"
    module.write_text(
        "import json\nfrom m import Index\n\ndef read(text):\n    json.dumps(text)\n"
        "    return json.loads(text), Index.model_validate_json(text)\n",
        encoding="utf-8",
    )
    assert parse_calls(module) == [6, 6]
    module.write_text("import json\n\ndef write(value):\n    return json.dumps(value)\n", encoding="utf-8")
    assert parse_calls(module) == []


def test_a_module_that_parses_is_the_one_decoder_of_its_format() -> None:
    strays = [
        f"{module} parses (lines {lines}) but is no format's decoder: call the decoder of the format "
        "it reads, or list it in DECODERS with a format of its own"
        for module, lines in parsing().items()
        if module not in DECODERS
    ]
    assert not strays, "\n".join(strays)


@pytest.mark.parametrize("module", sorted(DECODERS))
def test_each_decoder_parses(module: str) -> None:
    assert module in parsing(), f"{module} is listed as the decoder of {DECODERS[module]} but parses nothing"


def test_each_format_has_one_decoder() -> None:
    formats = list(DECODERS.values())
    assert len(formats) == len(set(formats)), "a format is listed twice"
