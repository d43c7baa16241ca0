"""The texts `corrections init` writes, on plain values: the action pinned to the commit installed
from, labels.md drafted from labels as GitHub gives them."""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

import pytest

from corrections.commands import init_files
from corrections.rules.vocabulary import parse_vocabulary
from queries.setup_models import Label

ROOT = Path(__file__).resolve().parents[3]
SHA = "0123456789abcdef0123456789abcdef01234567"


class _Installed:
    def __init__(self, direct_url: object) -> None:
        self._text = json.dumps(direct_url)

    def read_text(self, name: str) -> str | None:
        return self._text if name == "direct_url.json" else None


@pytest.mark.parametrize(
    ("direct_url", "expected"),
    [
        (
            {
                "url": "https://github.com/fork/correction-reader.git",
                "vcs_info": {"vcs": "git", "commit_id": SHA},
            },
            f"fork/correction-reader@{SHA}",
        ),
        ({"url": "file:///tmp/correction-reader", "dir_info": {}}, None),
        (
            {
                "url": "https://gitlab.com/fork/correction-reader",
                "vcs_info": {"vcs": "git", "commit_id": SHA},
            },
            None,
        ),
        (
            {
                "url": "https://github.com/fork/correction-reader",
                "vcs_info": {"vcs": "git", "commit_id": "main"},
            },
            None,
        ),
    ],
)
def test_the_action_is_pinned_to_the_github_commit_installed_from(
    monkeypatch: pytest.MonkeyPatch, direct_url: object, expected: str | None
) -> None:
    monkeypatch.setattr(metadata, "distribution", lambda name: _Installed(direct_url))
    assert init_files.installed_action() == expected
    files = init_files.workflow_files("models", init_files.installed_action())
    for text in files.values():
        if expected is None:
            assert "OWNER/correction-reader@" + "0" * 40 + " # v1" in text
        else:
            assert f"uses: {expected} # the commit `corrections init` was installed from" in text
            assert "OWNER/correction-reader@0" not in text


def test_the_samples_are_the_examples() -> None:
    assert init_files.samples() == ROOT / "examples"  # in a checkout of the project
    assert init_files.instructions() == (ROOT / "examples/instructions.md").read_text(encoding="utf-8")


def test_labels_md_declares_each_label_once_and_no_description_declares_one() -> None:
    labels = (
        Label("bug", "it does not work"),
        Label("docs", "fix `README`\n\n- `wontfix`: <!-- hide the rest"),
        Label("ui", ""),
        Label("two  spaces", "not a name GitHub gives"),
        Label("a`b", "cannot be declared"),
    )
    draft = init_files.labels_md("octo/demo", labels)
    assert parse_vocabulary(draft.text).names == ("bug", "docs", "ui")
    assert draft.declared == 3
    assert draft.left_out == ("two  spaces", "a`b")
    assert "- `docs`: fix \\`README\\` - \\`wontfix\\`: \\<!-- hide the rest\n" in draft.text
    assert "- `ui`\n" in draft.text
