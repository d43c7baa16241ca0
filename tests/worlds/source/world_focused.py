"""Small worlds, one per rule family of rules.md; each issue's comment says what it checks."""

from __future__ import annotations

from typing import Any

from tests.kit.world import (
    ASSISTANT,
    CommentIds,
    Item,
    analysis,
    closed,
    comment,
    issue,
    labeled,
    marked,
    marker,
    reopened,
    unlabeled,
    unmarked,
)
from tests.kit.world import world as kit_world
from tests.worlds.source.world_files import main_files

A = ASSISTANT
BOT = "ci-bot"
GHOST = None
DOWN = "THUMBS_DOWN"
UP = "THUMBS_UP"

PERMISSIONS = {
    "mara": "ADMIN",
    "theo": "MAINTAIN",
    "wren": "WRITE",
    "juno": "WRITE",
    "piet": "TRIAGE",
    "sol": "TRIAGE",
    "rita": "READ",
}
Steps = list[tuple[str, Item]]


def first(labels: list[str], duplicate_of: int | None = None, **extra: Any) -> Item:
    """A first analysis with a short text."""
    text = "**Triage summary**\n\nSuggested labels: " + ", ".join(f"`{label}`" for label in labels) + "."
    if duplicate_of is not None:
        text += f"\n\nThis looks like a duplicate of #{duplicate_of}."
    return analysis(text, labels, duplicate_of, **extra)


def follow_up(labels: list[str], duplicate_of: int | None = None, **extra: Any) -> Item:
    """A follow-up analysis."""
    return analysis(
        "**Follow-up**\n\nStill looks the same to me.", labels, duplicate_of, kind="follow-up", **extra
    )


def triage(*labels: str, actor: str = A) -> Steps:
    """The assistant applying labels right after its comment."""
    return [("+20s", labeled(actor, label)) for label in labels]


def world(name: str, issues: list[Item], **extra: Any) -> dict[str, Any]:
    """A world around a list of issues."""
    return kit_world(
        "octo",
        name,
        note=f"Focused world '{name}': see tests/worlds/{name}.expected.json for the hand count.",
        users={A: "Bot", BOT: "Bot"},
        permissions=dict(PERMISSIONS),
        files={"main": main_files()},
        issues=issues,
        **extra,
    )


def flat(*steps: Any) -> Steps:
    """Steps and lists of steps as one list."""
    out: Steps = []
    for step in steps:
        if isinstance(step, list):
            out.extend(step)
        else:
            out.append(step)
    return out


