"""The modules that keep the short commands short: the one list of them, with why each is there.

The short commands are those that send no request and validate no model: `--help`, `--version`,
`corrections marker`, a usage or configuration error; a read counts too until its
first request has left. pydantic, jinja2 and the network stack (gql, graphql-core, aiohttp) are
most of a command's start-up time, so none of them may load on those paths, but for aiohttp on
the read's way to its first request (SENDS_FIRST). tests/test_layout.py
checks this list from the source (an import inside a function counts), the start-up tests
(tests/corrections/commands/test_lazy_start.py, tests/learnings/commands/test_learnings_lazy_start.py,
tests/corrections/commands/test_first_request.py) check the commands in a fresh interpreter, and
CONTRIBUTING.md repeats the list word for word (tests/test_layout.py checks that too).

An import inside a function exists only for start-up: it is allowed only in a module of this
list, and the module's line says what it puts off (the tokenizer's ranks, the package metadata, a
standard-library module a short command does not need, or one of HEAVY).
"""

from __future__ import annotations

# What a short command must not load.
HEAVY = ("pydantic", "jinja2", "gql", "graphql", "aiohttp")

# Modules that import none of HEAVY, not even inside a function or through another module.
LIGHT: dict[str, str] = {
    "assistant.config": "a configuration error answers at once; TOML is parsed only when there is a file, the markers' module only when an identity is built",
    "assistant.config_keys": "the rules of the keys, in plain Python; pydantic-core only to word a refusal",
    "assistant.files": "`--help` loads it; tempfile and secrets only when a file is written",
    "assistant.identity": "who the assistant is, for the configuration and the marker",
    "assistant.markers": "the one marker parser and the marker line, for `corrections marker`",
    "assistant.suggest": "the parser of every command; difflib only for a mistyped name",
    "assistant.untrusted": "cleaning text for `learnings list` and `show`",
    "assistant.version": "`--version`; the package metadata only when asked",
    "commandline.arguments": "the options both commands share",
    "commandline.checkout": "the checkout's top folder; git only when it is asked",
    "commandline.notices": "warnings and errors, in a workflow or at a terminal",
    "commandline.process": "a console script's process: the collector paused while modules load, leaving once a command returned",
    "commandline.event_loop": "running a command's coroutine; asyncio only when one runs",
    "commandline.repository": "`--repo` checked before any request",
    "commandline.token": "the token; `gh` only when no variable holds one",
    "commandline.usage": "the one usage error and the exit statuses",
    "commandline.workflow": "the step's outputs; secrets only for a delimiter",
    "corrections.commands.refusal": "the one-line refusal of `prompt`, `answer` and `marker`",
    "corrections.read.analysed": "`--issue`, known before the first request",
    "corrections.read.options": "a read's options, built before the first request",
    "corrections.render.prompt_budget": "the prompt's budget, shown by `--help`",
    "corrections.render.tokens": "the tokenizer's ranks (most of a second) load on the first count",
    "corrections.rules.analysis_marker": "the marker's one schema, for `corrections marker`",
    "learnings.prompt.budget": "the learnings block's budget, shown by `learnings render --help`",
    "queries.defaults": "GitHub's endpoint and the time budget, shown by `--help`",
    "queries.document_text": "the first request's document as text, before graphql-core loads",
}

# Modules of those paths that import one of HEAVY only inside the function that needs it: what
# they load at the top is as light as LIGHT.
DEFERS: dict[str, str] = {
    "corrections.commands.cli": "each subcommand module is light at import; what a command runs loads when it is chosen",
    "corrections.commands.read": "`corrections read`: a configuration error answers before the reader loads",
    "corrections.commands.read_context": "the first request leaves before pydantic, the rules and the renderers load",
    "corrections.commands.demo": "`corrections demo`: the emulator and the reader load when it runs",
    "corrections.commands.action": "`corrections action`: the step loads when it runs",
    "corrections.commands.quality": "`corrections quality`: the reader and the numbers load when it runs",
    "corrections.commands.explain": "`corrections explain`: the reader and the explanation load when it runs",
    "corrections.commands.backtest": "`corrections backtest`: the replay loads when it runs",
    "corrections.commands.init": "`corrections init`: what reads the repository loads when it runs",
    "corrections.commands.sync": "`corrections sync`: the read and the sync load when it runs",
    "corrections.commands.prompt": "`corrections prompt`: the prompt's renderer loads when it runs",
    "corrections.commands.answer": "`corrections answer`: the answer's decoder and the second look load when it runs",
    "corrections.commands.marker": "`corrections marker`: the marker's schema when it runs, the context folder's model only with `--context`",
    "corrections.read.entry": "the read's one entry: the HTTP client loads when it runs, the rules while its first request is out",
    "corrections.commands.action_step": "the step's first request leaves before its report is loaded",
    "learnings.cli": "the chosen subcommand's module alone is imported (none for the top --help, which lists the summary lines of `learnings/commands/__init__.py`); what it runs loads in its run",
    "learnings.commands.local": "a usage error answers before the learnings' models load",
    "learnings.commands.remote": "the repository, the token and the configuration are checked before what talks to GitHub loads",
    "learnings.commands.list_": "`learnings list`: the learnings' models load once the file is read",
    "learnings.commands.show": "`learnings show`: the learnings' models load once the file is read",
    "learnings.commands.add": "`learnings add`: a bad glob or configuration answers before the models load",
    "learnings.commands.edit": "`learnings edit`: a bad glob or configuration answers before the models load",
    "learnings.commands.remove": "`learnings remove`: the learnings' models load once the file is read",
    "learnings.commands.export": "`learnings export`: the learnings' models load once the file is read",
    "learnings.commands.import_": "`learnings import`: the learnings' models load once the files are read",
    "learnings.commands.render": "`learnings render`: the renderer loads once the file is read",
    "learnings.commands.sync": "`learnings sync`: the sync loads once the token is found",
    "learnings.commands.propose": "`learnings propose`: the network stack loads once the token is found",
    "learnings.commands.memory": "`learnings memory`: the network stack loads once the token is found",
    "learnings.store.file": "a missing file answers before the learnings' models load",
}

# Modules of the read's way to its first request that import the HTTP client (aiohttp) at the top
# and the rest of the network stack (gql, graphql-core) only inside the function that needs it.
SENDS_FIRST: dict[str, str] = {
    "queries.client": "the first request leaves on aiohttp alone; gql and graphql-core load for the first parsed document",
}
