"""`python -m bench --loop`: the whole loop on the emulator, as a repository would live it.

Issues arrive over simulated weeks (bench/loop_world.py). Each one runs the steps of
examples/first-analysis.yml as a runner would (tests/kit/runner.py): the action (its read step, as
action.yml declares it), the prompt step, a stand-in model for the model step
(bench/stand_ins.py), and the step that posts the analysis with its receipt and applies the labels,
whose `gh` calls go to the emulator as the token's account (bench/gh_stand_in.py). A scripted
maintainer then corrects wrong labels and objects to wrong duplicate notices, through the
emulator's mutations as the maintainer's account. Both stand-ins live the same weeks, each in
its own repository from the same seed; the product's own read then counts, per week, the
corrections and the recurrences given and not given (corrections/quality/repeats.py). This proves
the loop closes; bench/loop_graded.py grades four stand-ins over many weeks, in process.

The example's account and the reader's assistant are read from the example itself (the token its
posting step uses; the action's `assistant-login` input, else the configuration's login): when
they differ, no analysis the example posts is ever read, and the loop stops with LoopBroken.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import yaml

from assistant.config import Config, with_values
from assistant.identity import normalize_login
from assistant.markers import payloads
from bench.loop_world import MAINTAINER, NAME, NOT_DUPLICATE, OWNER, Arrival, arrivals, base_world, fix
from bench.stand_ins import answer
from emulator import Server, serve_in_thread
from emulator.store import Store
from emulator.world import parse_world
from tests.kit.runner import Replay, StandIn, runner_environment

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "first-analysis.yml"
ACTIONS_TOKEN = "workflow-token"  # noqa: S105 - the emulator's token for `github.token` (github-actions)
ACTIONS_LOGIN = "github-actions"
# The repository's secrets as the install instructions set them (docs/action.md): the marker key
# that seals the analyses github-actions posts, so the reader tells them from other workflows'.
SECRETS = {"ASSISTANT_MARKER_KEY": "loop-marker-key-" + "0123456789abcdef" * 4}
INSTRUCTIONS = "You triage the issues of octo/loop, a sync tool. Propose labels and duplicates.\n"


class LoopBroken(RuntimeError):
    """The loop cannot close: what the example posts is not what the reader reads."""


@dataclass(frozen=True)
class Accounts:
    """Who the example posts as, and whose analyses the reader looks for."""

    posts_as: str
    reader: str

    def check(self) -> None:
        if normalize_login(self.posts_as) != normalize_login(self.reader):
            raise LoopBroken(
                f"the example posts its analyses as {self.posts_as} (its posting step's token), but the "
                f"reader looks for analyses by {self.reader}: no correction would ever be read"
            )


def _workflow(path: Path) -> dict[str, Any]:
    loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {("on" if key is True else str(key)): value for key, value in loaded.items()}


def job_steps(workflow: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The steps of the example's one job."""
    (job,) = workflow["jobs"].values()
    return list(job["steps"])


def _is_reader(step: Mapping[str, Any]) -> bool:
    return str(step.get("uses", "")).split("@")[0].endswith("/correction-reader")


def example_accounts(steps: Sequence[Mapping[str, Any]], config: Config) -> Accounts:
    """The account of the token the posting step (`gh issue comment`) uses, and the reader's login
    (the action's `assistant-login` input when the example sets it, else the configuration's, else,
    with neither, the account of the reader's own token: github.token's, zero configuration)."""
    posting = next((s for s in steps if "gh issue comment" in str(s.get("run", ""))), None)
    if posting is None:
        raise LoopBroken("no step of the example posts a comment (`gh issue comment`)")
    token = str(posting.get("env", {}).get("GH_TOKEN", ""))
    if token.replace(" ", "") != "${{github.token}}":
        raise LoopBroken(
            f"the posting step's token is {token!r}: the runner knows only github.token's account"
        )
    reader = next((s for s in steps if _is_reader(s)), None)
    if reader is None:
        raise LoopBroken("the example does not run the correction reader")
    named = config.assistant.login if config.assistant_named else ACTIONS_LOGIN
    login = str(reader.get("with", {}).get("assistant-login") or named)
    return Accounts(posts_as=ACTIONS_LOGIN, reader=login)


def _venv(temp: Path) -> None:
    """The folder action.yml runs the reader from, pointing at this interpreter."""
    python = temp / "correction-reader-venv" / "bin" / "python"
    python.parent.mkdir(parents=True, exist_ok=True)
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)


def _gh(folder: Path) -> Path:
    """A `gh` on PATH that is bench/gh_stand_in.py."""
    gh = folder / "gh"
    gh.parent.mkdir(parents=True, exist_ok=True)
    gh.write_text(
        f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m bench.gh_stand_in "$@"\n',
        encoding="utf-8",
    )
    gh.chmod(0o755)
    return folder


