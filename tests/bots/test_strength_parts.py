"""`make bots-strength` in parts (docs/bots.md, "Strength and cost"): PART=k/n plays every n-th
game from k, PAIRING= one pairing, OUT= the figures as JSON, and `merge` pools the parts into
the report one run would have printed."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bots_strength.py"


def load_script():
    spec = importlib.util.spec_from_file_location("bots_strength", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


strength = load_script()


def part(pairings, games=4, budget=0.5, cpu=None, peaks=None, replayed=None):
    return {
        "games": games,
        "budget": budget,
        "pairings": pairings,
        "cpu": cpu or {},
        "peaks": peaks or {},
        "replayed": replayed or {},
    }


def test_the_parts_of_a_run_play_every_game_once():
    assert strength.part_games(7, 1, 3) == [1, 4]
    parts = [strength.part_games(200, k, 8) for k in range(8)]
    assert sorted(i for games in parts for i in games) == list(range(200))
    assert strength.part_games(5, 0, 1) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("text", ["4/4", "-1/2", "1", "a/b", "1/0"])
def test_a_part_outside_its_run_is_refused(text):
    with pytest.raises(SystemExit, match="PART"):
        strength.parse_part(text)


def test_an_unknown_pairing_is_refused_with_the_names_there_are():
    with pytest.raises(SystemExit, match="photograph-3v2"):
        strength.chosen(set(), {"photograph-4v1"})
    assert strength.chosen({"pickpic"}, set()) == ["pickpic-3", "pickpic-1", "pickpic-table"]
    assert strength.chosen({"pickpic"}, {"coop-1"}) == []


def test_merged_parts_report_wilson_intervals_over_every_game():
    merged = strength.merge(
        [
            part(
                {"photograph-3v1": {"0": 1.0, "2": 0.5}, "coop-3": {"0": 1.0, "2": 0.0}},
                cpu={"photograph": [0.1, 0.3]},
                peaks={"photograph": 2**20},
                replayed={"photograph": 1},
            ),
            part(
                {"photograph-3v1": {"1": 1.0, "3": 0.0}, "coop-3": {"1": 1.0, "3": 1.0}},
                cpu={"photograph": [0.2]},
                peaks={"photograph": 3 * 2**20},
                replayed={"photograph": 2},
            ),
        ]
    )
    # Wilson's 95% interval for 2.5 of 4, and for 3 of 4.
    assert strength.report(merged) == [
        "photograph  L3 vs L1: L3 wins  62.5% (95% CI 21.9%-90.8%, 4 games)",
        "photoshoot  coop team of L3: 25+ points in  75.0% (95% CI 30.1%-95.4%, 4 games)",
        "photograph  level-3 move CPU: p50 200 ms, p99 300 ms, max 300 ms over 3 moves",
        "photograph  level-3 move peak memory allocated: 3.0 MiB (most of 3 moves replayed under tracemalloc)",
    ]


def test_a_report_short_of_parts_says_how_many_games_it_counts():
    (line,) = strength.report(strength.merge([part({"pickpic-3": {"0": 1.0, "3": 2.0}})]))
    assert line == "pickpic     L3 among two L2: mean place 1.50 (95% CI 0.52-2.48, 2 of 4 games)"


@pytest.mark.parametrize(
    "other, refused",
    [
        (part({"pickpic-3": {"1": 1.0, "2": 3.0}}), "pickpic-3 game 2 is in two parts"),
        (part({"pickpic-3": {"1": 1.0}}, budget=1.0), "budget"),
        (part({"pickpic-3": {"1": 1.0}}, games=8), "games"),
    ],
)
def test_parts_that_are_not_one_run_are_not_merged(other, refused):
    with pytest.raises(SystemExit, match=refused):
        strength.merge([part({"pickpic-3": {"0": 1.0, "2": 2.0}}), other])


def run(tmp_path, *args, **env):
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "GAMES": "6", "PAIRING": "pickpic-1,coop-1", **env},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_a_run_split_in_parts_and_merged_reports_what_the_whole_run_does(tmp_path):
    # Neither pairing seats a level 3, whose search stops on CPU time: the games replay exactly.
    whole = run(tmp_path, OUT="whole.json")
    first = run(tmp_path, PART="0/2", OUT="a.json")
    run(tmp_path, PART="1/2", OUT="b.json")
    assert "part 0/2 (3 of them)" in first[0] and first[1].endswith("3 of 6 games)")
    merged = run(tmp_path, "merge", "a.json", "b.json")
    assert merged[1:] == whole[1:] and len(whole) == 3
    pooled = strength.merge([json.loads((tmp_path / name).read_text()) for name in ("a.json", "b.json")])
    assert pooled["pairings"] == json.loads((tmp_path / "whole.json").read_text())["pairings"]


def test_a_run_stopped_midway_plays_only_the_games_its_file_lacks_when_started_again(tmp_path):
    whole = run(tmp_path, OUT="whole.json")
    saved = json.loads((tmp_path / "whole.json").read_text())
    # As a run killed after its first pairing's first four games would have left the file, with
    # one of those games marked so that playing it again would show.
    stopped = {
        **saved,
        "pairings": {"pickpic-1": {i: saved["pairings"]["pickpic-1"][i] for i in "0123"}},
        "cpu": {},
        "peaks": {},
        "replayed": {},
    }
    stopped["pairings"]["pickpic-1"]["0"] = 9.0
    (tmp_path / "again.json").write_text(json.dumps(stopped))
    run(tmp_path, OUT="again.json")
    again = json.loads((tmp_path / "again.json").read_text())
    assert again["pairings"]["pickpic-1"]["0"] == 9.0  # kept, not played again
    assert {i: v for i, v in again["pairings"]["pickpic-1"].items() if i != "0"} == {
        i: v for i, v in saved["pairings"]["pickpic-1"].items() if i != "0"
    }
    assert again["pairings"]["coop-1"] == saved["pairings"]["coop-1"] and len(whole) == 3


def test_a_file_of_another_run_is_not_resumed(tmp_path):
    run(tmp_path, OUT="mine.json")
    done = subprocess.run(
        [sys.executable, str(SCRIPT)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "GAMES": "6", "PAIRING": "pickpic-1", "BUDGET": "0.5", "OUT": "mine.json"},
        timeout=120,
        check=False,
    )
    assert done.returncode != 0 and "another run" in done.stderr


def test_the_three_levels_at_one_table_sit_in_each_of_the_six_seatings_in_turn():
    assert sorted(strength.SEATINGS) == sorted(set(strength.SEATINGS)) and len(strength.SEATINGS) == 6
    merged = strength.merge([part({"pickpic-table": {"0": [1.0, 3.0], "1": [2.0, 3.0], "2": [1.0, 2.0]}}, games=3)])
    # Mean places 1.33 and 2.67; the differences 2, 1, 1: a mean of 1.33, sd 0.58.
    assert strength.report(merged) == [
        "pickpic     L3, L2, L1 at one table: mean place L3 1.33 (95% CI 0.68-1.99), L1 2.67 (2.01-3.32); "
        "L3 better by 1.33 (95% CI 0.68-1.99, 3 games)"
    ]


def test_a_part_saved_midway_merges_and_its_report_counts_the_games_it_has():
    midway = {
        "games": 4,
        "budget": 0.5,
        "part": "0/2",
        "pairings": {"pickpic-3": {"0": 2.0}},
        "cpu": {"pickpic": [0.4]},
    }  # no memory figures until its run ends
    (line, cpu) = strength.report(strength.merge([midway, part({"pickpic-3": {"1": 1.0}})]))
    assert line.endswith("2 of 4 games)") and cpu.endswith("over 1 moves")
