"""Who is who: the assistant, a person, a maintainer, a pusher, the token's own account.

Each question has one function here and every place that asks it calls that function: a second
copy drifts, and the drift is where a stranger gets in (a User named like the assistant's bot, a
login compared with `[bot]` on one side and without it on the other).

GitHub's GraphQL API gives a bot's login without the `[bot]` suffix that REST shows; logins are
compared without that suffix, case-folded (GitHub logins are case-insensitive). An account is the
assistant only when its type matches too: the app `triage-assistant[bot]` and the user
`triage-assistant` are two different accounts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol

AccountType = Literal["bot", "user"]
BOT_SUFFIX = "[bot]"
# GraphQL's __typename for each account type (https://docs.github.com/en/graphql/reference/objects#bot).
_TYPENAMES: dict[AccountType, str] = {"bot": "Bot", "user": "User"}
# Repository permissions as GitHub names them (collaborator permission, never authorAssociation).
MAINTAINER_LEVELS = frozenset({"ADMIN", "MAINTAIN", "WRITE", "TRIAGE"})
PUSHER_LEVELS = frozenset({"ADMIN", "MAINTAIN", "WRITE"})
# Bots every workflow of a repository posts as: a workflow's GITHUB_TOKEN acts as the Bot
# `github-actions` (REST `github-actions[bot]`), whichever workflow holds it
# (https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication).
SHARED_BOTS = frozenset({"github-actions"})


class ActorLike(Protocol):
    """Anything that names an account: its login and GraphQL type (User, Bot, Mannequin, ...)."""

    @property
    def login(self) -> str: ...

    @property
    def typename(self) -> str: ...


def login_key(login: str) -> str:
    """A login as GitHub compares it, case-insensitively (logins are ASCII): the one comparison of
    two logins as they stand, `[bot]` kept (an app and a user may share a name)."""
    return login.strip().casefold()


def same_login(one: str, other: str) -> bool:
    """Whether two logins name the same account as GitHub spells them (login_key)."""
    return login_key(one) == login_key(other)


def normalize_login(login: str) -> str:
    """A login as the assistant's identity compares it: without REST's `[bot]` suffix, then login_key."""
    login = login.strip()
    if login.lower().endswith(BOT_SUFFIX):
        login = login[: -len(BOT_SUFFIX)]
    return login_key(login)


@dataclass(frozen=True)
class Identity:
    """One account: its login (with or without `[bot]`) and its type."""

    login: str = "triage-assistant"
    account: AccountType = "bot"
    # Other programs post as this account too (`[assistant] shared`): only the assistant's
    # markers say what it did. See `is_shared`.
    shared: bool = False
    # The repository secret that seals the assistant's markers (`ASSISTANT_MARKER_KEY`,
    # assistant.markers.counted): never printed, never compared.
    marker_key: str | None = field(default=None, repr=False, compare=False)

    @property
    def is_shared(self) -> bool:
        """Whether other programs may act as this account too: configured so, or a bot that every
        workflow's GITHUB_TOKEN acts as (`github-actions`), whatever the configuration says.

        With a shared account, a label it applied was put forward by the assistant only when the
        analysis's marker named it (a labeler workflow applies labels as `github-actions` too).
        """
        return self.shared or (self.account == "bot" and normalize_login(self.login) in SHARED_BOTS)

    @classmethod
    def of_viewer(cls, login: str) -> Identity:
        """The token's own account from GraphQL's `viewer { login }`.

        `viewer` is typed `User!` in GitHub's schema, so its `__typename` cannot tell a bot: an app
        installation token (the workflow's `GITHUB_TOKEN` included) answers its login with the
        `[bot]` suffix (for example `fullsend-ai-coder[bot]`, fullsend-ai/fullsend#1953).
        """
        return cls(login=login, account="bot" if login.strip().lower().endswith(BOT_SUFFIX) else "user")


def is_account(actor: ActorLike | None, identity: Identity) -> bool:
    """Whether an actor is that account: same login (no `[bot]`, case-folded) AND same account type.

    A deleted account (None) is nobody.
    """
    if actor is None:
        return False
    return actor.typename == _TYPENAMES[identity.account] and normalize_login(actor.login) == normalize_login(
        identity.login
    )


def is_assistant(actor: ActorLike | None, assistant: Identity) -> bool:
    """Whether an actor is the configured assistant (`[assistant] login` and `account`)."""
    return is_account(actor, assistant)


def is_person(actor: ActorLike | None, assistant: Identity) -> bool:
    """A User who is not the assistant; bots, apps, mannequins and deleted accounts are not people."""
    return actor is not None and actor.typename == "User" and not is_assistant(actor, assistant)


def is_maintainer(permission: str | None) -> bool:
    """TRIAGE, WRITE, MAINTAIN or ADMIN on the repository (None: it could not be read, so no)."""
    return permission is not None and permission.upper() in MAINTAINER_LEVELS


def may_push(permission: str | None) -> bool:
    """WRITE, MAINTAIN or ADMIN on the repository (None: it could not be read, so no)."""
    return permission is not None and permission.upper() in PUSHER_LEVELS