@dataclass
class Job:
    """One run of the example's job for one new issue."""

    steps: list[dict[str, Any]]
    server: Server
    model: str  # "blind" or "following"
    temp: Path
    bin: Path

    def _environment(self, event_path: Path) -> dict[str, str]:
        return runner_environment(
            {
                "GITHUB_REPOSITORY": f"{OWNER}/{NAME}",
                "GITHUB_EVENT_NAME": "issues",
                "GITHUB_EVENT_PATH": str(event_path),
                "GITHUB_GRAPHQL_URL": self.server.url,
                "EMULATOR_GRAPHQL_URL": self.server.url,
                "RUNNER_TEMP": str(self.temp),
                "PATH": f"{self.bin}{os.pathsep}{os.environ.get('PATH', '')}",
            }
        )

    def _action(self, environment: dict[str, str], github: dict[str, Any]) -> StandIn:
        """The action: its read step as action.yml declares it (the venv steps are the runner's cache)."""

        def run(with_: Mapping[str, str]) -> dict[str, str]:
            action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
            contexts: dict[str, Any] = {
                "github": {**github, "action_path": str(ROOT)},
                "runner": {"os": "Linux", "temp": str(self.temp)},
                "steps": {},
            }
            declared = action.get("inputs", {})
            contexts["inputs"] = {
                name: with_.get(name, str(spec.get("default", ""))) for name, spec in declared.items()
            }
            contexts["inputs"] = {k: _interpolate(v, contexts) for k, v in contexts["inputs"].items()}
            read = [step for step in action["runs"]["steps"] if step.get("id") == "read"]
            replay = Replay(ROOT, self.temp, self.temp, environment, {}, token=ACTIONS_TOKEN)
            replay.run_steps(read, contexts)
            return {
                name: _interpolate(str(spec["value"]), contexts) for name, spec in action["outputs"].items()
            }

        return run

    def _model(self, with_: Mapping[str, str]) -> dict[str, str]:
        """actions/ai-inference: the stand-in reads the system prompt and the prompt, writes its answer."""
        system = (
            Path(with_["system-prompt-file"]).read_text(encoding="utf-8")
            if with_.get("system-prompt-file")
            else ""
        )
        prompt = Path(with_["prompt-file"]).read_text(encoding="utf-8")
        text = answer(self.model, system + "\n" + prompt)
        response = self.temp / "model-response.json"
        response.write_text(text, encoding="utf-8")
        return {"response": text, "response-file": str(response)}

    def window(self) -> list[int]:
        """The issues the action's read found analysed (its corrections.json)."""
        found = list(self.temp.glob("**/corrections-context/corrections.json"))
        if not found:
            return []
        window: list[int] = json.loads(found[0].read_text(encoding="utf-8"))["window"]
        return window

    def run(self, arrival: Arrival) -> None:
        """The job for one opened issue."""
        self.temp.mkdir(parents=True, exist_ok=True)
        _venv(self.temp)
        event = {
            "action": "opened",
            "issue": {
                "number": arrival.number,
                "title": arrival.title,
                "body": arrival.body,
                "user": {"login": arrival.author},
            },
            "repository": {"full_name": f"{OWNER}/{NAME}", "default_branch": "main"},
        }
        event_path = self.temp / "event.json"
        event_path.write_text(json.dumps(event), encoding="utf-8")
        environment = self._environment(event_path)
        github = {
            "token": ACTIONS_TOKEN,
            "repository": f"{OWNER}/{NAME}",
            "event_name": "issues",
            "event": event,
            "workspace": str(self.temp),
        }
        stand_ins: dict[str, StandIn] = {"actions/ai-inference": self._model}
        for step in self.steps:
            if _is_reader(step):
                stand_ins[str(step["uses"]).split("@")[0]] = self._action(environment, github)
        replay = Replay(
            ROOT, self.temp, self.temp, environment, stand_ins, token=ACTIONS_TOKEN, default_shell="bash"
        )
        replay.run_steps(
            self.steps,
            {
                "github": github,
                "secrets": SECRETS,
                "runner": {"os": "Linux", "temp": str(self.temp)},
                "steps": {},
            },
        )


def _interpolate(text: str, contexts: Mapping[str, Any]) -> str:
    from tests.kit.expressions import interpolate

    return interpolate(text, contexts)