def labels_world() -> dict[str, Any]:
    """Label corrections: removed, added, undone, re-applied, before the analysis, not people."""
    ids = CommentIds(3100000001)
    issues = [
        # 1: removed by a TRIAGE person (people need no permission for labels), added by a pusher.
        issue(
            ids,
            1,
            "Crash when the config file is empty",
            "kwame-o",
            "2026-10-01T09:00:00Z",
            "Empty demo.toml.",
            flat(
                ("+2m", first(["bug"])),
                triage("bug"),
                ("+1h", unlabeled("piet", "bug")),
                ("+1m", labeled("wren", "question")),
                ("2026-10-01T12:00:00Z", comment("wren", "Works as documented.")),
            ),
        ),
        # 2: the assistant applied documentation without proposing it; a person removed it.
        issue(
            ids,
            2,
            "Add a `--quiet` flag",
            "lena-dev",
            "2026-10-02T09:00:00Z",
            "Less output please.",
            flat(
                ("+2m", first(["enhancement"])),
                triage("enhancement", "documentation"),
                ("2026-10-02T11:00:00Z", unlabeled("juno", "documentation")),
            ),
        ),
        # 3: proposed but not applied; a person adds it: not a correction (it was proposed).
        issue(
            ids,
            3,
            "Slow listing of large buckets",
            "tomasz",
            "2026-10-03T09:00:00Z",
            "10 minutes to list.",
            flat(
                ("+2m", first(["bug", "performance"])),
                triage("bug"),
                ("2026-10-03T10:00:00Z", labeled("wren", "performance")),
            ),
        ),
        # 4: proposed, not applied; a person adds it, then removes it: the last human event removed it.
        issue(
            ids,
            4,
            "Upload retries too fast",
            "dmitri",
            "2026-10-04T09:00:00Z",
            "No backoff.",
            flat(
                ("+2m", first(["bug", "performance"])),
                triage("bug"),
                ("+1h", labeled("wren", "performance")),
                ("2026-10-04T11:00:00Z", unlabeled("theo", "performance")),
            ),
        ),
        # 5: a removal undone and an addition undone, both by people: nothing.
        issue(
            ids,
            5,
            "Wrong timestamp format in logs",
            "noor",
            "2026-10-05T09:00:00Z",
            "Local time, no zone.",
            flat(
                ("+2m", first(["bug"])),
                triage("bug"),
                ("+1h", unlabeled("sol", "bug")),
                ("+1h", labeled("theo", "bug")),
                ("+1h", labeled("juno", "documentation")),
                ("2026-10-05T13:30:00Z", unlabeled("juno", "documentation")),
            ),
        ),
        # 6: a person removes crash, the assistant puts it back in a follow-up: still removed.
        issue(
            ids,
            6,
            "Abort in the C extension",
            "rustyfox",
            "2026-10-06T09:00:00Z",
            "SIGABRT on exit.",
            flat(
                ("+2m", first(["bug", "crash"])),
                triage("bug", "crash"),
                ("+1h", unlabeled("mara", "crash")),
                ("+1h", follow_up(["bug", "crash"])),
                triage("crash"),
                ("2026-10-06T12:00:00Z", comment("rustyfox", "It still aborts.")),
            ),
        ),
        # 7: events before the first analysis are ignored, including those after an unparseable marker.
        issue(
            ids,
            7,
            "Config keys with dots are rejected",
            "ines",
            "2026-10-07T09:00:00Z",
            "`a.b = 1` fails.",
            flat(
                ("+5m", labeled("mara", "enhancement")),
                (
                    "+2m",
                    comment(
                        A, '<!-- assistant:analysis {"v": 1, "kind": "first", "labels": [bug]} -->\nDraft.'
                    ),
                ),
                ("+30m", labeled("wren", "performance")),
                ("+5m", first(["bug", "config"])),
                triage("bug", "config"),
                ("2026-10-07T11:00:00Z", comment("juno", "Thanks.")),
            ),
        ),
        # 8: only non-people or non-labels: ci-bot, a ghost, the assistant, non-vocabulary labels, and
        #    possible-duplicate added by a maintainer without any notice.
        issue(
            ids,
            8,
            "`demo ls` sorts by name only",
            "grace-h",
            "2026-10-08T09:00:00Z",
            "Sort by size?",
            flat(
                ("+2m", first(["bug"])),
                triage("bug"),
                ("+1h", unlabeled(BOT, "bug")),
                ("+1m", labeled(GHOST, "performance")),
                ("+1m", labeled(A, "question")),
                ("+1m", unlabeled(A, "question")),
                ("+1m", labeled("juno", "good first issue")),
                ("+1m", labeled("juno", "possible-duplicate")),
                ("2026-10-08T11:00:00Z", labeled("juno", "wontfix")),
            ),
        ),
    ]
    return world("labels", issues)


