"""GitHub Actions workflow commands and the files the runner reads (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY).

Values are escaped as the runner expects, so no text can end a command early or start another:
https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def escape_data(value: str) -> str:
    """A command's message: `%`, CR and LF escaped (the runner's own escaping)."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """A command's property value (title=...): also `:` and `,` escaped."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def command(name: str, message: str, **properties: str) -> str:
    """One workflow command line, e.g. `::warning title=corrections::text`."""
    props = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items())
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def mask(secret: str) -> str:
    """The command that hides `secret` in every later log line (printed once, never echoed)."""
    return f"::add-mask::{escape_data(secret)}"


def output_block(name: str, value: str) -> str:
    """One entry of GITHUB_OUTPUT; the heredoc form with a random delimiter for multi-line values."""
    if "\n" not in value and "\r" not in value:
        return f"{name}={value}\n"
    import secrets  # here, not at start: `--help` sets no output (secrets imports hmac, random)

    delimiter = f"ghadelimiter_{secrets.token_hex(16)}"
    return f"{name}<<{delimiter}\n{value}\n{delimiter}\n"


def append(path: Path | None, text: str) -> None:
    """Append to a file the runner reads (no-op when the runner did not name one)."""
    if path is None:
        return
    with path.open("a", encoding="utf-8", newline="\n") as stream:
        stream.write(text)


def write_outputs(path: Path | None, outputs: Iterable[tuple[str, str]]) -> None:
    """Append step outputs to GITHUB_OUTPUT."""
    append(path, "".join(output_block(name, value) for name, value in outputs))