def _graphql(server: Server, token: str, query: str, variables: dict[str, Any]) -> dict[str, Any]:
    import urllib.request

    request = urllib.request.Request(  # noqa: S310 - the emulator on loopback
        server.url,
        data=json.dumps({"query": query, "variables": variables}).encode(),
        headers={"Authorization": f"bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
        body = json.loads(response.read())
    if body.get("errors"):
        raise LoopBroken(
            f"the emulator refused {query.split('(', maxsplit=1)[0]}: {body['errors'][0]['message']}"
        )
    data: dict[str, Any] = body["data"]
    return data


_ISSUE = """query($o: String!, $n: String!, $i: Int!) { repository(owner: $o, name: $n) { id
  issue(number: $i) { id labels(first: 20) { nodes { name id } } comments(last: 20) { nodes { author { login } body } } } } }"""


def open_issue(server: Server, arrival: Arrival) -> None:
    """The reporter opens the issue (createIssue, as the reporter's account)."""
    query = "query($o: String!, $n: String!) { repository(owner: $o, name: $n) { id } }"
    repo = _graphql(server, f"token-{arrival.author}", query, {"o": OWNER, "n": NAME})["repository"]["id"]
    created = _graphql(
        server,
        f"token-{arrival.author}",
        "mutation($r: ID!, $t: String!, $b: String!) { createIssue(input: {repositoryId: $r, title: $t, body: $b}) { issue { number } } }",
        {"r": repo, "t": arrival.title, "b": arrival.body},
    )
    if created["createIssue"]["issue"]["number"] != arrival.number:
        raise LoopBroken(
            f"issue #{arrival.number} was opened as #{created['createIssue']['issue']['number']}"
        )


def maintain(server: Server, arrival: Arrival, posted_by: str) -> None:
    """The maintainer reads the analysis and corrects it, as the maintainer's account."""
    token = f"token-{MAINTAINER}"
    issue = _graphql(server, token, _ISSUE, {"o": OWNER, "n": NAME, "i": arrival.number})["repository"][
        "issue"
    ]
    analysis = next(
        (
            json.loads(found[0])
            for comment in reversed(issue["comments"]["nodes"])
            if normalize_login((comment["author"] or {}).get("login", "")) == normalize_login(posted_by)
            and (found := payloads(comment["body"], "analysis"))
        ),
        None,
    )
    if analysis is None:
        raise LoopBroken(f"#{arrival.number}: the example posted no analysis")
    labels = {node["name"]: node["id"] for node in issue["labels"]["nodes"]}
    done = fix(sorted(labels), analysis.get("duplicate_of"), arrival)
    change = (
        "mutation($s: ID!, $l: [ID!]!) { %s(input: {labelableId: $s, labelIds: $l}) { clientMutationId } }"
    )
    if done.remove:
        _graphql(
            server,
            token,
            change % "removeLabelsFromLabelable",
            {"s": issue["id"], "l": [labels[n] for n in done.remove]},
        )
    if done.add:
        ids = [_label_id(server, token, name) for name in done.add]
        _graphql(server, token, change % "addLabelsToLabelable", {"s": issue["id"], "l": ids})
    if done.object_to_duplicate:
        _graphql(
            server,
            token,
            "mutation($s: ID!, $b: String!) { addComment(input: {subjectId: $s, body: $b}) { clientMutationId } }",
            {"s": issue["id"], "b": f"Not the same problem.\n\n{NOT_DUPLICATE}"},
        )


def _label_id(server: Server, token: str, name: str) -> str:
    found = _graphql(
        server,
        token,
        "query($o: String!, $n: String!, $l: String!) { repository(owner: $o, name: $n) { label(name: $l) { id } } }",
        {"o": OWNER, "n": NAME, "l": name},
    )
    return str(found["repository"]["label"]["id"])


CONFIG_FILE = ".github/assistant.toml"


def loop_world(
    found: Sequence[Arrival], login: str | None = None, *, second_look: bool = True
) -> dict[str, Any]:
    """The repository before the first issue: its people, tokens, labels and files; `login`: the
    `[assistant] login` of its .github/assistant.toml (None: the default), `second_look` its
    `[assistant] second_look` (no file when both are the defaults)."""
    world = base_world([])
    keys = ([f'login = "{login}"'] if login is not None else []) + (
        [] if second_look else ["second_look = false"]
    )
    if keys:
        world["files"]["main"][CONFIG_FILE] = "[assistant]\n" + "".join(f"{key}\n" for key in keys)

    # github.token (ACTIONS_TOKEN) is no token the world names: the emulator's default token, a
    # workflow's GITHUB_TOKEN, which acts as the Bot github-actions, as on GitHub (docs/emulator.md).
    world.pop("viewer", None)
    world["users"] = {"triage-assistant": "Bot"}
    world["tokens"] = {f"token-{MAINTAINER}": MAINTAINER}
    world["tokens"].update({f"token-{a.author}": a.author for a in found})
    world["labels"] = [
        {"name": name}
        for name in ("bug", "performance", "question", "enhancement", "docs", "possible-duplicate")
    ]
    world["files"]["main"][".github/assistant/instructions.md"] = INSTRUCTIONS
    return world


def live(
    model: str,
    found: Sequence[Arrival],
    example: Path,
    folder: Path,
    login: str | None = None,
    *,
    second_look: bool = True,
) -> list[dict[str, int]]:
    """One stand-in's weeks: every arrival through the example and the maintainer; the counts per week.

    `login`: the repository's configured `[assistant] login` (None: the default); `second_look`:
    its `[assistant] second_look`.
    """
    workflow = _workflow(example)
    steps = job_steps(workflow)
    config = Config() if login is None else with_values(Config(), CONFIG_FILE, "assistant", {"login": login})
    accounts = example_accounts(steps, config)
    accounts.check()
    store = Store(parse_world(loop_world(found, login, second_look=second_look)))
    with serve_in_thread(store) as server:
        gh = _gh(folder / "bin")
        for arrival in found:
            store.set_now(arrival.at)
            open_issue(server, arrival)
            store.set_now(arrival.at + timedelta(minutes=3))
            job = Job(steps, server, model, folder / f"job-{arrival.number}", gh)
            job.run(arrival)
            if arrival.number > 1 and not job.window():
                raise LoopBroken(
                    f"#{arrival.number}: the action's read found no earlier analysis: the example posts as "
                    f"{accounts.posts_as}, and the reader the action ran looks for another account"
                )
            store.set_now(arrival.at + timedelta(hours=1))
            maintain(server, arrival, accounts.posts_as)
        store.set_now(None)
        return weekly(server, found, accounts.reader, steps)


def weekly(
    server: Server, found: Sequence[Arrival], reader: str, steps: Sequence[Mapping[str, Any]]
) -> list[dict[str, int]]:
    """The product's own read of the repository: corrections and repeats by week of the analysis."""
    from corrections.quality.repeats import outcome_repeats
    from corrections.read.entry import read
    from corrections.read.options import build_options

    window = int(next(s for s in steps if _is_reader(s)).get("with", {}).get("max-analyzed", 30))
    options = build_options(repo=f"{OWNER}/{NAME}", config_path=None, api_url=server.url)
    config = with_values(options.config, "loop", "context", {"max_analyzed": 100})
    config = with_values(config, "loop", "assistant", {"login": reader})
    options = dataclasses.replace(options, config=config)
    outcome = asyncio.run(read(options, ACTIONS_TOKEN, lambda _line: None))
    if len(outcome.window) < len(found):
        raise LoopBroken(
            f"the reader found {len(outcome.window)} analyses of the {len(found)} the example posted"
        )
    weeks = {a.number: a.week for a in found}
    counts = [dict.fromkeys((*KEYS, "receipts"), 0) for _ in range(max(weeks.values()))]
    for item in outcome_repeats(outcome, outcome.settings, window=window, read_with=100):
        week = counts[weeks[item.number] - 1]
        week["corrections"] += len(item.corrections)
        week["recurrences_given"] += len(item.given)
        week["recurrences_not_given"] += len(item.not_given)
        week["receipts"] += int(item.receipt)
    return counts


def run_both(
    weeks: int,
    per_week: int,
    seed: int,
    example: Path = EXAMPLE,
    login: str | None = None,
    *,
    second_look: bool = True,
) -> dict[str, list[dict[str, int]]]:
    """Both stand-ins over the same arrivals, each in its own repository: the counts per week."""
    found = arrivals(weeks, per_week, seed)
    with tempfile.TemporaryDirectory(prefix="loop-") as folder:
        return {
            model: live(model, found, example, Path(folder) / model, login, second_look=second_look)
            for model in ("following", "blind")
        }


KEYS = ("corrections", "recurrences_given", "recurrences_not_given")


def figures(series: Mapping[str, Sequence[Mapping[str, int]]]) -> dict[str, Any]:
    """Per week and per stand-in, and summed over the weeks after the first."""
    keys = KEYS
    weeks = len(series["blind"])
    rows = [
        {
            "week": index + 1,
            **{model: {k: series[model][index][k] for k in keys} for model in ("following", "blind")},
        }
        for index in range(weeks)
    ]
    after = {
        model: {k: sum(week[k] for week in series[model][1:]) for k in keys}
        for model in ("following", "blind")
    }
    return {"weeks": rows, **after}


def goals(found: Mapping[str, Any]) -> dict[str, bool]:
    """The live loop's goals: the corrections of the first week reach the next analyses, so the
    blind stand-in's mistakes come back given, and the following one's do not come back."""
    return {
        "live: blind recurrences given after the first week": found["blind"]["recurrences_given"] > 0,
        "live: following, no recurrence given": found["following"]["recurrences_given"] == 0,
    }
