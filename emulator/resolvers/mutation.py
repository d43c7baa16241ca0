"""The mutations the write path needs; each changes the store (seen in ``/_emulator/state``)."""

from __future__ import annotations

from typing import Any

from emulator.ids import parse_node_id
from emulator.pagination import Edge
from emulator.refusals import MutationError
from emulator.resolvers.actors import ActorNode
from emulator.resolvers.context import Args, Info, context, github_error, unknown_id
from emulator.resolvers.git import CommitNode, RefNode
from emulator.resolvers.issues import CommentNode, IssueNode
from emulator.resolvers.reactions import ReactionNode, reaction_groups
from emulator.resolvers.registry import NODES
from emulator.store import Store


def _subject(store: Store, value: str) -> tuple[str, int]:
    """``(typename, number or comment id)`` of a subject id; raises NOT_FOUND."""
    parsed = parse_node_id(value)
    if parsed is not None and parsed[1].isdigit():
        typename, key = parsed
        number = int(key)
        if typename in ("Issue", "PullRequest") and number in store.items:
            return typename, number
        if typename == "IssueComment" and store.comment(number) is not None:
            return typename, number
        if typename == "PullRequestReview" and store.review_location(number) is not None:
            return typename, number
        if typename == "PullRequestReviewComment" and store.review_comment_location(number) is not None:
            return typename, number
    raise unknown_id(value)


def _repository(store: Store, value: str) -> None:
    parsed = parse_node_id(value)
    if parsed is None or parsed != ("Repository", store.name_with_owner):
        raise unknown_id(value)


# Who may label: triage or more on the repository; a workflow's GITHUB_TOKEN (github-actions) with
# `issues: write`, as the example workflows grant it.
_LABELLERS = frozenset({"TRIAGE", "WRITE", "MAINTAIN", "ADMIN"})


def _may_label(store: Store, viewer: str) -> bool:
    return viewer.lower() == "github-actions" or (store.permission(viewer) or "").upper() in _LABELLERS


