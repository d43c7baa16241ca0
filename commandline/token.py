"""The token: GITHUB_TOKEN, else GH_TOKEN (as gh users have it), else `gh auth token`; never an argument.

gh is asked only when neither variable is set and gh is installed: a subprocess without a shell,
with a timeout, for the host of the API URL (so a token for github.com is never sent to another
host, the emulator included). The token is never printed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import urlsplit

from commandline.usage import NoTokenError

TOKEN_VARIABLES = ("GITHUB_TOKEN", "GH_TOKEN")
ENVIRONMENT_HELP = (
    "The token is read from the environment: GITHUB_TOKEN, else GH_TOKEN (as gh does), else "
    "`gh auth token` when gh is installed; it is never an argument and never printed."
)
MISSING = (
    "no token: set GITHUB_TOKEN (or GH_TOKEN, as for gh) in the environment, or log in with gh "
    "(`gh auth login`)"
)
_GH_TIMEOUT = 10.0
GITHUB_HOST = "github.com"


def gh_host(api_url: str) -> str:
    """The host gh keeps the token of for `api_url`: github.com for api.github.com, else the URL's host."""
    host = (urlsplit(api_url).hostname or "").lower()
    return GITHUB_HOST if host in {"api.github.com", GITHUB_HOST} else host


def _from_gh(host: str) -> str:
    """`gh auth token --hostname HOST`, or "" when gh is not installed, not logged in, or slow."""
    import shutil
    import subprocess  # here, not at start: only a command without a token in the environment asks gh

    gh = shutil.which("gh")
    if gh is None or not host:
        return ""
    try:
        result = subprocess.run(
            [gh, "auth", "token", "--hostname", host],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            check=False,
            timeout=_GH_TIMEOUT,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    if result.returncode != 0:
        return ""
    return result.stdout.decode("utf-8", "replace").strip()


def token_from(environ: Mapping[str, str] | None = None, *, api_url: str | None = None) -> str:
    """The first non-empty of GITHUB_TOKEN and GH_TOKEN; else gh's token for `api_url`'s host when
    an API URL is given; "" when there is none."""
    environ = os.environ if environ is None else environ
    for variable in TOKEN_VARIABLES:
        value = environ.get(variable, "").strip()
        if value:
            return value
    return _from_gh(gh_host(api_url)) if api_url is not None else ""


def required_token(api_url: str) -> str:
    """token_from for a command that cannot run without one; NoTokenError (status 4) when there is none."""
    token = token_from(api_url=api_url)
    if not token:
        raise NoTokenError(MISSING)
    return token
