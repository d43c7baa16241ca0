"""The repository's GitHub Actions settings as REST serves them to an admin's token.

`GET /repos/{o}/{r}/actions/permissions/workflow`: `can_approve_pull_request_reviews` is the setting
"Allow GitHub Actions to create and approve pull requests" (the world's ``pull_requests_allowed``,
which also decides whether createPullRequest is refused); only an admin may read it: an app's
token gets 403 "Resource not accessible by integration", a person's "Must have admin rights to
Repository." (docs/emulator.md names the evidence).
"""

from __future__ import annotations

from aiohttp import web

from emulator.store import Store

DOCUMENTATION = (
    "https://docs.github.com/rest/actions/permissions#get-default-workflow-permissions-for-a-repository"
)


def workflow_settings(store: Store, login: str, *, repo_ok: bool) -> web.Response:
    """The answer to the token of `login`."""
    if not repo_ok:
        return web.json_response(
            {"message": "Not Found", "documentation_url": DOCUMENTATION, "status": "404"}, status=404
        )
    if store.access.effective(login) != "ADMIN":
        bot = store.actor_type(login) == "Bot"
        message = "Resource not accessible by integration" if bot else "Must have admin rights to Repository."
        return web.json_response(
            {"message": message, "documentation_url": DOCUMENTATION, "status": "403"}, status=403
        )
    return web.json_response(
        {
            "default_workflow_permissions": "read",
            "can_approve_pull_request_reviews": store.file.pull_requests_allowed,
        }
    )
