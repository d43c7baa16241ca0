"""Which timeline items an excerpt shows, and an analysis as what it says (pure).

An excerpt is there to teach: what the reporter wrote, what the assistant proposed and what the
people who corrected it did. Bots (a CI account flipping `needs-triage`, a welcome bot, the
shared `github-actions` account speaking for other workflows) teach nothing and once filled most
of a prompt, so their label changes and comments are left out, with a note that counts them.
The assistant's own account is kept for its analyses and for the labels it applied. An analysis
is shown as what its marker says (its labels, its duplicate) in the program's words, and its
comment's text without the marker: JSON escaped twice costs tokens and reads as noise.
"""

from __future__ import annotations

from collections.abc import Mapping

from assistant.identity import Identity, is_assistant
from assistant.markers import counted
from corrections.rules.analysis_marker import ANALYSIS
from corrections.rules.models import Analysis, Comment, Event, LabelChange
from corrections.rules.settings import RuleSettings


def is_chatter(event: Event, analyses: Mapping[str, Analysis], settings: RuleSettings) -> bool:
    """Whether a timeline item is a bot's and teaches nothing: anything by an account that is not
    a User (a deleted one aside), but the assistant's analyses and the labels it applied."""
    actor = event.author if isinstance(event, Comment) else event.actor
    if actor is None or (actor.typename == "User" and not is_assistant(actor, settings.assistant)):
        return False
    if is_assistant(actor, settings.assistant):
        if isinstance(event, Comment):
            return event.node_id not in analyses
        return not isinstance(event, LabelChange)
    return True


# How an analysis's line starts after its time: `<time> first analysis by "<login>": ...`.
ANALYSIS_BY = ("first analysis by ", "follow-up analysis by ")


def without_marker(body: str, number: int, assistant: Identity) -> str:
    """An analysis comment's text on issue `number` with the analysis markers that count taken
    out (they are said in words): the markers assistant.markers.counted, the one rule, counts."""
    for found in reversed(counted(body, ANALYSIS, number, assistant).markers):
        body = body[: found.start] + body[found.end :]
    return body.strip()


def chatter_note(count: int) -> str:
    """The note in place of the bots' items."""
    return f"({count} timeline item{'s' if count != 1 else ''} by bots not shown)"