class MutationRoot:
    """The Mutation type; MutationError becomes GitHub's typed error beside a null payload."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def createRef(self, info: Info, args: Args) -> dict[str, Any]:
        """Create a branch at a commit."""
        data = args["input"]
        _repository(self._store, data["repositoryId"])
        try:
            branch = self._store.git.create_ref(data["name"], data["oid"])
        except MutationError as error:
            raise github_error(str(error), error.type) from error
        return {"clientMutationId": data.get("clientMutationId"), "ref": RefNode(self._store, branch)}

    def _ref_branch(self, value: str) -> str:
        parsed = parse_node_id(value)
        if parsed is None or parsed[0] != "Ref" or parsed[1] not in self._store.branches:
            raise unknown_id(value)
        return parsed[1]

    def updateRef(self, info: Info, args: Args) -> dict[str, Any]:
        """Move a branch to another commit (``force`` allows a non-fast-forward)."""
        data = args["input"]
        branch = self._ref_branch(data["refId"])
        try:
            self._store.git.update_ref(branch, data["oid"], bool(data.get("force")))
        except MutationError as error:
            raise github_error(str(error), error.type) from error
        return {"clientMutationId": data.get("clientMutationId"), "ref": RefNode(self._store, branch)}

    def deleteRef(self, info: Info, args: Args) -> dict[str, Any]:
        """Delete a branch."""
        data = args["input"]
        branch = self._ref_branch(data["refId"])
        try:
            self._store.git.delete_ref(branch)
        except MutationError as error:
            raise github_error(str(error), error.type) from error
        return {"clientMutationId": data.get("clientMutationId")}

    def createCommitOnBranch(self, info: Info, args: Args) -> dict[str, Any]:
        """Commit file changes; STALE_DATA when expectedHeadOid is not the head."""
        data = args["input"]
        store = self._store
        branch_input = data["branch"]
        if branch_input.get("id"):
            parsed = parse_node_id(branch_input["id"])
            branch = parsed[1] if parsed and parsed[0] == "Ref" else ""
        else:
            if (branch_input.get("repositoryNameWithOwner") or "").lower() != store.name_with_owner.lower():
                raise github_error(
                    "Could not resolve to a Repository with the name "
                    f"'{branch_input.get('repositoryNameWithOwner')}'.",
                    "NOT_FOUND",
                )
            branch = (branch_input.get("branchName") or "").removeprefix("refs/heads/")
        message = data["message"]["headline"]
        if data["message"].get("body"):
            message += "\n\n" + data["message"]["body"]
        changes = data.get("fileChanges") or {}
        additions = [(a["path"], a["contents"]) for a in changes.get("additions") or []]
        deletions = [d["path"] for d in changes.get("deletions") or []]
        try:
            commit = store.git.commit(
                branch, data["expectedHeadOid"], message, additions, deletions, at=store.now()
            )
        except MutationError as error:
            raise github_error(str(error), error.type) from error
        return {
            "clientMutationId": data.get("clientMutationId"),
            "commit": CommitNode(store, commit),
            "ref": RefNode(store, branch),
        }

    def createPullRequest(self, info: Info, args: Args) -> dict[str, Any]:
        """Open a pull request as the viewer; refused when the world forbids it."""
        data = args["input"]
        _repository(self._store, data["repositoryId"])
        try:
            number = self._store.create_pull(
                context(info).viewer,
                data["baseRefName"],
                data["headRefName"],
                data["title"],
                data.get("body") or "",
                bool(data.get("draft")),
            )
        except MutationError as error:
            raise github_error(str(error), error.type) from error
        return {
            "clientMutationId": data.get("clientMutationId"),
            "pullRequest": IssueNode(self._store, number),
        }

    def updatePullRequest(self, info: Info, args: Args) -> dict[str, Any]:
        """Change a pull request's title, body or state."""
        data = args["input"]
        typename, number = _subject(self._store, data["pullRequestId"])
        if typename != "PullRequest":
            raise github_error(
                f"Could not resolve to a PullRequest with the global id of '{data['pullRequestId']}'",
                "NOT_FOUND",
            )
        viewer = context(info).viewer
        self._store.update_pull(number, viewer, data.get("title"), data.get("body"), data.get("state"))
        return {
            "clientMutationId": data.get("clientMutationId"),
            "pullRequest": IssueNode(self._store, number),
            "actor": ActorNode(self._store, viewer),
        }

    def addComment(self, info: Info, args: Args) -> dict[str, Any]:
        """Comment on an issue or pull request as the viewer."""
        data = args["input"]
        typename, number = _subject(self._store, data["subjectId"])
        if typename == "IssueComment":
            raise github_error("Subject must be an issue or a pull request.", "UNPROCESSABLE")
        item = self._store.add_comment(number, context(info).viewer, data["body"])
        node = CommentNode(self._store, number, item)
        return {
            "clientMutationId": data.get("clientMutationId"),
            "commentEdge": Edge(cursor=node.id, node=node),
            "timelineEdge": Edge(cursor=node.id, node=node),
            "subject": IssueNode(self._store, number),
        }

    def createIssue(self, info: Info, args: Args) -> dict[str, Any]:
        """Open an issue as the viewer (labels, assignees and the rest of the input are not modelled)."""
        data = args["input"]
        _repository(self._store, data["repositoryId"])
        title = data["title"]
        if not title.strip():
            raise github_error("Title can't be blank", "UNPROCESSABLE")
        number = self._store.create_issue(context(info).viewer, title, data.get("body") or "")
        return {"clientMutationId": data.get("clientMutationId"), "issue": IssueNode(self._store, number)}

    def _labels(self, data: dict[str, Any]) -> tuple[int, list[str]]:
        """The issue (or pull request) and the label names of an add/remove-labels input."""
        typename, number = _subject(self._store, data["labelableId"])
        if typename == "IssueComment":
            raise unknown_id(data["labelableId"])
        names: list[str] = []
        known = set(self._store.label_names())
        for value in data["labelIds"]:
            parsed = parse_node_id(value)
            if parsed is None or parsed[0] != "Label" or parsed[1] not in known:
                raise unknown_id(value)
            names.append(parsed[1])
        return number, names

    def _change_labels(self, info: Info, args: Args, *, added: bool) -> dict[str, Any]:
        data = args["input"]
        number, names = self._labels(data)
        viewer = context(info).viewer
        if not _may_label(self._store, viewer):
            verb = "AddLabelsToLabelable" if added else "RemoveLabelsFromLabelable"
            raise github_error(
                f"{viewer} does not have the correct permissions to execute `{verb}`", "FORBIDDEN"
            )
        self._store.change_labels(number, viewer, names, added=added)
        return {"clientMutationId": data.get("clientMutationId"), "labelable": IssueNode(self._store, number)}

    def addLabelsToLabelable(self, info: Info, args: Args) -> dict[str, Any]:
        """Apply labels to an issue or pull request as the viewer (one labeled event per new label)."""
        return self._change_labels(info, args, added=True)

    def removeLabelsFromLabelable(self, info: Info, args: Args) -> dict[str, Any]:
        """Take labels off an issue or pull request as the viewer (one unlabeled event per label on it)."""
        return self._change_labels(info, args, added=False)

    def updateIssueComment(self, info: Info, args: Args) -> dict[str, Any]:
        """Replace a comment's body (the viewer's own comments only)."""
        data = args["input"]
        typename, comment_id = _subject(self._store, data["id"])
        found = self._store.comment(comment_id) if typename == "IssueComment" else None
        if found is None:
            raise unknown_id(data["id"])
        viewer = context(info).viewer
        # The viewer of a Bot's token is `NAME[bot]`, the comment's author the Bot `NAME`.
        if (found[1].author or "").lower().removesuffix("[bot]") != viewer.lower().removesuffix("[bot]"):
            raise github_error(
                f"{viewer} does not have the correct permissions to execute `UpdateIssueComment`", "FORBIDDEN"
            )
        item = self._store.update_comment(comment_id, data["body"])
        return {
            "clientMutationId": data.get("clientMutationId"),
            "issueComment": CommentNode(self._store, found[0], item),
        }

    def addReaction(self, info: Info, args: Args) -> dict[str, Any]:
        """React to a comment or an issue as the viewer."""
        data = args["input"]
        store = self._store
        typename, key = _subject(store, data["subjectId"])
        viewer = context(info).viewer
        if typename in ("PullRequestReview", "PullRequestReviewComment"):
            return _react_in_review(store, typename, key, viewer, data)
        if typename == "IssueComment":
            found = store.comment(key)
            assert found is not None
            number = found[0]
            reaction = store.add_reaction(key, number, viewer, data["content"])
            comment = store.comment(key)
            assert comment is not None
            subject: Any = CommentNode(store, number, comment[1])
            reactions = comment[1].reactions
            prefix = f"c{key}"
        else:
            number = key
            reaction = store.add_reaction(None, number, viewer, data["content"])
            subject = IssueNode(store, number)
            reactions = store.items[number].reactions
            prefix = f"i{number}"
        index = next(i for i, r in enumerate(reactions) if r == reaction)
        return {
            "clientMutationId": data.get("clientMutationId"),
            "reaction": ReactionNode(store, reaction, f"{prefix}:{index}"),
            "subject": subject,
            "reactionGroups": reaction_groups(store, reactions, subject),
        }


def _react_in_review(
    store: Store, typename: str, key: int, viewer: str, data: dict[str, Any]
) -> dict[str, Any]:
    """addReaction on a review or a review comment."""
    if typename == "PullRequestReview":
        if store.review_location(key) is None:  # a reply's own review (emulator/resolvers/reviews.py)
            raise MutationError(
                "The emulator keeps no reactions on a reply's own bodyless review: react to the reply"
            )
        review_id, comment_id = key, None
    else:
        spot = store.review_comment_location(key)
        assert spot is not None
        review_id, comment_id = store.items[spot[0]].reviews[spot[1]].id, key
    reaction = store.react_in_review(review_id, comment_id, viewer, data["content"])
    subject = NODES.build(store, typename, str(key))
    return {
        "clientMutationId": data.get("clientMutationId"),
        "reaction": subject.reaction_node(reaction),
        "subject": subject,
        "reactionGroups": reaction_groups(store, subject.own_reactions(), subject),
    }
