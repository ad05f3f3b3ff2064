"""The layers of the write path: views and tasks call the services; the services call turns,
notify and scheduling; nothing below the services calls back up. `tasks -> services` is the only
arrow between the worker's side and the rest (imports inside functions count too)."""
import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
LAYERED = {"services", "turns", "notify", "scheduling", "store", "tasks", "clocks", "live", "access"}


def imports_of(module: str) -> set[str]:
    """The games.* modules a module imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse((GAMES / f"{module}.py").read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "games":
                found |= {alias.name for alias in node.names}
            elif node.module.startswith("games."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("games.")}
    return found & LAYERED - {module}


def graph() -> dict[str, set[str]]:
    return {module: imports_of(module) for module in LAYERED}


def test_nothing_below_the_tasks_imports_them():
    assert {module for module, deps in graph().items() if "tasks" in deps} == set()


def test_tasks_call_the_services_and_the_scheduling_only():
    assert imports_of("tasks") <= {"services", "scheduling"}
    assert "services" in imports_of("tasks")


def test_the_write_path_has_no_import_cycle():
    edges = graph()
    seen, path = set(), []

    def visit(module):
        assert module not in path, " -> ".join([*path[path.index(module):], module])
        if module in seen:
            return
        path.append(module)
        for dep in sorted(edges[module]):
            visit(dep)
        path.pop()
        seen.add(module)

    for module in sorted(edges):
        visit(module)


def test_scheduling_sends_tasks_by_name_and_every_name_is_a_task():
    from config.celery import app
    from games import scheduling, tasks  # noqa: F401  (registers the tasks)

    names = {scheduling.SETTLE_DUE, scheduling.DELIVER_EMAIL, scheduling.DELIVER_WEBHOOK}
    assert names <= set(app.tasks)
