"""schemathesis on the half of the document tests/api/test_fuzz.py leaves out: accounts, players,
notifications, push, invitations and the rest. Same checks, same configuration."""

import pytest

from tests.api.test_fuzz import OTHERS, fuzz


@pytest.mark.long
@pytest.mark.timeout(3600)
def test_schemathesis_finds_no_server_error_and_no_schema_violation_off_the_games_routes(
    live_server, transactional_db, tmp_path
):
    fuzz(live_server, tmp_path, ["--include-path-regex", OTHERS], operations=30)
