"""History cannot be rewritten: PostgreSQL itself refuses UPDATE, DELETE and TRUNCATE on events.

Row triggers cover UPDATE and DELETE; TRUNCATE fires no row trigger, so it has its own statement
trigger. The only way around them is deliberate: in a database whose name starts with `test_`
(the test suite's), a transaction that sets `darkroom.allow_truncate = 'on'` may TRUNCATE, which is
how the test runner resets tables between tests (tests/settings.py sets it on every connection). Production databases have
no such door.
"""

from django.db import migrations

FORWARD = r"""
CREATE FUNCTION darkroom_events_are_immutable() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'TRUNCATE'
       AND current_database() LIKE 'test\_%'
       AND current_setting('darkroom.allow_truncate', true) = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'games_event is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_event_no_update_delete
    BEFORE UPDATE OR DELETE ON games_event
    FOR EACH ROW EXECUTE FUNCTION darkroom_events_are_immutable();

CREATE TRIGGER games_event_no_truncate
    BEFORE TRUNCATE ON games_event
    FOR EACH STATEMENT EXECUTE FUNCTION darkroom_events_are_immutable();

-- Fire even under session_replication_role = replica (the usual way to skip triggers).
ALTER TABLE games_event ENABLE ALWAYS TRIGGER games_event_no_update_delete;
ALTER TABLE games_event ENABLE ALWAYS TRIGGER games_event_no_truncate;
"""

BACKWARD = r"""
DROP TRIGGER IF EXISTS games_event_no_truncate ON games_event;
DROP TRIGGER IF EXISTS games_event_no_update_delete ON games_event;
DROP FUNCTION IF EXISTS darkroom_events_are_immutable();
"""


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