def duplicates_world() -> dict[str, Any]:
    """Duplicate notices: confirmed, objected (three ways), open, and what does not object."""
    ids = CommentIds(3200000001)
    issues = [
        # 1: canonical issue, no analysis.
        issue(
            ids,
            1,
            "Hang with dotted bucket names",
            "kwame-o",
            "2026-10-01T09:00:00Z",
            "Never returns.",
            [("2026-10-01T10:00:00Z", labeled("mara", "bug"))],
        ),
        # 2: the reporter objects, then a maintainer closes as duplicate: confirmed.
        issue(
            ids,
            2,
            "Hang with bucket a.b",
            "olu",
            "2026-10-02T09:00:00Z",
            "Same symptom.",
            flat(
                ("+2m", first(["bug"], 1)),
                triage("bug", "possible-duplicate"),
                ("+1h", comment("olu", "Not sure it is the same.")),
                ("2026-10-02T12:00:00Z", closed("mara", "DUPLICATE")),
            ),
        ),
        # 3: marked as duplicate, never unmarked; the reporter's later comment does not matter.
        issue(
            ids,
            3,
            "Hang with bucket x.y",
            "yuki",
            "2026-10-03T09:00:00Z",
            "Hangs.",
            flat(
                ("+2m", first(["bug"], 1)),
                triage("bug", "possible-duplicate"),
                ("+1h", marked("juno", 1)),
                ("2026-10-03T12:00:00Z", comment("yuki", "Hm, mine has no TLS error though.")),
            ),
        ),
        # 4: closed as duplicate, reopened, closed as completed: not confirmed; nobody objected: open.
        issue(
            ids,
            4,
            "Hang on first sync",
            "felix",
            "2026-10-04T09:00:00Z",
            "First run only.",
            flat(
                ("+2m", first(["bug"], 1)),
                triage("bug", "possible-duplicate"),
                ("+1h", closed("wren", "DUPLICATE")),
                ("+1h", reopened("wren")),
                ("2026-10-04T13:00:00Z", closed("wren", "COMPLETED")),
            ),
        ),
        # 5: marked, unmarked, then the reporter (READ) comments: objected.
        issue(
            ids,
            5,
            "Hang after resume from sleep",
            "noor",
            "2026-10-05T09:00:00Z",
            "After suspend.",
            flat(
                ("+2m", first(["bug"], 1)),
                triage("bug", "possible-duplicate"),
                ("+1h", marked("juno", 1)),
                ("+1h", unmarked("juno", 1)),
                ("2026-10-05T13:00:00Z", comment("noor", "Different: my bucket name has no dot.")),
            ),
        ),
        # 6: a TRIAGE maintainer's command on a line of its own, with spaces around it: objected.
        issue(
            ids,
            6,
            "Hang with IPv6 endpoint",
            "akira-t",
            "2026-10-06T09:00:00Z",
            "IPv6 only network.",
            flat(
                ("+2m", first(["bug"], 1)),
                triage("bug", "possible-duplicate"),
                (
                    "2026-10-06T12:00:00Z",
                    comment("piet", "Checked the packet capture.\n   /assistant not-duplicate  \nIt is DNS."),
                ),
            ),
        ),
        # 7: the command not alone on its line, and in the middle of a sentence: open.
        issue(
            ids,
            7,
            "Hang with custom CA bundle",
            "ada",
            "2026-10-07T09:00:00Z",
            "REQUESTS_CA_BUNDLE set.",
            flat(
                ("+2m", first(["bug"], 1)),
                triage("bug", "possible-duplicate"),
                ("+1h", comment("wren", "/assistant not-duplicate please, once I have checked")),
                (
                    "2026-10-07T12:00:00Z",
                    comment("theo", "No need for /assistant not-duplicate, same TLS issue."),
                ),
            ),
        ),
        # 8: a READ comment BEFORE the notice; after it only ci-bot, a ghost removing the label, the
        #    assistant (follow-up and removing its own label) and a maintainer's plain comment: open.
        issue(
            ids,
            8,
            "Hang when offline",
            "sam-k",
            "2026-10-08T09:00:00Z",
            "No network, no error.",
            flat(
                ("+1m", comment("sam-k", "Extra info: it happens with any bucket.")),
                ("+2m", first(["bug"], 1)),
                triage("bug", "possible-duplicate"),
                ("+1h", comment(BOT, "Not a duplicate according to stack trace hashing.")),
                ("+1h", unlabeled(GHOST, "possible-duplicate")),
                ("+1h", labeled(A, "possible-duplicate")),
                ("+1h", follow_up(["bug"])),
                ("+20s", unlabeled(A, "possible-duplicate")),
                ("2026-10-08T14:00:00Z", comment("mara", "Looking into it.")),
            ),
        ),
        # 9: no notice in the first analysis; a follow-up names a duplicate; the reporter comments: none.
        issue(
            ids,
            9,
            "Hang with very long keys",
            "zoe-b",
            "2026-10-09T09:00:00Z",
            "1024-byte keys.",
            flat(
                ("+2m", first(["bug"])),
                triage("bug"),
                ("+1h", follow_up(["bug"], 1)),
                ("+20s", labeled(A, "possible-duplicate")),
                ("2026-10-09T12:00:00Z", comment("zoe-b", "Not the same as #1!")),
            ),
        ),
        # 10: a WRITE maintainer removes possible-duplicate: objected, and no label correction.
        issue(
            ids,
            10,
            "Hang on Windows only",
            "carlos-m",
            "2026-10-10T09:00:00Z",
            "Linux fine.",
            flat(
                ("+2m", first(["bug"], 1)),
                triage("bug", "possible-duplicate"),
                ("2026-10-10T11:00:00Z", unlabeled("juno", "possible-duplicate")),
            ),
        ),
    ]
    return world("duplicates", issues)


