"""docs/action.md names every variable through which an input reaches the read step: the list in
"What runs" is action.yml's `env:` of that step, so a new input cannot be left out of it again
(`ASSISTANT_MARKER_KEY`, the `marker-key` input, was)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent.parent


def _read_step_env() -> dict[str, str]:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    [step] = [step for step in action["runs"]["steps"] if step.get("id") == "read"]
    return dict(step["env"])


def test_the_docs_name_every_input_variable_of_the_read_step() -> None:
    env = _read_step_env()
    from_inputs = {name for name, value in env.items() if "inputs." in str(value)}
    text = (ROOT / "docs" / "action.md").read_text(encoding="utf-8")
    listed = text.split("reaches it only through `env:` (", 1)[1].split(");", 1)[0]
    named = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", listed))
    assert named == from_inputs


def test_every_input_reaches_the_read_step() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    values = " ".join(map(str, _read_step_env().values()))
    assert {name for name in action["inputs"] if f"inputs.{name} " not in values} == set()
