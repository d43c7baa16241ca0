"""Who has which permission on the world's repository, as GitHub's two APIs tell it.

GraphQL's `Repository.collaborators` (affiliation ALL, the default) lists the people added to the
repository, the owner when the owner is a person (octokit/fixtures' recorded collaborator list
shows the owning admin, never added one by one) and the members of the owning organization that
a world lists in `org_members`. It does not list access through nested teams (`team_access`).
REST `collaborators/{user}/permission` counts every source of access and answers 404 for a login
that does not exist; REST's list `collaborators` (affiliation all) lists everyone with access, each
with the same role, and answers only a token whose login may push.
"""

from __future__ import annotations

from collections.abc import Iterable

from emulator.world import CommentItem, Issue, WorldFile

OWNER_PERMISSION = "ADMIN"
# The account a workflow's GITHUB_TOKEN acts as (docs/emulator.md).
WORKFLOW_ACCOUNT = "github-actions"
PUSH_ROLES = frozenset({"WRITE", "MAINTAIN", "ADMIN"})


class Access:
    """Permissions of one world: listed (GraphQL), effective (REST), who exists at all and as what."""

    def __init__(self, world: WorldFile) -> None:
        self._world = world
        owner = world.repository.owner
        listed: dict[str, tuple[str, str]] = {}  # lower login -> (login as written, permission)
        if world.users.get(owner, "User") == "User":
            listed[owner.lower()] = (owner, OWNER_PERMISSION)
        for source in (world.org_members, world.permissions):
            for login, level in source.items():
                listed[login.lower()] = (login, level)
        self._listed = listed
        self._team = {login.lower(): level for login, level in world.team_access.items()}
        self._types = {login.lower(): kind for login, kind in world.users.items()}

    def actor_type(self, login: str) -> str:
        """User, Bot, Mannequin or Organization: ``x[bot]`` is a Bot; else as ``users`` lists it;
        unlisted, ``github-actions`` is a Bot, the account of every workflow's GITHUB_TOKEN (GraphQL
        ``Bot.login`` without the suffix, REST ``github-actions[bot]`` of type Bot), any other a User."""
        key = login.lower()
        if key.endswith("[bot]"):
            return "Bot"
        return self._types.get(key, "Bot" if key == WORKFLOW_ACCOUNT else "User")

    def listed(self) -> list[tuple[str, str]]:
        """The collaborators GraphQL lists, as (login, permission), sorted case-insensitively."""
        return sorted(self._listed.values(), key=lambda pair: pair[0].lower())

    def listed_permission(self, login: str) -> str | None:
        """A login's permission when GraphQL lists it, else None."""
        found = self._listed.get(login.lower().removesuffix("[bot]"))
        return found[1] if found else None

    def effective(self, login: str) -> str | None:
        """Every source of access counted (what REST answers); None for no grant (read on a public repository)."""
        key = login.lower().removesuffix("[bot]")
        return self.listed_permission(key) or self._team.get(key)

    def everyone(self, affiliation: str = "all") -> list[tuple[str, str]]:
        """REST's collaborator list (login, role), sorted case-insensitively: `all` counts every
        grant (the listed, `team_access`, the owner), `direct` the logins added to the repository
        (`permissions`), `outside` those of them who are not members of the owning organization."""
        members = {login.lower() for login in self._world.org_members}
        if affiliation == "all":
            found = dict(self._listed)
            for login, level in self._world.team_access.items():
                found.setdefault(login.lower(), (login, level))
            people = [(login, self.effective(login) or level) for login, level in found.values()]
        else:
            people = [
                (login, self.effective(login) or level)
                for login, level in self._world.permissions.items()
                if affiliation == "direct" or login.lower() not in members
            ]
        return sorted(people, key=lambda pair: pair[0].lower())

    def role_name(self, login: str, role: str) -> str:
        """REST's `role_name` of a login whose highest role is `role`: the name of the world's
        custom role for it (`custom_roles`) when that role is the one built on `role`, else the
        base role's name. GitHub's REST reference: `role_name` names the role, custom ones
        included, while `permission` and the `permissions` hash give its base."""
        key = login.lower().removesuffix("[bot]")
        custom = {name.lower(): value for name, value in self._world.custom_roles.items()}
        if key in custom and self.listed_permission(key) == role:
            return custom[key]
        return role.lower()

    def can_push(self, login: str) -> bool:
        """WRITE, MAINTAIN or ADMIN on the repository, every grant counted."""
        return self.effective(login) in PUSH_ROLES

    def association(self, login: str | None) -> str:
        """authorAssociation: OWNER, the world's ``associations`` override, MEMBER for organization
        members, COLLABORATOR for other listed logins, or NONE (it is not a permission)."""
        if login is None:
            return "NONE"
        key = login.lower()
        if key == self._world.repository.owner.lower():
            return "OWNER"
        for name, value in self._world.associations.items():
            if name.lower() == key:
                return value
        if any(name.lower() == key for name in self._world.org_members):
            return "MEMBER"
        return "COLLABORATOR" if self.listed_permission(login) else "NONE"

    def exists(self, login: str, items: Iterable[Issue], viewers: Iterable[str]) -> bool:
        """Whether the login is an account of this world (named anywhere in it)."""
        key = login.lower().removesuffix("[bot]")
        if key in self._listed or key in self._team or key in {u.lower() for u in self._world.users}:
            return True
        if key in {v.lower().removesuffix("[bot]") for v in viewers}:
            return True
        return any(key in _logins(issue) for issue in items)


def _logins(issue: Issue) -> set[str]:
    """Every login an issue names: its author, actors, comment authors and reactors."""
    names = [issue.author, *(r.user for r in issue.reactions)]
    for item in issue.timeline:
        if isinstance(item, CommentItem):
            names.append(item.author)
            names.extend(r.user for r in item.reactions)
        else:
            names.append(item.actor)
    return {name.lower().removesuffix("[bot]") for name in names if name}


# GitHub's words when a token may not read permissions (docs/emulator.md, "Evidence").
# GraphQL `collaborators` refused: what github.com answers a workflow's GITHUB_TOKEN now.
COLLABORATORS_REFUSED = "You do not have permission to view repository collaborators."
# REST `collaborators/{user}/permission` for a token without push access (PyGithub's recording).
PERMISSION_NEEDS_PUSH = "Must have push access to view collaborator permission."
# REST's list `collaborators` for a token without push access (quoted in github/developer.github.com#768,
# 64kramsystem/geet#121, dsoftwareinc/ghactions-manager#271).
LIST_NEEDS_PUSH = "Must have push access to view repository collaborators."
