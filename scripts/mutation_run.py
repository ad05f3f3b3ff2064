"""Mutation testing of the core, file by file (`make mutate`; docs/mutation.md).

Usage: python scripts/mutation_run.py [games/play/store.py ...]     (default: every file of PLAN, in order)
       python scripts/mutation_run.py --before [games/play/store.py ...]
       (--fresh: start the files named over instead of resuming them)
       python scripts/mutation_run.py games/play/turns.py --mutants 'games.play.turns.xǁTurnǁprepare__mutmut_*' ...
       python scripts/mutation_run.py --recheck games/play/store.py [MUTANT ...]

`--before` runs the same without the tests written to kill mutants (KILLER_TESTS), in
.mutation/<file>_before/, into .mutmut-results-before.txt: the "before" figures of docs/mutation.md.

`--mutants NAME ...` (last on the line) runs only the mutants named, shell-style globs allowed
(mutmut's own `mutmut run NAME...`), in the files named: the others stay "not checked", which
scripts/mutation_summary.py reports apart. Names already judged are tried again.

`--recheck` tries a finished file's surviving and untested mutants (or the ones named) again
against the file's tests as they are now, without a whole new run: for the tests written to kill
survivors. It records each verdict in the file's results like mutmut does. A mutant of a function
no test was seen to reach (code that runs in a server process the tests start, as games/realtime/hub.py's hub)
is tried against the whole selection.

Each file of the core is mutated on its own, against the test files that state its behaviour
(`PLAN`), in a scratch copy of the project (.mutation/<file>/) whose `[tool.mutmut]` names that file
and those tests. Why not one mutmut run over the whole suite: mutmut runs every test that executed
the mutated function, and nearly every test executes `store.append`; a surviving mutant there
would run the whole suite (a quarter of an hour on the shared machine) before being judged.

Files are tried in order of importance, so a run stopped at any point leaves whole files with exact
figures; results stay in .mutation/<file>/mutants/ and a second run resumes where the first stopped.
Each file's results are appended to .mutmut-results.txt (`mutmut results --all true` format) for
scripts/mutation_summary.py.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".mutation"
G = "tests/games/"
# The live machinery (games/realtime), stated by the streams' tests and the hub's.
LIVE_TESTS = [G + "test_streams.py", G + "test_stream_outages.py", G + "test_live_hub.py"]

# The play layer's use cases, and the tests that state their behaviour (one selection for all:
# the tests go through several of them, a move settling deadlines first).
USE_CASES = [
    "games/play/lobby.py",
    "games/play/moves.py",
    "games/play/deadlines.py",
    "games/play/disputes.py",
    "games/play/projection.py",
]
USE_CASE_TESTS = [
    G + "test_moves.py",
    G + "test_lifecycle.py",
    G + "test_judgement_order.py",
    G + "test_timeouts.py",
    G + "test_disputes.py",
    G + "test_store_guards.py",
    G + "test_options.py",
    G + "test_sweeper_batches.py",
    G + "test_rollback_reveals.py",
    G + "test_services_behaviour.py",
]

# The core's files, most important first, each with the tests that state its behaviour.
PLAN: list[tuple[str, list[str]]] = [
    (
        "games/play/store.py",
        [
            G + "test_store.py",
            G + "test_store_guards.py",
            G + "test_concurrency.py",
            G + "test_rollback_reveals.py",
            G + "test_store_behaviour.py",
        ],
    ),
    *((path, USE_CASE_TESTS) for path in USE_CASES),
    (
        "games/play/turns.py",
        [
            G + "test_timeouts.py",
            G + "test_moves.py",
            G + "test_sweeper_batches.py",
            G + "test_rollback_reveals.py",
            "tests/accounts/test_ratings.py",
            G + "test_engine_timers.py",
            G + "test_turns_behaviour.py",
        ],
    ),
    ("games/play/clocks.py", [G + "test_clocks.py", G + "test_clocks_behaviour.py"]),
    ("games/play/access.py", [G + "test_judgement_order.py", G + "test_access_behaviour.py"]),
    (
        "accounts/webhooks.py",
        [
            G + "test_webhooks.py",
            G + "test_webhook_guard.py",
            G + "test_outbox_recovery.py",
            G + "test_webhooks_behaviour.py",
        ],
    ),
    (
        "games/notifications/notify.py",
        [
            G + "test_notifications.py",
            G + "test_digest_slot.py",
            G + "test_outbox_recovery.py",
            G + "test_notify_behaviour.py",
            G + "test_notify_outbox_behaviour.py",
        ],
    ),
    ("games/engines/base.py", ["tests/engines/test_base.py", "tests/engines/test_base_behaviour.py"]),
    ("games/realtime/hub.py", LIVE_TESTS),
    ("games/realtime/waiters.py", LIVE_TESTS),
    ("games/realtime/news.py", LIVE_TESTS),
    ("games/realtime/tokens.py", LIVE_TESTS),
    ("games/realtime/threads.py", LIVE_TESTS),
    ("games/realtime/channels.py", LIVE_TESTS),
    ("games/realtime/memory.py", LIVE_TESTS),
    (
        "games/tasks.py",
        [G + "test_outbox_recovery.py", G + "test_layers.py", G + "test_webhooks.py", G + "test_tasks_behaviour.py"],
    ),
    (
        "games/play/scheduling.py",
        [
            G + "test_sweeper_batches.py",
            G + "test_layers.py",
            G + "test_timeouts.py",
            G + "test_scheduling_behaviour.py",
        ],
    ),
    (
        "games/play/bot_moves.py",
        [
            "tests/bots/test_what_a_bot_is_handed.py",
            "tests/abuse/test_bot_keys.py",
            "tests/abuse/test_bot_fair_share.py",
        ],
    ),
    ("games/notifications/push.py", [G + "test_push_message.py", G + "test_push.py", G + "push_mobile/"]),
    ("games/notifications/mobile.py", [G + "push_mobile/"]),
    # The live path: its tests talk to a real server process (tests/live_server.py), so mutmut sees
    # no test reach these functions and each mutant is tried against the whole selection.
    (
        "games/api/streams/*.py",  # the package: `only_mutate` takes a glob
        [
            G + "test_streams.py",
            G + "test_stream_limits.py",
            G + "test_stream_disconnects.py",
            G + "test_user_stream_games.py",
            G + "test_stream_hidden_information.py",
            "tests/abuse/test_channels.py",
        ],
    ),
]

# The tests written to kill mutants (and the ones written against survivors since): left out by `--before`, which
# measures what the suite caught without them (docs/mutation.md's "before" column).
KILLER_TESTS = [
    G + "test_store_guards.py",
    G + "test_judgement_order.py",
    G + "test_immutability_door.py",
    G + "test_outbox_recovery.py",
    G + "test_worker_outbox.py",
]
KILLER_DESELECT = [G + "test_clocks.py::test_a_vacation_that_ended_before_the_clock_started_costs_nothing"]
KILLER_SUFFIX = "_behaviour.py"  # tests/games/test_<module>_behaviour.py, written against survivors

COPY = ["accounts", "config", "games", "tests", "manage.py", "pyproject.toml"]

# mutmut 3 leaves decorated functions alone (it cannot wrap them in its trampoline), so the Celery
# tasks' bodies would never be mutated. In the scratch copy only, these decorators are applied by
# assignment at the end of the module instead: the same task objects under the same names.
UNDECORATE = {"games/tasks.py": "shared_task"}


def undecorate(path: Path, decorator: str) -> None:
    """`@shared_task(...)` on one line above `def f(` becomes `f = shared_task(...)(f)` at the end."""
    text = path.read_text()
    mark = rf"^@({re.escape(decorator)}\([^\n]*\))\n(?=def (\w+)\()"
    found = re.findall(mark, text, flags=re.M)
    text = re.sub(mark, "", text, flags=re.M)
    path.write_text(text + "\n\n" + "".join(f"{name} = {call}({name})\n" for call, name in found))


def scratch(module: str, tests: list[str], before: bool = False, fresh: bool = False) -> Path:
    """A copy of the project whose [tool.mutmut] mutates `module` against `tests` (kept if it
    exists, so that an interrupted run resumes)."""
    work = WORK / (module.replace("/", "_").replace("*", "all").removesuffix(".py") + ("_before" if before else ""))
    if (work / "mutants").exists() and not fresh:
        return work  # resume: another selection would make mutmut forget every result
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for name in COPY:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, work / name, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
        else:
            shutil.copy2(src, work / name)
    if module in UNDECORATE:
        undecorate(work / module, UNDECORATE[module])
    present = [t for t in tests if (ROOT / t).exists()]
    pyproject = (ROOT / "pyproject.toml").read_text()
    pyproject = re.sub(r"only_mutate = \[[^\]]*\]", f'only_mutate = ["{module}"]', pyproject)
    selection = ["-m", "not bench and not worker", *present]
    if before:
        selection = [t for t in selection if t not in KILLER_TESTS and not t.endswith(KILLER_SUFFIX)]
        selection += [arg for test in KILLER_DESELECT for arg in ("--deselect", test)]
    pyproject = re.sub(
        r"pytest_add_cli_args_test_selection = \[[^\]]*\]",
        f"pytest_add_cli_args_test_selection = {selection!r}".replace("'", '"'),
        pyproject,
    )
    (work / "pyproject.toml").write_text(pyproject)
    return work


def drop_test_database() -> None:
    """A fresh test database for each file: mutants share one (--reuse-db), and rows a killed run
    left behind would fail the next file's tests without any mutant."""
    import psycopg

    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/darkroom_mutation")
    base, _, name = url.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "test_{name}" WITH (FORCE)')


