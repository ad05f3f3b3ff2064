#!/bin/sh
# Patroni runs this once, on the node that creates the cluster, with a connection URL to it.
exec psql -v ON_ERROR_STOP=1 -d "$1" -c "CREATE DATABASE darkroom"
