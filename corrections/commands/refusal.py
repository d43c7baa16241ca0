"""What `prompt`, `answer` and `marker` share: a refusal is one line on stderr and exit 2, and
every notice goes to stderr (stdout carries the prompt, the labels or the marker line).

Neither talks to GitHub; light at import (the notices and the usage statuses).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from commandline.notices import Notices
from commandline.usage import USAGE


class Refused(ValueError):
    """What the command cannot do as asked; the message is the one line shown."""


def refusing(body: Callable[[Notices], int]) -> int:
    """Run `body` with notices on stderr; 2 with its one line when it refuses."""
    say = Notices("corrections", stdout=sys.stderr)
    try:
        return body(say)
    except Refused as error:
        say.error(str(error))
        return USAGE
    finally:
        say.close()
