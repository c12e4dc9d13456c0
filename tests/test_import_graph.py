"""No cycle in the import graph: between two apps, nor between two modules of one app.

The layers contract in pyproject.toml (`lint-imports`) says which way each edge between
apps may go; this says what it cannot: that no two apps, and no two modules anywhere,
lean on each other, however long the way round. A cycle is the first thing that makes a
module impossible to read, test or move alone (two modules that import each other are
one module in two files), and an import put inside a function only hides it.

Read from grimp's graph (import-linter's own), so it needs no database.
"""

import functools
import itertools

import grimp

APPS = ("holmes_site", "accounts", "cases", "games", "play", "authoring")
# holmes_site's wiring puts the site together from every app, above them all (the
# layers contract ignores its imports too); the rest of holmes_site is the plumbing
# below every app.
WIRING = {
    "holmes_site.settings",
    "holmes_site.urls",
    "holmes_site.api_urls",
    "holmes_site.asgi",
    "holmes_site.wsgi",
    "holmes_site.warm_up",
}


@functools.cache
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*APPS, cache_dir=None)


def imports() -> dict[str, set[str]]:
    """Each module of the apps, and the modules of the apps it imports directly."""
    modules = graph().modules
    return {
        module: graph().find_modules_directly_imported_by(module) & modules
        for module in sorted(modules)
    }


def app_of(module: str) -> str:
    return "wiring" if module in WIRING else module.split(".")[0]


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan's algorithm, run
    without recursion: an app holds more modules than Python's recursion limit allows for
    a long chain)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_it_finds_a_cycle_where_there_is_one():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(edges) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_two_apps_import_each_other():
    between_apps: dict[str, set[str]] = {app: set() for app in (*APPS, "wiring")}
    seen: dict[tuple[str, str], list[str]] = {}
    for module, imported in imports().items():
        for other in imported:
            edge = (app_of(module), app_of(other))
            if edge[0] != edge[1]:
                between_apps[edge[0]].add(edge[1])
                seen.setdefault(edge, []).append(f"{module} -> {other}")
    found = cycles(between_apps)
    shown = [
        f"{' <-> '.join(apps)}: "
        + "; ".join(
            line
            for pair in itertools.permutations(apps, 2)
            for line in sorted(seen.get(pair, []))[:3]
        )
        for apps in found
    ]
    assert not found, "apps importing each other:\n" + "\n".join(shown)


def test_no_two_modules_import_each_other():
    found = cycles(imports())
    assert not found, "modules importing each other (however long the way round):\n" + "\n".join(
        " <-> ".join(modules) for modules in found
    )


def test_no_app_imports_the_wiring():
    """The wiring may import every app because no app imports it: else the layers
    contract, which ignores the wiring's imports, would miss a way round through it."""
    leaning = [
        f"{module} -> {other}"
        for module, imported in imports().items()
        if module not in WIRING and not module.startswith("holmes_site.")
        for other in imported & WIRING
    ]
    assert not leaning, leaning
