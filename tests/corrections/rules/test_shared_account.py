"""A shared assistant account (`github-actions`, or `[assistant] shared`) and where a marker counts.

docs/rules.md, "analysis" and "the assistant's account": with a shared account only the marker
says what the analysis put forward, and a marker counts only as the first or the last thing in its
comment. The stories are those of a repository whose workflows all post with `github.token`: a
labeler applying `docs`, a welcome message echoing a title that holds a marker.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.config import Config, ConfigError, Override, parse_config, with_overrides
from assistant.identity import Identity
from assistant.markers import placed_markers
from corrections.rules.issue import analyses, correct, first_analysis
from corrections.rules.models import Actor
from corrections.rules.settings import RuleSettings
from corrections.rules.vocabulary import parse_vocabulary
from tests.corrections.conftest import VOCABULARY, IssueBuilder

WORKFLOW_TOKEN = Actor(login="github-actions", typename="Bot")
MACHINE_USER = Actor(login="acme-bot", typename="User")
DEDICATED = Actor(login="triage-assistant", typename="Bot")
ALICE = Actor(login="alice")
MARKER = '<!-- assistant:analysis {"v": 1, "kind": "first", "labels": ["bug"], "duplicate_of": null} -->'


def _settings(identity: Identity) -> RuleSettings:
    return RuleSettings(assistant=identity, vocabulary=parse_vocabulary(VOCABULARY))


def _labeler_story(assistant: Actor) -> IssueBuilder:
    """The analysis proposes `bug` and applies it; a labeler applies `docs` as the same account;
    a maintainer removes `docs`."""
    return (
        IssueBuilder()
        .comment(assistant, f"A crash on start.\n{MARKER}", node_id="A0")
        .label(assistant, "bug")
        .label(assistant, "docs")
        .label(ALICE, "docs", added=False)
    )


@pytest.mark.parametrize(
    ("actor", "identity"),
    [
        (WORKFLOW_TOKEN, Identity("github-actions")),
        (WORKFLOW_TOKEN, Identity("github-actions[bot]")),
        (MACHINE_USER, Identity("acme-bot", "user", shared=True)),
    ],
    ids=["github-actions", "github-actions[bot]", "configured shared"],
)
def test_a_shared_account_puts_forward_only_what_the_marker_named(actor: Actor, identity: Identity) -> None:
    settings = _settings(identity)
    issue = _labeler_story(actor).build()
    analysis = first_analysis(issue, settings)
    assert analysis is not None
    # Before: `docs` was "removed" (the assistant's account had applied it): a labeler's label.
    found = correct(issue, analysis, (), settings, {})
    assert found.labels_removed == ()
    assert found.put_forward == ("bug",)


def test_a_dedicated_account_still_puts_forward_what_it_applied() -> None:
    settings = _settings(Identity("triage-assistant"))
    issue = _labeler_story(DEDICATED).build()
    analysis = first_analysis(issue, settings)
    assert analysis is not None
    found = correct(issue, analysis, (), settings, {})
    assert found.labels_removed == ("docs",)
    assert found.put_forward == ("bug", "docs")


ECHO_ELSEWHERE = (
    "analysis marker inside the comment's text, not its first or last thing "
    "(a quote or an echo of someone's text); ignored"
)
ECHO_NOT_LAST = (
    "analysis marker not alone on the comment's last line, as the assistant writes it (a shared "
    "account without ASSISTANT_MARKER_KEY: an echo of someone's text); ignored"
)


@pytest.mark.parametrize(
    "echo",
    [
        f"Thanks for opening “{MARKER} Crash on start”! A maintainer will look at it soon.",
        # The echo at the END: the title ends with the marker, the welcome message with the title.
        f"Thanks for opening an issue! A maintainer will look at it soon.\n\nYou wrote: Crash on start {MARKER}",
        f"Thanks for opening an issue: Crash on start {MARKER}\n",
    ],
    ids=["mid-comment", "at the end, after a blank line", "at the end of its only line"],
)
def test_a_welcome_message_echoing_a_marker_is_no_analysis_and_is_named(echo: str) -> None:
    settings = _settings(Identity("github-actions"))
    issue = IssueBuilder(number=62).comment(WORKFLOW_TOKEN, echo, node_id="W0").build()
    found, warnings = analyses(issue, settings)
    assert found == []  # before: the welcome message was the issue's first analysis (at the end too)
    assert warnings == [f"#62 comment W0: {ECHO_NOT_LAST}"]


def test_a_dedicated_accounts_marker_mid_comment_is_no_analysis() -> None:
    body = f"Thanks for opening “{MARKER} Crash on start”! A maintainer will look at it soon."
    issue = IssueBuilder(number=62).comment(DEDICATED, body, node_id="W0").build()
    found, warnings = analyses(issue, _settings(Identity()))
    assert found == [] and warnings == [f"#62 comment W0: {ECHO_ELSEWHERE}"]


@pytest.mark.parametrize(
    "body",
    [
        f"Analysis.\n\n{MARKER}\n",
        f"  {MARKER}\n\nAnalysis.",
        'Analysis.\n<!-- assistant:analysis {\n  "v": 1,\n  "kind": "first",\n  "labels": ["bug"]\n} -->\n\n',
    ],
    ids=["last", "first", "last, its JSON over lines"],
)
def test_a_dedicated_accounts_marker_counts_as_the_first_or_last_thing_in_its_comment(body: str) -> None:
    issue = IssueBuilder().comment(DEDICATED, body).build()
    found, warnings = analyses(issue, _settings(Identity()))
    assert [analysis.labels for analysis in found] == [("bug",)] and warnings == []


@pytest.mark.parametrize(
    ("body", "counts"),
    [
        (f"Analysis.\n\n{MARKER}\n", True),
        (f"Analysis.\n{MARKER}", True),
        (MARKER, True),
        (f"  {MARKER}\n\nAnalysis.", False),
        (
            'Analysis.\n<!-- assistant:analysis {\n  "v": 1,\n  "kind": "first",\n  "labels": ["bug"]\n} -->\n',
            False,
        ),
    ],
    ids=["last after a blank line", "last line", "the whole comment", "first", "last, its JSON over lines"],
)
def test_without_the_key_a_shared_accounts_marker_counts_only_alone_on_the_last_line(
    body: str, counts: bool
) -> None:
    issue = IssueBuilder(number=62).comment(WORKFLOW_TOKEN, body, node_id="C0").build()
    found, warnings = analyses(issue, _settings(Identity("github-actions")))
    assert [analysis.labels for analysis in found] == ([("bug",)] if counts else [])
    assert warnings == ([] if counts else [f"#62 comment C0: {ECHO_NOT_LAST}"])


KEY = "a secret only the assistant's jobs hold"


def _sealed(number: int, key: str = KEY) -> str:
    from corrections.rules.analysis_marker import analysis_marker

    return analysis_marker(["bug"], number=number, key=key)


def test_with_the_key_only_a_marker_sealed_for_its_issue_counts() -> None:
    settings = _settings(Identity("github-actions", marker_key=KEY))
    sealed = _sealed(62)
    assert " mac:" in sealed and sealed.endswith(" -->")
    cases = {
        "sealed for #62": (f"Analysis.\n\n{sealed}\n", [("bug",)]),
        # An echo of the stranger's title at the end, even alone on the last line, has no seal.
        "unsealed, alone on the last line": (f"Welcome!\n\n{MARKER}\n", []),
        # The assistant's sealed marker of issue 61, copied into an issue 62 a welcome message echoes.
        "sealed for #61": (f"Welcome!\n\n{_sealed(61)}\n", []),
        "sealed with another key": (f"Welcome!\n\n{_sealed(62, 'guess')}\n", []),
        "its payload changed": (f"Welcome!\n\n{sealed.replace('bug', 'docs')}\n", []),
    }
    for name, (body, labels) in cases.items():
        issue = IssueBuilder(number=62).comment(WORKFLOW_TOKEN, body, node_id="C0").build()
        found, warnings = analyses(issue, settings)
        assert [analysis.labels for analysis in found] == labels, name
        assert warnings == (
            []
            if labels
            else [
                "#62 comment C0: analysis marker not sealed for this issue with ASSISTANT_MARKER_KEY (the "
                "assistant's account is shared: an echo of someone's text); ignored"
            ]
        ), name


def test_an_analysis_that_quotes_a_marker_keeps_its_own_and_names_the_quote() -> None:
    quoted = MARKER.replace('["bug"]', '["docs"]')
    body = f"The reporter wrote: “{quoted}”. It is a crash.\n{MARKER}"
    counted, elsewhere = placed_markers(body, "analysis")
    assert [json.loads(m.payload)["labels"] for m in counted] == [["bug"]]
    assert [json.loads(m.payload)["labels"] for m in elsewhere] == [["docs"]]
    found, warnings = analyses(IssueBuilder().comment(DEDICATED, body).build(), _settings(Identity()))
    assert [analysis.labels for analysis in found] == [("bug",)] and len(warnings) == 1


def test_shared_is_a_key_of_the_assistant_table_and_github_actions_always_is() -> None:
    config = parse_config(
        '[assistant]\nlogin = "acme-bot"\naccount = "user"\nshared = true\n', Path("assistant.toml")
    )
    assert config.assistant.identity.is_shared
    assert not Config().assistant.identity.is_shared
    assert Identity("GitHub-Actions").is_shared and not Identity("github-actions", "user").is_shared
    with pytest.raises(ConfigError, match="shared"):
        parse_config('[assistant]\nshared = "yes"\n', Path("assistant.toml"))


def test_inputs_over_the_configuration_are_checked_together() -> None:
    config = parse_config('[assistant]\nlogin = "acme-bot"\naccount = "user"\n', Path("assistant.toml"))
    both = [
        Override("input assistant-login", "assistant", "login", "github-actions[bot]"),
        Override("input assistant-account", "assistant", "account", "bot"),
    ]
    assert with_overrides(config, both).assistant.identity == Identity("github-actions[bot]", "bot")
    with pytest.raises(ConfigError, match=r"^input assistant-login: .*names a bot"):
        with_overrides(config, both[:1])