def inner() -> None:
    """Runs inside a scratch copy: `mutmut run` without its second clean run of the selection.

    The stats collection has just run the same tests on the same code and fails the whole
    command if one fails without a mutant; the clean run would only repeat it."""
    import mutmut.__main__ as mutmut_main

    original = mutmut_main.get_mutant_runner

    def runner_without_clean_run(*args, **kwargs):
        runner = original(*args, **kwargs)
        runner.run_clean_tests = lambda tests: 0
        submit = runner.submit

        def fastest_first(mutant_name, tests, *rest):
            # With -x the first failing test ends the run: try the quick ones first (mutmut hands
            # them over in set order).
            duration = mutmut_main.state().duration_by_test
            return submit(mutant_name, sorted(tests, key=lambda t: duration.get(t, 0.0)), *rest)

        runner.submit = fastest_first
        return runner

    mutmut_main.get_mutant_runner = runner_without_clean_run
    sys.argv = ["mutmut", "run", "--max-children", "1", *sys.argv[2:]]
    mutmut_main.cli()


def main(only: list[str], before: bool = False, fresh: bool = False, mutants: list[str] | None = None) -> int:
    mutmut = str(Path(sys.executable).with_name("mutmut"))
    results = ROOT / (".mutmut-results-before.txt" if before else ".mutmut-results.txt")
    failed = []
    for module, tests in PLAN:
        if only and module not in only:
            continue
        work = scratch(module, tests, before, fresh)
        drop_test_database()
        print(f"== {module}: {len([t for t in tests if (ROOT / t).exists()])} test files", flush=True)
        with open(ROOT / f".mutmut-run-{work.name}.log", "w") as log:
            code = subprocess.call(
                [sys.executable, str(Path(__file__).resolve()), "--inner", *(mutants or [])],
                cwd=work,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=os.environ.copy(),
            )
        if code:
            failed.append(module)
            print(f"   mutmut failed ({code}): see .mutmut-run-{work.name}.log", flush=True)
            continue
        listing = subprocess.run(
            [mutmut, "results", "--all", "true"], cwd=work, capture_output=True, text=True, check=True
        ).stdout
        with open(results, "a") as out:
            out.write(listing)
    return 1 if failed else 0


