"""The bench's REST reader honours the marker rule as the product does (assistant.markers.counted):
with a shared account and the marker key, a sealed analysis is read; an unsealed echo is not."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from assistant.config import AssistantConfig, Config
from bench.rest_reader import read_rest
from corrections.rules.analysis_marker import analysis_marker
from tests.emulation import Emulators
from tests.reliability.test_shared_account_read import KEY, _world


@pytest.mark.parametrize("key", [None, KEY], ids=["without the key", "with the key"])
def test_the_rest_reader_reads_the_sealed_or_last_line_analysis_of_a_shared_account(
    key: str | None, emulate: Emulators, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: the scan parsed each comment for issue 0, so a marker sealed for #1 never counted
    # and a repository with the key had an empty window.
    if key is None:
        monkeypatch.delenv("ASSISTANT_MARKER_KEY", raising=False)
    else:
        monkeypatch.setenv("ASSISTANT_MARKER_KEY", key)
    server: Any = emulate(_world(analysis_marker(["bug"], number=1, key=key)))
    config = Config(assistant=AssistantConfig(login="github-actions"))
    outcome = asyncio.run(read_rest(server.base_url, "rest-token", "octo", "trust", config))
    assert outcome.window == [1]
    [found] = outcome.corrections
    # The welcome comment's echo (labels ["docs"], 55 s earlier) is not the analysis: mara's
    # removal of the analysis's `bug` and her 👎 on it are read.
    assert found.put_forward == ("bug",)
    assert found.labels_removed == ("bug",)
    assert found.thumbs_down == 1
