#!/bin/sh
# Run once by the postgres image when it creates the primary's cluster: the replica may stream
# from it, with the same password as every other connection.
echo "host replication all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
