"""corrections.json read back through its one decoder (issue 36, item 3): `read_index`, which opens
the folder without following a link (assistant.files.Folder), and the receipt the model carries.

Each `tests/samples/corrections-json/NAME.json` is a corrections.json (`demo.json` as `corrections
demo` wrote it, `older.json` as an earlier version did); `NAME.expected.json` what it gives (the
window and the receipt) or the refusal's words. Before, `corrections marker --context` read the
file with a second parser of its own that followed a symbolic link.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from corrections.commands.cli import main
from corrections.render.context_folder import PromptError, read_index

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "corrections-json"
NAMES = sorted(path.stem for path in SAMPLES.glob("*.json") if not path.stem.endswith(".expected"))


def _folder(tmp_path: Path, name: str) -> Path:
    shutil.copyfile(SAMPLES / f"{name}.json", tmp_path / "corrections.json")
    return tmp_path


def _expected(name: str) -> dict[str, object]:
    found: dict[str, object] = json.loads((SAMPLES / f"{name}.expected.json").read_text(encoding="utf-8"))
    return found


def test_there_are_samples_of_each_kind() -> None:
    expected = [_expected(name) for name in NAMES]
    assert sum("error" in e for e in expected) >= 4 and sum("error" not in e for e in expected) >= 2


@pytest.mark.parametrize("name", NAMES)
def test_each_sample_decodes_as_recorded(tmp_path: Path, name: str) -> None:
    folder, expected = _folder(tmp_path, name), _expected(name)
    path = folder / "corrections.json"
    if "error" in expected:
        with pytest.raises(PromptError, match=rf"^{path}: {expected['error']}"):
            read_index(folder).receipt(path)
        return
    index = read_index(folder)
    receipt = index.receipt(path)
    assert {
        "window": index.window,
        "receipt": {"corrections": list(receipt.corrections), "learnings": list(receipt.learnings)},
    } == expected


def test_the_marker_refuses_a_linked_corrections_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stranger's checkout links corrections.json to a file of its choosing: its issues and
    # learnings must not become the marker's receipt.
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    elsewhere = tmp_path / "elsewhere.json"
    shutil.copyfile(SAMPLES / "demo.json", elsewhere)
    folder = tmp_path / "context"
    folder.mkdir()
    (folder / "corrections.json").symlink_to(elsewhere)
    assert main(["marker", "--labels", "bug", "--context", str(folder)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"corrections: error: {folder}/corrections.json: not a plain file (a link is never followed)\n"
    )
