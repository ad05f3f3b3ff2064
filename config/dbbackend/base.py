"""PostgreSQL, as Django ships it, except that a flush (the test runner resetting tables between
transactional tests) opens the events table's test-only TRUNCATE door first. See games migration
0002: the door exists only in databases named test_*."""
from django.db.backends.postgresql import base, operations


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        statements = super().sql_flush(style, tables, reset_sequences=reset_sequences,
                                       allow_cascade=allow_cascade)
        return ["SET LOCAL darkroom.allow_truncate = 'on'", *statements] if statements else statements


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
