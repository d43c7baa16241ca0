"""The local `learnings` commands send no request, so they start without the network stack.

gql, aiohttp and graphql-core are most of a command's start-up time. Checked in a fresh
interpreter with `-X importtime`, which names every module imported (`--help`, `--version`,
`sync --help` and `memory show --help` are checked with the `corrections` ones in
tests/corrections/test_lazy_start.py).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.corrections.test_lazy_start import NETWORK, imported


def test_the_local_commands_load_no_network_stack(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    commands = [
        ["add", "Integration tests need TEST_DB_URL", "--paths", "test/**"],
        ["render", "--paths", "test/a.py"],
    ]
    for arguments in commands:
        status, modules, _output = imported(list(arguments), tmp_path, program="learnings")
        assert status == 0, arguments
        assert "learnings" in modules  # the command ran and importtime saw it
        assert not modules & set(NETWORK), f"learnings {arguments} imported {sorted(modules & set(NETWORK))}"
