"""The emulator's node registry: every node type with an id has one class, every id resolves.

Its imports (none of the product, no cycle) and module sizes are checked with the rest of the
product in tests/test_layout.py.
"""

from __future__ import annotations

from emulator.ids import PREFIXES
from emulator.resolvers.query import QueryRoot
from emulator.resolvers.registry import NODES
from emulator.store import store_from
from emulator.worlds import demo_world_path


def test_every_node_type_with_an_id_has_one_registered_class() -> None:
    # Blob and Tree ids are made but not resolved by node(id) (docs/emulator.md).
    assert QueryRoot is not None
    assert NODES.typenames() == set(PREFIXES) - {"Blob", "Tree"}


def test_every_id_the_demo_world_hands_out_resolves_to_its_object() -> None:
    store = store_from(demo_world_path())
    ids: list[str] = []
    for number, issue in store.items.items():
        node = NODES.find(store, "PullRequest" if store.is_pull(number) else "Issue", str(number))
        ids.append(node.id)
        ids += [item.id for item in node.reactions(None, {"first": 100}).nodes]
        ids += [getattr(item, "id", "") for item in node.timelineItems(None, {"first": 100}).nodes]
        ids += [NODES.find(store, "User", issue.author).id] if issue.author else []
    ids += [NODES.find(store, "Label", name).id for name in store.label_names()]
    ids += [NODES.find(store, "Ref", branch).id for branch in store.branches]
    ids += [NODES.find(store, "Repository", store.name_with_owner).id]
    assert len(ids) > 100
    for value in ids:
        found = NODES.find_id(store, value)
        assert found is not None and found.id == value, value


def test_an_id_of_one_event_type_does_not_name_an_event_of_another() -> None:
    store = store_from(demo_world_path())
    number, index = next(
        (n, i)
        for n, issue in store.items.items()
        for i, item in enumerate(issue.timeline)
        if item.type == "labeled"
    )
    assert NODES.find(store, "LabeledEvent", f"{number}:{index}") is not None
    assert NODES.find(store, "ClosedEvent", f"{number}:{index}") is None