def recheck(module: str, names: list[str]) -> int:
    import json

    tests = next(t for m, t in PLAN if m == module)
    work = WORK / module.replace("/", "_").removesuffix(".py")
    mutants = work / "mutants"
    # Copied over, not replaced: a second recheck of the same file may be running its tests.
    shutil.copytree(
        ROOT / "tests",
        mutants / "tests",
        ignore=shutil.ignore_patterns("__pycache__", "node_modules"),
        dirs_exist_ok=True,
    )
    meta_path = mutants / (module + ".meta")
    meta = json.loads(meta_path.read_text())
    codes = meta["exit_code_by_key"]
    todo = names or [name for name, code in codes.items() if code in (0, 5, 33)]
    drop_test_database()  # the run's own database may hold a killed test's rows
    # The tests written against survivors first: with -x, a kill ends the run there. Then the
    # files added to the plan since the run, then the tests mutmut saw run the mutated function:
    # the rest of the selection cannot reach it.
    ran = set(re.findall(r'"(tests/[^"]+)"', (work / "pyproject.toml").read_text()))
    stats = json.loads((mutants / "mutmut-stats.json").read_text())
    reached, duration = stats["tests_by_mangled_function_name"], stats["duration_by_test"]

    def grown(test_file: str) -> bool:
        """Whether the file has a test the run never saw (written since, against its survivors)."""
        names = re.findall(r"^def (test_\w+)", (ROOT / test_file).read_text(), flags=re.M)
        return any(not any(seen.startswith(f"{test_file}::{name}") for seen in duration) for name in names)

    fresh = [t for t in tests if (ROOT / t).exists() and (t.endswith(KILLER_SUFFIX) or t not in ran or grown(t))]
    fresh.sort(key=lambda t: not t.endswith(KILLER_SUFFIX))
    for name in todo:
        seen = sorted(reached.get(name.rsplit("__mutmut_", 1)[0], []), key=lambda t: duration.get(t, 0.0))
        # A function mutmut saw no test reach may run in a server process the tests start (the live
        # hub): then the whole selection, the fresh files first.
        rest = seen if seen else [t for t in tests if (ROOT / t).exists()]
        selection = fresh + [t for t in rest if t.split("::")[0] not in fresh]
        env = {**os.environ, "MUTANT_UNDER_TEST": name, "PY_IGNORE_IMPORTMISMATCH": "1"}
        code = subprocess.call(
            [
                sys.executable,
                "-m",
                "pytest",
                "-x",
                "-q",
                "-p",
                "no:cacheprovider",
                "--reuse-db",
                "-m",
                "not bench and not worker",
                *selection,
            ],
            cwd=mutants,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # Read again before writing: another recheck of the same file may have recorded verdicts.
        meta = json.loads(meta_path.read_text())
        meta["exit_code_by_key"][name] = code
        print(f"{name}: {'killed' if code == 1 else 'survived' if code == 0 else code}", flush=True)
        meta_path.write_text(json.dumps(meta, indent=4))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--inner"]:
        inner()
    elif sys.argv[1:2] == ["--recheck"]:
        sys.exit(recheck(sys.argv[2], sys.argv[3:]))
    else:
        args, mutants = sys.argv[1:], []
        if "--mutants" in args:
            args, mutants = args[: args.index("--mutants")], args[args.index("--mutants") + 1 :]
        sys.exit(main([a for a in args if not a.startswith("--")], "--before" in args, "--fresh" in args, mutants))
