"""A seeded world whose issues come in planted topic families, so the nearest correction is known.

Every analyzed issue belongs to one family (TLS, proxies, Windows paths, ...). Its title and body
mix a few words of its family with many words every issue uses, and now and then a word of
another family, so a lexical ranking has to work for its answer. A share of the analyses is
corrected (a maintainer removes the proposed label), the rest stand. Which issues are "near" is
decided here, by the family, and never by the ranking under study (bench/nearest.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.kit.world import ASSISTANT, comment, iso, labeled, marker, place, placed_issue, unlabeled, world

MAINTAINER = "mara"
START = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
VOCABULARY = ("bug", "crash", "enhancement", "documentation", "question", "performance", "config")
LABELS_MD = "# Labels\n\n" + "".join(f"- `{name}`: {name} issues\n" for name in VOCABULARY)

# Words of each family: an issue about it uses a few of them.
FAMILIES: dict[str, tuple[str, ...]] = {
    "tls": ("certificate", "hostname", "ssl", "handshake", "verify", "tls", "ca", "expired"),
    "proxy": ("proxy", "corporate", "https_proxy", "tunnel", "firewall", "no_proxy", "vpn", "socks"),
    "windows": ("windows", "backslash", "drive", "powershell", "appdata", "unc", "cmd", "ntfs"),
    "memory": ("memory", "rss", "leak", "oom", "gigabytes", "swap", "heap", "allocations"),
    "watch": ("watch", "inotify", "rename", "fsevents", "notify", "events", "watcher", "debounce"),
    "auth": ("token", "login", "credentials", "sso", "keychain", "mfa", "session", "secret"),
    "multipart": ("multipart", "chunk", "etag", "resume", "parts", "checksum", "md5", "partial"),
    "docs": ("documentation", "readme", "typo", "example", "page", "tutorial", "manual", "wording"),
    "settings": ("toml", "profile", "setting", "key", "defaults", "environment", "xdg", "override"),
    "symlink": ("symlink", "symlinks", "follow", "loop", "dangling", "hardlink", "junction", "link"),
    "progress": ("progress", "bar", "terminal", "tty", "flicker", "spinner", "colors", "redraw"),
    "delete": ("delete", "prune", "prefix", "remote", "removed", "dry-run", "mirror", "orphaned"),
}
# Words any issue may use, whatever its subject.
COMMON = (
    "sync",
    "fails",
    "error",
    "demo",
    "version",
    "after",
    "upgrade",
    "files",
    "bucket",
    "works",
    "broken",
    "running",
    "command",
    "linux",
    "macos",
    "still",
    "since",
    "folder",
    "upload",
    "server",
    "release",
    "expected",
    "instead",
    "happens",
    "every",
    "time",
    "large",
    "small",
    "slow",
    "output",
)


@dataclass(frozen=True)
class TopicSpec:
    """What to generate."""

    issues: int = 240
    seed: int = 11
    families: int = len(FAMILIES)
    corrected_share: float = 0.55
    family_words_in_title: int = 1
    family_words_in_body: int = 3
    common_words_in_body: int = 22
    stray_share: float = 0.5  # issues that also use one word of another family


@dataclass(frozen=True)
class TopicWorld:
    """The world (in the format of docs/world-format.md) and the family of each issue."""

    world: dict[str, Any]
    family: dict[int, str]


def _text(rng: random.Random, own: tuple[str, ...], stray: str | None, spec: TopicSpec) -> tuple[str, str]:
    title_words = rng.sample(own, spec.family_words_in_title) + rng.sample(COMMON, 3)
    rng.shuffle(title_words)
    body_words = rng.sample(own, spec.family_words_in_body) + [
        rng.choice(COMMON) for _ in range(spec.common_words_in_body)
    ]
    if stray is not None:
        body_words.append(stray)
    rng.shuffle(body_words)
    title = " ".join(title_words).capitalize()
    return title, " ".join(body_words).capitalize() + "."


def _analysis(label: str) -> str:
    return f"Looks like {label}.\n\n{marker('first', [label], None)}"


def generate(spec: TopicSpec = TopicSpec()) -> TopicWorld:
    """The world of `spec`: one issue an hour, each analyzed, a share corrected an hour later."""
    rng = random.Random(spec.seed)  # noqa: S311 - seeded study data, no secret
    names = sorted(FAMILIES)[: spec.families]
    family: dict[int, str] = {}
    issues: list[dict[str, Any]] = []
    comment_id = 3_000_000_000  # real comment ids are above 2**31
    for number in range(1, spec.issues + 1):
        name = rng.choice(names)
        family[number] = name
        others = [w for other in names if other != name for w in FAMILIES[other]]
        stray = rng.choice(others) if others and rng.random() < spec.stray_share else None
        title, body = _text(rng, FAMILIES[name], stray, spec)
        created = START + timedelta(hours=number)
        label = rng.choice(VOCABULARY)
        comment_id += 1
        timeline = [
            place(comment(ASSISTANT, _analysis(label)), iso(created + timedelta(minutes=2)), comment_id),
            place(labeled(ASSISTANT, label), iso(created + timedelta(minutes=3))),
        ]
        if rng.random() < spec.corrected_share:
            timeline.append(place(unlabeled(MAINTAINER, label), iso(created + timedelta(minutes=50))))
        issues.append(placed_issue(number, title, f"reporter{number % 37}", iso(created), body, timeline))
    topics = world(
        "octo",
        "topics",
        users={ASSISTANT: "Bot"},
        permissions={MAINTAINER: "ADMIN"},
        files={"main": {".github/assistant/labels.md": LABELS_MD}},
        issues=issues,
    )
    return TopicWorld(world=topics, family=family)
