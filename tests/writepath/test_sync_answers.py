"""`learnings sync` answers each command once: 🚀 on a comment whose command it recorded, 👀 on one
it read and refused for good; its own reaction is the record (`viewerHasReacted`), so a later
run never answers again. Answers are mutations: spaced like the others, capped apart from them."""

from __future__ import annotations

from typing import Any

from emulator import Server
from tests.writepath.conftest import Sync, VirtualTime

VIEWER = "github-actions"  # the sync's token in these worlds
ROCKET = {2700001001, 2700001005, 2700001006, 2700002002}  # recorded (1006 repeats 1001 word for word)
EYES = {
    2700001002,  # dave: READ
    2700001003,  # carol: TRIAGE
    2700002003,  # bob: an ignore-rule that names no finding
    2700002005,  # bob: the finding it names is in carol's comment, not the assistant's
}


def answered(server: Server) -> dict[int, set[str]]:
    """The sync's own reactions on each comment, as GitHub holds them."""
    state = server.state()
    found: dict[int, set[str]] = {}
    for thread in (*state["issues"], *state["pull_requests"]):
        comments = [item for item in thread["timeline"] if item["type"] == "comment"]
        for review in thread.get("reviews", ()):
            comments += [c for t in review.get("threads", ()) for c in t["comments"]]
        for item in comments:
            mine = {r["content"] for r in item.get("reactions", ()) if r["user"] == VIEWER}
            if mine:
                found[item["id"]] = mine
    return found


def test_each_command_is_answered_once(
    server: Server, sync: Sync, kit: Any, time_machine: VirtualTime
) -> None:
    first = sync()
    assert answered(server) == {**{c: {"ROCKET"} for c in ROCKET}, **{c: {"EYES"} for c in EYES}}
    assert first.mutations.count("AddReaction") == len(ROCKET | EYES)
    # Every mutation, answers included, waited its second after the one before.
    assert time_machine.sleeps == [1.0] * (len(first.mutations) - 1)

    issue = kit.graphql(
        '{ repository(owner: "octo", name: "demo") { issue(number: 10) { id } } }', {}, "bob-token"
    )
    add = "mutation($s: ID!, $b: String!) { addComment(input: {subjectId: $s, body: $b}) { commentEdge { node { fullDatabaseId } } } }"
    subject = issue["data"]["repository"]["issue"]["id"]
    new = kit.graphql(add, {"s": subject, "b": "/assistant remember dave wants this"}, "bob-token")
    new_id = int(new["data"]["addComment"]["commentEdge"]["node"]["fullDatabaseId"])

    second = sync()
    assert second.mutations.count("AddReaction") == 1  # only the new command
    assert answered(server)[new_id] == {"ROCKET"}
    third = sync()
    assert "AddReaction" not in third.mutations
    assert len(answered(server)) == len(ROCKET | EYES) + 1


def test_answers_past_their_cap_wait_for_the_next_run(server: Server, sync: Sync) -> None:
    first = sync(max_answers=3)
    assert first.outcome == "recorded" and first.mutations.count("AddReaction") == 3
    assert first.owed == 5
    second = sync(max_answers=3)
    assert second.mutations.count("AddReaction") == 3
    third = sync(max_answers=3)
    assert third.mutations.count("AddReaction") == 2
    assert answered(server) == {**{c: {"ROCKET"} for c in ROCKET}, **{c: {"EYES"} for c in EYES}}
    assert "AddReaction" not in sync().mutations
