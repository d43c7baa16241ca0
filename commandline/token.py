"""The token: from the environment only (GITHUB_TOKEN, else GH_TOKEN as gh users have it), never an argument."""

from __future__ import annotations

import os
from collections.abc import Mapping

TOKEN_VARIABLES = ("GITHUB_TOKEN", "GH_TOKEN")
ENVIRONMENT_HELP = (
    "The token is read from the environment: GITHUB_TOKEN, else GH_TOKEN (as gh does); "
    "it is never an argument and never printed."
)
MISSING = "no token: set GITHUB_TOKEN (or GH_TOKEN, as for gh) in the environment"


def token_from(environ: Mapping[str, str] | None = None) -> str:
    """The first non-empty of GITHUB_TOKEN and GH_TOKEN, or "" when neither is set."""
    environ = os.environ if environ is None else environ
    for variable in TOKEN_VARIABLES:
        value = environ.get(variable, "").strip()
        if value:
            return value
    return ""
