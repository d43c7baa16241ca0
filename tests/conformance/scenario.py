"""The conformance scenario: the product's own commands, run one after another against a sandbox
repository (on github.com, or the emulator serving tests/conformance/sandbox/world.json).

Each step is a command line of the product as a user types it; `{repo}`, `{api_url}`, `{out}`
(the step's scratch folder), `{scratch}` (every step's, so a step reads what an earlier one
wrote) and `{sandbox}` (the files beside the sandbox world: a model's answer, a PR memory) are
filled in. Together they send every named operation of queries/*.graphql but those
`NOT_EXERCISED` names, and the REST routes the product calls:

- read, quality: CorrectionWindow, CorrectionDetails and the REST permission look-ups;
- action (the workflow step on an `issues` event, its `config` input naming a configuration on
  the base branch that names another labels file): BaseFiles as well;
- explain: IssueTrail; init (in an empty git checkout of its own): RepositoryLabels and REST's
  workflow permissions; answer: the second look's DuplicateTarget (the comment goes to a file,
  never posted); backtest: FileHistory and REST's collaborator list (the "model" is `cat` of a
  fixed answer);
- memory write, twice: PullRequestComments, AddComment, then UpdateIssueComment (the assistant's
  memory comment on pull request 60);
- the first sync records the world's `remember` command (SyncTarget, LearningSources, CreateRef,
  CreateCommitOnBranch, CreatePullRequest, AddReaction on the command) and reads pull request
  60's reviews back past the newest ten (ThreadHistory);
- propose: SubjectId and AddComment (a proposal on issue 10, never accepted);
- the second sync finds the proposal (ProposalReactions) and moves its own pull request's body on
  to the new marks (UpdatePullRequest); the third reads the pending proposal by id
  (PendingComments).

Every write lands in the sandbox repository the recording names, and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SANDBOX = Path(__file__).resolve().parent / "sandbox"
SANDBOX_WORLD = SANDBOX / "world.json"


@dataclass(frozen=True)
class Step:
    """One command of the scenario: its name (the recording's file) and its arguments."""

    name: str
    program: str  # the package run as `python -m PROGRAM`
    arguments: tuple[str, ...]
    environment: tuple[tuple[str, str], ...] = ()  # besides GITHUB_TOKEN, filled in like the arguments
    checkout: bool = False  # run in a fresh, empty git checkout of its own (`corrections init` writes there)

    def argv(self, *, repo: str, api_url: str, out: Path) -> list[str]:
        """The command's arguments with the sandbox, the endpoint and a scratch folder filled in."""
        return ["-m", self.program, *(a.format(**self._fields(repo, api_url, out)) for a in self.arguments)]

    def env(self, *, repo: str, api_url: str, out: Path) -> dict[str, str]:
        """The step's own environment variables, filled in as its arguments are."""
        fields = self._fields(repo, api_url, out)
        return {name: value.format(**fields) for name, value in self.environment}

    def _fields(self, repo: str, api_url: str, out: Path) -> dict[str, object]:
        return {"repo": repo, "api_url": api_url, "out": out / self.name, "scratch": out, "sandbox": SANDBOX}


CONFORMANCE_LEARNING = "The conformance check proposed this; it is never accepted."

NOT_EXERCISED = {
    "UpdateRef": "the sync sends it only to reset its branch when that branch is left from a merged or "
    "closed pull request (or to undo that reset); the scenario's sync creates the branch (CreateRef) "
    "and no command of the product closes a pull request, so one run reaches CreateRef or UpdateRef, "
    "not both",
    "DeleteRef": "the sync sends it only to undo a branch it created when a later write of the same run "
    "is refused; a sandbox cannot be made to refuse on demand",
}
"""Named operations of queries/*.graphql the scenario cannot make the product send, and why."""

GITHUB = ("--repo", "{repo}", "--api-url", "{api_url}")

SCENARIO = (
    Step("read", "corrections", ("read", *GITHUB, "--out", "{out}")),
    Step("quality", "corrections", ("quality", *GITHUB, "--out", "{out}")),
    Step(
        "action",
        "corrections",
        ("action",),
        environment=(
            ("GITHUB_REPOSITORY", "{repo}"),
            ("GITHUB_EVENT_NAME", "issues"),
            ("GITHUB_EVENT_PATH", "{sandbox}/event.json"),
            ("GITHUB_GRAPHQL_URL", "{api_url}"),
            ("INPUT_CONFIG", ".github/conformance.toml"),
            ("INPUT_OUT", "{out}/context"),
            ("GITHUB_OUTPUT", "{out}/output"),
            ("GITHUB_STEP_SUMMARY", "{out}/summary.md"),
            ("RUNNER_TEMP", "{out}"),
        ),
    ),
    Step("explain", "corrections", ("explain", *GITHUB, "14")),
    Step("init", "corrections", ("init", *GITHUB), checkout=True),
    Step(
        "answer",
        "corrections",
        (
            *("answer", *GITHUB, "--response", "{sandbox}/answer.json", "--issue", "61"),
            *("--context", "{scratch}/read", "--out", "{out}/comment.md"),
        ),
    ),
    Step(
        "backtest",
        "corrections",
        (
            *("backtest", *GITHUB, "--model", "cat '{sandbox}/answer.json'", "--last", "2"),
            *("--state-dir", "{out}/state", "--json"),
        ),
    ),
    Step(
        "memory", "learnings", ("memory", "write", *GITHUB, "--pr", "60", "--from", "{sandbox}/memory.json")
    ),
    Step(
        "memory-again",
        "learnings",
        ("memory", "write", *GITHUB, "--pr", "60", "--from", "{sandbox}/memory.json"),
    ),
    Step("sync", "learnings", ("sync", *GITHUB)),
    Step("propose", "learnings", ("propose", *GITHUB, "--on", "10", "--text", CONFORMANCE_LEARNING)),
    Step("sync-again", "learnings", ("sync", *GITHUB)),
    Step("sync-pending", "learnings", ("sync", *GITHUB)),
)
