"""All files of the context folder, rendered from one run's outcome (pure)."""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.config import Config
from corrections.read.outcome import ReadOutcome
from corrections.read.status import Complete, Partial
from corrections.render.collapse import excerpt_numbers
from corrections.render.files import correction_lines, corrections_json, issue_excerpt, render_corrections_md
from corrections.render.issue_file import IssueExcerpt
from corrections.render.kept_examples import EXAMPLES_FILE, chosen_examples, render_examples_md
from corrections.render.nearest import kept_nearest
from corrections.render.templating import load_templates
from learnings.prompt.block import block_and_ids
from learnings.prompt.budget import LEARNINGS_PROMPT_CHARS
from learnings.store.jsonl import LoadedLearnings


@dataclass(frozen=True)
class ContextFiles:
    """Top-level files by name, and the files of issues/ by name; with what the prompt takes of
    them without reading them back: each issue file's parts, and which issues in which order."""

    top: dict[str, str] = field(default_factory=dict)
    issues: dict[str, str] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    excerpts: dict[int, IssueExcerpt] = field(default_factory=dict)
    corrected: tuple[int, ...] = ()  # in corrections.md's order
    window: tuple[int, ...] = ()


@dataclass(frozen=True)
class ReadDone:
    """What a read gave: its outcome, and the context files rendered from it as they were written
    (what the action's and the demo's prompts are assembled from, never read back from the folder)."""

    outcome: ReadOutcome
    files: ContextFiles


def render_learnings(
    outcome: ReadOutcome, config: Config, paths: tuple[str, ...]
) -> tuple[str, tuple[str, ...], list[str]]:
    """learnings.md from the file read at the base ref, the ids it shows, and the warnings of its loading."""
    loaded = outcome.learnings or LoadedLearnings()
    block, ids = block_and_ids(
        list(loaded.learnings),
        changed_paths=paths,
        max_entries=config.learnings.max_prompt_entries,
        max_chars=LEARNINGS_PROMPT_CHARS,
        stale_ids=outcome.stale_learnings,
    )
    return block, ids, list(loaded.warnings)


def load_renderers() -> None:
    """Have everything `render_context` runs loaded: its modules (imported with this one) and its
    templates compiled. `corrections read` calls it while it waits on GitHub."""
    load_templates("corrections.md.j2", "issue.md.j2")


def render_context(outcome: ReadOutcome, config: Config, paths: tuple[str, ...]) -> ContextFiles:
    """corrections.md, corrections.json, learnings.md (when enabled), examples.md (when there are
    few corrections and maintainers labelled issues near the analysed one) and issues/<n>.md."""
    top = {"corrections.md": render_corrections_md(outcome)}
    warnings: list[str] = []
    shown: tuple[str, ...] = ()
    # Learnings that could not be read are left out, not shown as "none recorded".
    status = outcome.status
    learnings_read = isinstance(status, Complete) or (
        isinstance(status, Partial) and "learnings" not in status.missing
    )
    if config.learnings.enabled and learnings_read:
        top["learnings.md"], shown, warnings = render_learnings(outcome, config, paths)
    examples = render_examples_md(chosen_examples(outcome))
    if examples is not None:
        top[EXAMPLES_FILE] = examples
    # The same learnings' ids: what `corrections marker --context` writes into the receipt.
    top["corrections.json"] = corrections_json(outcome, learnings=shown)
    by_number = {c.number: c for c in (*outcome.corrections, *outcome.carried)}
    excerpts = {
        read.issue.number: issue_excerpt(read.issue, by_number.get(read.issue.number), outcome.settings)
        for read in outcome.read_issues
    }
    return ContextFiles(
        top=top,
        issues={f"{number}.md": excerpt.text() for number, excerpt in excerpts.items()},
        warnings=tuple(warnings),
        excerpts=excerpts,
        corrected=tuple(
            excerpt_numbers([[c.number for c in line.issues] for line in correction_lines(outcome)])
        ),
        # The kept analyses the lines show first among the rest of the window.
        window=tuple(
            dict.fromkeys(
                [
                    *(read.issue.number for read in kept_nearest(outcome)),
                    *(r.issue.number for r in outcome.window),
                ]
            )
        ),
    )
