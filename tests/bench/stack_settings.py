"""The production settings the benchmark's server runs with, and one route prefix more: the move
loop's skeleton (tests/bench/skeleton.py), so the skeleton's phases run on the very server, and
interleave with, the real loop's. Every other request resolves to the application's own views."""

from config.settings import *  # noqa: F401,F403

ROOT_URLCONF = "tests.bench.skeleton"