def thumbs_issues() -> list[Item]:
    """👎 on first analyses from people of every permission and from non-people."""
    ids = CommentIds(3300000001)
    many = [(f"user{n:02d}", DOWN) for n in range(15)] + [("juno", DOWN)]
    return [
        # 1: WRITE 👎 counts, ADMIN 👍 does not.
        issue(
            ids,
            1,
            "Sync ignores mtime",
            "kwame-o",
            "2026-10-01T09:00:00Z",
            "Only sizes compared.",
            flat(
                ("+2m", first(["bug"], reactions=[("wren", DOWN), ("mara", UP)])),
                triage("bug"),
                ("2026-10-01T10:00:00Z", comment("wren", "Wrong analysis.")),
            ),
        ),
        # 2: ADMIN, MAINTAIN and WRITE: 3.
        issue(
            ids,
            2,
            "Add S3 Express support",
            "lena-dev",
            "2026-10-02T09:00:00Z",
            "Directory buckets.",
            flat(
                ("+2m", first(["enhancement"], reactions=[("mara", DOWN), ("theo", DOWN), ("juno", DOWN)])),
                ("2026-10-02T09:02:20Z", labeled(A, "enhancement")),
            ),
        ),
        # 3: TRIAGE, READ (not listed) and READ (listed): 0.
        issue(
            ids,
            3,
            "Docs: missing `--region`",
            "tomasz",
            "2026-10-03T09:00:00Z",
            "Not in the man page.",
            flat(
                (
                    "+2m",
                    first(["documentation"], reactions=[("piet", DOWN), ("tomasz", DOWN), ("rita", DOWN)]),
                ),
                ("2026-10-03T09:02:20Z", labeled(A, "documentation")),
            ),
        ),
        # 4: a bot and a ghost: 0.
        issue(
            ids,
            4,
            "Colour output on Windows",
            "noor",
            "2026-10-04T09:00:00Z",
            "ANSI codes printed raw.",
            flat(
                ("+2m", first(["bug", "platform-windows"], reactions=[(BOT, DOWN), (GHOST, DOWN)])),
                ("2026-10-04T09:02:20Z", labeled(A, "bug")),
            ),
        ),
        # 5: pushers' 👎 only on a follow-up, a marker-less assistant comment and a human comment: 0.
        issue(
            ids,
            5,
            "Timeout flag ignored",
            "dmitri",
            "2026-10-05T09:00:00Z",
            "`--timeout 5` waits 60 s.",
            flat(
                ("+2m", first(["bug"])),
                triage("bug"),
                ("+1h", comment(A, "I will look at this again after the next release.", [("mara", DOWN)])),
                ("+1h", comment("dmitri", "Any news?", [("theo", DOWN)])),
                ("2026-10-05T12:00:00Z", follow_up(["bug"], reactions=[("wren", DOWN), ("juno", DOWN)])),
            ),
        ),
        # 6: an unparseable marker comment with a pusher's 👎, then the real first analysis with one.
        issue(
            ids,
            6,
            "Progress bar wrong for sparse files",
            "grace-h",
            "2026-10-06T09:00:00Z",
            "Shows 300%.",
            flat(
                (
                    "+2m",
                    comment(
                        A, '<!-- assistant:analysis {"v": 1, "kind": "first" -->\nDraft.', [("mara", DOWN)]
                    ),
                ),
                ("+3m", first(["bug"], reactions=[("theo", DOWN)])),
                ("2026-10-06T09:05:20Z", labeled(A, "bug")),
            ),
        ),
        # 7: sixteen 👎, only the last one (juno, WRITE) from a pusher: 1.
        issue(
            ids,
            7,
            "Support `demo sync --since`",
            "ines",
            "2026-10-07T09:00:00Z",
            "Only files changed since.",
            flat(
                ("+2m", first(["question"], reactions=many)), ("2026-10-07T09:02:20Z", labeled(A, "question"))
            ),
        ),
    ]


def thumbs_world() -> dict[str, Any]:
    """The thumbs world with permissions read through GraphQL."""
    return world("thumbs", thumbs_issues())


