"""The command line as a maintainer types it, through the real console scripts (subprocesses)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from emulator import Server
from tests.commandline.conftest import Command, git_checkout

DEMO_ANSWER = json.loads(
    (Path(__file__).resolve().parents[1] / "worlds" / "demo.expected.json").read_text(encoding="utf-8")
)


def test_gh_token_is_taken_when_github_token_is_unset(
    cli: Command, demo_server: Server, tmp_path: Path
) -> None:
    result = cli(
        "corrections", "read", "--repo", "octo/demo", "--api-url", demo_server.url, "--out", "ctx",
        env={"GH_TOKEN": "gh-users-token"},
    )  # fmt: skip
    assert result.status == 0, result.err
    written = json.loads((tmp_path / "ctx" / "corrections.json").read_text(encoding="utf-8"))
    assert written["note"] is None and written["window"] == DEMO_ANSWER["window"]


def test_without_any_token_the_error_names_both_variables_and_gh(cli: Command, demo_server: Server) -> None:
    result = cli("corrections", "read", "--repo", "octo/demo", "--api-url", demo_server.url)
    assert result.status == 4  # gh's "authentication required"
    assert result.err == (
        "corrections: error: no token: set GITHUB_TOKEN (or GH_TOKEN, as for gh) in the environment, "
        "or log in with gh (`gh auth login`)\n"
    )


def test_repo_comes_from_the_origin_of_the_checkout(
    cli: Command, demo_server: Server, tmp_path: Path
) -> None:
    inner = git_checkout(tmp_path / "checkout", "https://github.com/octo/demo.git")
    result = cli(
        "corrections", "read", "--api-url", demo_server.url, "--out", "ctx",
        env={"GITHUB_TOKEN": "t"}, cwd=inner,
    )  # fmt: skip
    assert result.status == 0, result.err
    assert "octo/demo: window" in result.err
    assert json.loads((inner / "ctx" / "corrections.json").read_text(encoding="utf-8"))["repository"] == (
        "octo/demo"
    )


def test_without_repo_outside_github_checkout_one_clear_line(cli: Command, tmp_path: Path) -> None:
    inner = git_checkout(tmp_path / "checkout", "git@gitlab.com:octo/demo.git")
    for program, argv in [
        ("corrections", ["read"]),
        ("corrections", ["explain", "41"]),
        ("learnings", ["sync"]),
        ("learnings", ["memory", "show", "--pr", "3"]),
    ]:
        result = cli(program, *argv, env={"GITHUB_TOKEN": "t"}, cwd=inner)
        assert result.status == 2, (program, argv, result)
        assert result.err.count("\n") == 1
        assert "--repo OWNER/NAME is needed" in result.err and "git@gitlab.com:octo/demo.git" in result.err


def test_explain_takes_the_number_as_people_write_it(cli: Command, demo_server: Server) -> None:
    plain = cli("corrections", "explain", "41", "--repo", "octo/demo", "--api-url", demo_server.url,
                env={"GITHUB_TOKEN": "t"})  # fmt: skip
    hashed = cli("corrections", "explain", "#41", "--repo", "octo/demo", "--api-url", demo_server.url,
                 env={"GITHUB_TOKEN": "t"})  # fmt: skip
    assert plain.status == hashed.status == 0, hashed.err
    assert hashed.out == plain.out and "#41" in hashed.out
    wrong = cli("corrections", "explain", "#4x1", "--repo", "octo/demo", env={"GITHUB_TOKEN": "t"})
    assert wrong.status == 2 and "expected an issue number such as 41 or '#41'" in wrong.err


def test_outside_actions_a_failed_read_is_one_plain_line_with_what_to_check(
    cli: Command, demo_server: Server, tmp_path: Path
) -> None:
    demo_server.set_faults([{"kind": "bad_credentials", "times": None}])
    try:
        result = cli("corrections", "read", "--repo", "octo/demo", "--api-url", demo_server.url,
                     env={"GITHUB_TOKEN": "expired"})  # fmt: skip
    finally:
        demo_server.set_faults([])
    assert result.status == 1  # at a terminal a failure is a failure, as in gh
    assert result.out == ""
    assert "::" not in result.err  # no workflow command at a terminal
    (warning,) = [line for line in result.err.splitlines() if "warning" in line]
    assert warning.startswith(
        "corrections: warning: Corrections could not be read from GitHub (bad credentials)"
    )
    assert "check that GITHUB_TOKEN (else GH_TOKEN) holds a token" in warning


def test_inside_actions_the_same_failure_is_one_annotation(cli: Command, demo_server: Server) -> None:
    demo_server.set_faults([{"kind": "bad_credentials", "times": None}])
    try:
        result = cli("corrections", "read", "--repo", "octo/demo", "--api-url", demo_server.url,
                     env={"GITHUB_TOKEN": "expired", "GITHUB_ACTIONS": "true"})  # fmt: skip
    finally:
        demo_server.set_faults([])
    assert result.status == 0
    (warning,) = [line for line in result.out.splitlines() if line.startswith("::warning")]
    assert "(bad credentials)" in warning and "warning:" not in result.err


def test_memory_show_of_a_pull_request_without_memory_says_so(cli: Command, demo_server: Server) -> None:
    result = cli("learnings", "memory", "show", "--pr", "61", "--repo", "octo/demo", "--api-url", demo_server.url,
                 env={"GITHUB_TOKEN": "t"})  # fmt: skip
    assert result.status == 0
    assert result.err == (
        "learnings: memory: pull request #61 has no memory yet: no comment of @triage-assistant holds one\n"
    )
    assert "GitHub failed" not in result.err
    as_json = cli("learnings", "memory", "show", "--pr", "#61", "--json", "--repo", "octo/demo",
                  "--api-url", demo_server.url, env={"GITHUB_TOKEN": "t"})  # fmt: skip
    assert (as_json.status, as_json.out) == (0, "null\n")


def test_memory_show_of_an_issue_number_says_there_is_no_such_pull_request(
    cli: Command, demo_server: Server
) -> None:
    result = cli("learnings", "memory", "show", "--pr", "3", "--repo", "octo/demo", "--api-url", demo_server.url,
                 env={"GITHUB_TOKEN": "t"})  # fmt: skip
    assert result.status == 1
    assert result.err == "learnings: memory: no pull request #3 in octo/demo (or the token cannot see it)\n"


def test_a_repository_that_is_not_there_points_at_its_name(cli: Command, demo_server: Server) -> None:
    result = cli("corrections", "read", "--repo", "octo/nope", "--api-url", demo_server.url, "--time-budget", "3",
                 env={"GITHUB_TOKEN": "t"})  # fmt: skip
    assert result.status == 1
    (warning,) = [line for line in result.err.splitlines() if "warning" in line]
    assert "(not found)" in warning and "Check the repository name (OWNER/NAME)" in warning


# Every command that reads GitHub, as a maintainer types it (the repository and endpoint appended).
READERS = [
    ("corrections", "read", "--out", "ctx"),
    ("corrections", "quality", "--out", "q"),
    ("corrections", "explain", "41"),
    ("learnings", "sync"),
    ("learnings", "memory", "show", "--pr", "61"),
]


def _each_reader(cli: Command, url: str, env: dict[str, str]) -> dict[str, int]:
    statuses = {}
    for program, *argv in READERS:
        result = cli(program, *argv, "--repo", "octo/demo", "--api-url", url, env=env)
        assert "Traceback" not in result.err, result.err
        statuses[" ".join([program, argv[0]])] = result.status
    return statuses


def _each_reader_in_process(url: str, token: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """The same commands through their `main(argv)`: what the console script exits with is
    `main`'s status (the no-token row above proves it for each script); an exception escaping
    `main` fails the test as a traceback would."""
    from corrections.commands.cli import main as corrections_main
    from learnings.cli import main as learnings_main

    mains = {"corrections": corrections_main, "learnings": learnings_main}
    for key in [*os.environ]:
        if key in {"GH_TOKEN", "GITHUB_ACTIONS"} or key.startswith("INPUT_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("GITHUB_TOKEN", token)
    return {
        " ".join([program, argv[0]]): mains[program]([*argv, "--repo", "octo/demo", "--api-url", url])
        for program, *argv in READERS
    }


def test_the_same_failure_gives_the_same_status_in_every_command(
    cli: Command,
    demo_server: Server,
    closed_port_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    retry_pauses: list[float],
) -> None:
    # No token: 4, each console script as a process. Bad credentials and GitHub unreachable: 1,
    # through each command's main (the same status the script exits with), their waits between
    # retries not slept. Inside Actions `read` goes on: 0.
    assert set(_each_reader(cli, demo_server.url, {}).values()) == {4}
    monkeypatch.chdir(tmp_path)
    demo_server.set_faults([{"kind": "bad_credentials", "times": None}])
    try:
        assert set(_each_reader_in_process(demo_server.url, "expired", monkeypatch).values()) == {1}
        inside = cli("corrections", "read", "--repo", "octo/demo", "--api-url", demo_server.url,
                     env={"GITHUB_TOKEN": "expired", "GITHUB_ACTIONS": "true"})  # fmt: skip
    finally:
        demo_server.set_faults([])
    assert inside.status == 0
    assert retry_pauses == [], "bad credentials are not retried"
    unreachable = _each_reader_in_process(closed_port_url, "t", monkeypatch)
    assert set(unreachable.values()) == {1}, unreachable
    assert len(retry_pauses) >= len(READERS), "each command retried the refused connection"


def _fake_gh(folder: Path, token: str) -> dict[str, str]:
    """A `gh` on PATH that knows a token for 127.0.0.1 only (and says what it was asked)."""
    folder.mkdir()
    script = folder / "gh"
    script.write_text(
        "#!/bin/sh\n"
        f'echo "$@" >> "{folder}/asked"\n'
        f'[ "$*" = "auth token --hostname 127.0.0.1" ] && echo {token} && exit 0\n'
        "exit 1\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


def test_without_a_variable_the_token_comes_from_gh(
    cli: Command, demo_server: Server, tmp_path: Path
) -> None:
    env = _fake_gh(tmp_path / "bin", "gho_FromGhAuthToken123")
    result = cli("corrections", "read", "--repo", "octo/demo", "--api-url", demo_server.url, "--out", "ctx",
                 env=env)  # fmt: skip
    assert result.status == 0, result.err
    assert "gho_FromGhAuthToken123" not in result.out + result.err
    assert (tmp_path / "bin" / "asked").read_text(encoding="utf-8") == "auth token --hostname 127.0.0.1\n"
    # A variable comes first: gh is not asked.
    again = cli("learnings", "memory", "show", "--pr", "61", "--repo", "octo/demo", "--api-url", demo_server.url,
                env={**env, "GH_TOKEN": "t"})  # fmt: skip
    assert again.status == 0, again.err
    assert (tmp_path / "bin" / "asked").read_text(encoding="utf-8").count("\n") == 1


def test_gh_is_asked_for_the_api_hosts_token_only(cli: Command, tmp_path: Path) -> None:
    # gh knows a token for 127.0.0.1 only: for GitHub's endpoint it has none, so there is no token.
    env = _fake_gh(tmp_path / "bin", "gho_Local")
    result = cli("corrections", "explain", "41", "--repo", "octo/demo", env=env)
    assert result.status == 4
    assert (tmp_path / "bin" / "asked").read_text(encoding="utf-8") == "auth token --hostname github.com\n"


@pytest.mark.parametrize(
    ("argv", "meant"),
    [
        (("corrections", "raed"), "did you mean read?"),
        (("corrections", "read", "--ot", "ctx"), "did you mean --out?"),
        (("corrections", "explain", "41", "--base-rf", "main"), "did you mean --base-ref?"),
        (("learnings", "lsit"), "did you mean list?"),
        (("learnings", "add", "x", "--catgory", "c"), "did you mean --category?"),
        (("learnings", "memory", "shwo", "--pr", "3"), "did you mean show?"),
        (("learnings", "memory", "show", "--pr", "3", "--jsn"), "did you mean --json?"),
    ],
)
def test_a_mistyped_command_or_option_names_the_one_meant(
    cli: Command, argv: tuple[str, ...], meant: str
) -> None:
    result = cli(*argv)
    assert result.status == 2
    assert result.err.rstrip().endswith(meant), result.err
