"""The layers of the write path: views and tasks call the services; the services call turns,
notify and scheduling; nothing below the services calls back up. `tasks -> services` is the only
arrow between the worker's side and the rest (imports inside functions count too)."""
import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
PATHS = {"services": "play/services", "turns": "play/turns", "notify": "notifications/notify",
         "scheduling": "play/scheduling", "store": "play/store", "tasks": "tasks", "clocks": "play/clocks",
         "live": "realtime/live", "access": "play/access"}
LAYERED = set(PATHS)


def imports_of(module: str) -> set[str]:
    """The games.* modules a module imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse((GAMES / f"{PATHS[module]}.py").read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("games"):
            found |= {alias.name for alias in node.names} | set(node.module.split("."))
        elif isinstance(node, ast.Import):
            found |= {part for a in node.names if a.name.startswith("games.") for part in a.name.split(".")}
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
    from games import tasks  # noqa: F401  (registers the tasks)
    from games.play import scheduling

    names = {scheduling.SETTLE_DUE, scheduling.DELIVER_EMAIL, scheduling.DELIVER_WEBHOOK}
    assert names <= set(app.tasks)