def forbidden_world() -> dict[str, Any]:
    """The thumbs world where GraphQL refuses to list collaborators; REST still answers."""
    return world("forbidden", thumbs_issues(), collaborators_via_graphql="forbidden")


def window_world() -> dict[str, Any]:
    """Six analyzed issues for a window of three; the newest activity is on issues without analysis."""
    ids = CommentIds(3400000001)
    issues = [
        # 1: corrected, late activity: in the window.
        issue(
            ids,
            1,
            "Sync deletes empty folders",
            "kwame-o",
            "2026-10-01T09:00:00Z",
            "Empty dirs vanish.",
            flat(
                ("+2m", first(["bug"])),
                triage("bug"),
                ("+1h", unlabeled("wren", "bug")),
                ("2026-11-20T09:00:00Z", comment("kwame-o", "Still happens in 2.4.")),
            ),
        ),
        # 2: corrected (👎 from a pusher), old: outside.
        issue(
            ids,
            2,
            "Add `--exclude-from FILE`",
            "lena-dev",
            "2026-10-02T09:00:00Z",
            "Like rsync.",
            flat(
                ("+2m", first(["enhancement"], reactions=[("wren", DOWN)])),
                triage("enhancement"),
                ("2026-10-05T09:00:00Z", comment("wren", "Exists already.")),
            ),
        ),
        # 3: plain: in the window.
        issue(
            ids,
            3,
            "Improve the error for a missing bucket",
            "tomasz",
            "2026-10-03T09:00:00Z",
            "Just says 404.",
            flat(
                ("+2m", first(["enhancement"])),
                triage("enhancement"),
                ("2026-11-18T09:00:00Z", comment("theo", "Agreed.")),
            ),
        ),
        # 4: no analysis, the newest activity of all.
        issue(
            ids,
            4,
            "Thank you!",
            "noor",
            "2026-10-04T09:00:00Z",
            "Great tool.",
            [("2026-11-25T09:00:00Z", comment("mara", "Thanks!"))],
        ),
        # 5: corrected (added documentation), fourth newest analyzed: outside.
        issue(
            ids,
            5,
            "`demo ls --long` columns misaligned",
            "dmitri",
            "2026-10-05T09:00:00Z",
            "Wide names.",
            flat(
                ("+2m", first(["bug"])),
                triage("bug"),
                ("+1h", labeled("juno", "documentation")),
                ("2026-11-10T09:00:00Z", comment("juno", "Docs show the old layout too.")),
            ),
        ),
        # 6: duplicate notice objected by the reporter: in the window.
        issue(
            ids,
            6,
            "Hang with bucket `a.b`",
            "olu",
            "2026-10-06T09:00:00Z",
            "Hangs.",
            flat(
                ("+2m", first(["bug"], 1)),
                triage("bug", "possible-duplicate"),
                ("2026-11-19T09:00:00Z", comment("olu", "Not a duplicate: no TLS involved.")),
            ),
        ),
        # 7: only an unparseable marker, recent: not analyzed, takes no place in the window.
        issue(
            ids,
            7,
            "Crash on empty bucket",
            "yuki",
            "2026-10-07T09:00:00Z",
            "IndexError.",
            flat(
                (
                    "+2m",
                    comment(A, '<!-- assistant:analysis {"v": 1, "kind": "first", "labels": ["bug"], -->'),
                ),
                ("+1m", labeled(A, "bug")),
                ("2026-11-24T09:00:00Z", unlabeled("wren", "bug")),
            ),
        ),
        # 8: plain, old: outside.
        issue(
            ids,
            8,
            "Document exit codes",
            "ada",
            "2026-10-08T09:00:00Z",
            "Which code means what?",
            flat(("+2m", first(["documentation"])), ("2026-11-01T09:00:00Z", labeled(A, "documentation"))),
        ),
    ]
    return world("window", issues)


