"""fastdou's modules import one way: no cycle among them, imports inside functions included
(those under ``if TYPE_CHECKING:`` aside, which never run)."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = {"fastdou": ROOT / "fastdou", "fastdou.kernels": ROOT / "kernels"}


def modules() -> dict:
    """Every module's dotted name and its file (``kernels/`` is installed as fastdou.kernels)."""
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((package, *parts))] = path
    return found


def _type_checking(node) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports(name: str, path: pathlib.Path, known: dict) -> set:
    """The fastdou modules ``name`` imports anywhere in its file (a package's submodule
    named in ``from package import sub`` counts as that submodule)."""
    is_package = path.name == "__init__.py"
    found = set()

    def visit(node):
        for child in ast.iter_child_nodes(node):
            if _type_checking(child):
                continue
            if isinstance(child, ast.Import):
                found.update(a.name for a in child.names if a.name in known)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = name.split(".")[:len(name.split(".")) - child.level + is_package]
                    source = ".".join(base + ([child.module] if child.module else []))
                else:
                    source = child.module
                for alias in child.names:
                    full = f"{source}.{alias.name}"
                    if full in known:
                        found.add(full)
                    elif source in known:
                        found.add(source)
            visit(child)

    visit(ast.parse(path.read_text(), str(path)))
    found.discard(name)
    return found


def cycles(graph: dict) -> list:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
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


def test_the_scan_sees_the_layers():
    known = modules()
    assert {"fastdou.cards", "fastdou.rules", "fastdou.kernels.jit"} <= set(known)
    assert "fastdou.kernels.layout" in imports("fastdou.cards", known["fastdou.cards"], known)
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle():
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    found = cycles(graph)
    described = ["; ".join(f"{m} -> {sorted(graph[m] & set(c))}" for m in c) for c in found]
    assert found == [], "import cycles:\n" + "\n".join(described)
