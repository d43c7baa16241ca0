"""Bad configuration and bad arguments: one clear line on stderr, exit 2, nothing written, no call."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from corrections.commands.cli import main
from emulator import Server

CONFIGS: dict[str, tuple[str | bytes, tuple[str, ...]]] = {
    # name: (file text or bytes, what the one line must name)
    "unknown_key": (
        "[context]\nmax_analyzd = 3\n",
        ("assistant.toml:2:", "unknown key context.max_analyzd; did you mean max_analyzed?"),
    ),
    "unknown_table": (
        "# tuned\n[contxt]\nmax_analyzed = 3\n",
        ("assistant.toml:2:", "unknown key contxt; did you mean context?"),
    ),
    "wrong_type": (
        '[context]\nscan_pages = 2\nmax_analyzed = "thirty"\n',
        ("assistant.toml:3:", "`context.max_analyzed`", "integer"),
    ),
    "out_of_range": (
        "[context]\nmax_analyzed = 500\n",
        ("assistant.toml:2:", "`context.max_analyzed`", "100"),
    ),
    "empty_login": ('[assistant]\nlogin = ""\n', ("assistant.toml:2:", "`assistant.login`")),
    "unknown_account": ('[assistant]\naccount = "app"\n', ("assistant.toml:2:", "`assistant.account`")),
    "bot_login_as_user": (
        '[assistant]\nlogin = "helper[bot]"\naccount = "user"\n',
        ("assistant.toml:3:", "`assistant.account`", "names a bot"),
    ),
    "not_toml": ("[context]\nmax_analyzed = = 3\n", ("assistant.toml", "not valid TOML", "line 2")),
    "nested_too_deeply": ("a = " + "[" * 3_000 + "]" * 3_000 + "\n", ("assistant.toml", "nested too deeply")),
    "tables_nested_too_deeply": ("a = " + "{b = " * 3_000 + "}" * 3_000 + "\n", ("assistant.toml", "nested")),
    "not_utf8": (b"[context]\nmax_analyzed = 3 \xff\xfe\n", ("assistant.toml", "cannot be read")),
}
ARGUMENTS: dict[str, tuple[list[str], tuple[str, ...]]] = {
    "missing_config_file": (["--config", "{tmp}/nowhere.toml"], ("nowhere.toml", "not found")),
    "bad_repo": (["--repo", "octo/de mo"], ("--repo", "OWNER/NAME")),
    "max_analyzed_too_big": (["--max-analyzed", "101"], ("--max-analyzed",)),
    "time_budget_zero": (["--time-budget", "0"], ("--time-budget",)),
}


def snapshot_folder(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def run_usage_error(
    server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], token: str = "t"
) -> tuple[int, list[str], Path]:
    out = tmp_path / "out"
    before_log = len(server.log())
    arguments = ["read", "--repo", "octo/demo", "--api-url", server.url, "--out", str(out)]
    capsys.readouterr()
    with pytest.MonkeyPatch.context() as patch:
        if token:
            patch.setenv("GITHUB_TOKEN", token)
        else:
            patch.delenv("GITHUB_TOKEN", raising=False)
        status = main([*arguments, *argv])
    captured = capsys.readouterr()
    assert len(server.log()) == before_log, "a usage error makes no call to GitHub"
    assert captured.out == ""
    return status, captured.err.splitlines(), out


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_bad_configuration_file(
    name: str,
    demo_server: Server,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    previous_run: Callable[[Path], None],
) -> None:
    content, named = CONFIGS[name]
    config = tmp_path / "assistant.toml"
    if isinstance(content, bytes):
        config.write_bytes(content)
    else:
        config.write_text(content, encoding="utf-8")
    previous_run(tmp_path / "out")
    before = snapshot_folder(tmp_path / "out")
    status, lines, out = run_usage_error(demo_server, tmp_path, capsys, ["--config", str(config)])
    assert status == 2
    assert len(lines) == 1 and lines[0].startswith("corrections: error: ")
    for part in named:
        assert part in lines[0]
    assert snapshot_folder(out) == before, "nothing written"


@pytest.mark.parametrize("name", sorted(ARGUMENTS))
def test_bad_arguments(
    name: str, demo_server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, named = ARGUMENTS[name]
    status, lines, out = run_usage_error(
        demo_server, tmp_path, capsys, [arg.replace("{tmp}", str(tmp_path)) for arg in argv]
    )
    assert status == 2
    assert len(lines) == 1
    for part in named:
        assert part in lines[0]
    assert not out.exists(), "nothing written"


def test_missing_token(demo_server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, out = run_usage_error(demo_server, tmp_path, capsys, [], token="")
    assert status == 4 and len(lines) == 1 and "GITHUB_TOKEN" in lines[0]  # gh's "authentication required"
    assert not out.exists()