def trust_world() -> dict[str, Any]:
    """Who counts: the assistant by login (any case, [bot] suffix), bots, ghosts, forged markers, MEMBER."""
    ids = CommentIds(3500000001)
    bot = "Triage-Assistant"

    def by_bot(labels: list[str], duplicate_of: int | None = None, **extra: Any) -> Item:
        return first(labels, duplicate_of, author=bot, **extra)

    issues = [
        # 1: meg (READ, shown as MEMBER) 👎 doesn't count; owen (WRITE, shown as CONTRIBUTOR) does;
        #    deploy-bot (a Bot with WRITE) and a ghost don't.
        issue(
            ids,
            1,
            "Sync stops at 2^31 bytes",
            "kwame-o",
            "2026-10-01T09:00:00Z",
            "Large file stops at 2 GiB.",
            flat(
                (
                    "+2m",
                    by_bot(
                        ["bug"],
                        reactions=[("meg", DOWN), ("owen", DOWN), ("deploy-bot", DOWN), (GHOST, DOWN)],
                    ),
                ),
                triage("bug", actor=bot),
                ("2026-10-01T11:00:00Z", comment("meg", "Seen this too.")),
            ),
        ),
        # 2: markers by a MEMBER with READ, by ci-bot, and by a look-alike login: no analysis.
        issue(
            ids,
            2,
            "Add a dark theme to the TUI",
            "meg",
            "2026-10-02T09:00:00Z",
            "Please.",
            flat(
                ("+1m", comment("meg", marker("first", ["bug"], 5) + "\nmy analysis")),
                ("+1m", comment(BOT, marker("first", ["enhancement"], None) + "\nautomated")),
                ("+1m", comment("triage-assistant-fan", marker("first", ["question"], None) + "\nhi")),
                ("+1h", labeled("wren", "enhancement")),
                ("2026-10-02T11:00:00Z", unlabeled("wren", "enhancement")),
            ),
        ),
        # 3: meg (READ, MEMBER) comments after the notice: objected (MEMBER is not a maintainer).
        issue(
            ids,
            3,
            "Hang on bucket `x.y`",
            "sam-k",
            "2026-10-03T09:00:00Z",
            "Hangs.",
            flat(
                ("+2m", by_bot(["bug"], 5)),
                triage("bug", "possible-duplicate", actor=bot),
                ("2026-10-03T11:00:00Z", comment("meg", "This is not #5, the bucket has no TLS.")),
            ),
        ),
        # 4: deploy-bot (Bot with WRITE) writes the command and removes the label; a ghost comments: open.
        issue(
            ids,
            4,
            "Hang on bucket `p.q`",
            "ines",
            "2026-10-04T09:00:00Z",
            "Also hangs.",
            flat(
                ("+2m", by_bot(["bug"], 5)),
                triage("bug", "possible-duplicate", actor=bot),
                ("+1h", comment("deploy-bot", "/assistant not-duplicate")),
                ("+1m", unlabeled("deploy-bot", "possible-duplicate")),
                ("2026-10-04T11:00:00Z", comment(GHOST, "Not a duplicate.")),
            ),
        ),
        # 5: canonical, no analysis.
        issue(
            ids,
            5,
            "Hang with dotted bucket names",
            "noor",
            "2026-10-05T09:00:00Z",
            "Canonical.",
            [("2026-10-05T10:00:00Z", labeled("mara", "bug"))],
        ),
        # 6: the assistant (different case) removes its own label, deploy-bot and a ghost relabel: nothing.
        issue(
            ids,
            6,
            "Add `--max-age` to prune",
            "olu",
            "2026-10-06T09:00:00Z",
            "Prune old files only.",
            flat(
                ("+2m", by_bot(["enhancement"])),
                triage("enhancement", actor=bot),
                ("+1h", unlabeled(bot, "enhancement")),
                ("+1m", labeled("deploy-bot", "bug")),
                ("+1m", labeled(GHOST, "config")),
                ("2026-10-06T11:00:00Z", comment(bot, "Removing my label: this is covered by #5.")),
            ),
        ),
        # 7: a person removes the label the assistant proposed: removed question.
        issue(
            ids,
            7,
            "Does `demo` support Wasabi?",
            "yuki",
            "2026-10-07T09:00:00Z",
            "Wasabi endpoint.",
            flat(
                ("+2m", by_bot(["question"])),
                triage("question", actor=bot),
                ("2026-10-07T10:00:00Z", unlabeled("mara", "question")),
            ),
        ),
    ]
    return {
        **world("trust", issues),
        "users": {bot: "Bot", "ci-bot": "Bot", "deploy-bot": "Bot"},
        "permissions": {**PERMISSIONS, "meg": "READ", "owen": "WRITE", "deploy-bot": "WRITE"},
        "associations": {"meg": "MEMBER", "owen": "CONTRIBUTOR", "mara": "OWNER"},
    }
