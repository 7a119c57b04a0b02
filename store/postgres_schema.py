"""The tables of a PostgresStore, and the statement that appends a step on a known head."""

from __future__ import annotations

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY, created BIGSERIAL, started TEXT NOT NULL,
    records BIGINT NOT NULL, head BYTEA NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL, seq BIGINT NOT NULL, step BIGINT NOT NULL, type TEXT NOT NULL,
    record BYTEA NOT NULL, hash BYTEA NOT NULL, PRIMARY KEY (game_id, seq));
CREATE TABLE IF NOT EXISTS snapshots (
    game_id TEXT PRIMARY KEY, seq BIGINT NOT NULL, data BYTEA NOT NULL);
CREATE TABLE IF NOT EXISTS secrets (game_id TEXT PRIMARY KEY, seed BYTEA NOT NULL);
CREATE TABLE IF NOT EXISTS syncs (process TEXT PRIMARY KEY, n BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL, role TEXT NOT NULL, token_hash TEXT NOT NULL,
    PRIMARY KEY (game_id, role));
"""


# One step on a known head, in one statement: the games row moves on only from where it was,
# the records are inserted only if it did, and the other processes are told only then. The
# records travel as scalars (their frames and hashes joined, the frames' lengths and the
# types as text) and are cut apart by the server: psycopg dumps list parameters element by
# element in Python, an eighth of a PostgreSQL server's time when they were arrays.
APPEND_KNOWN = """
WITH moved AS (
    UPDATE games SET records = %(records)s, head = %(new_head)s
    WHERE game_id = %(game)s AND records = %(version)s AND head = %(head)s
    RETURNING 1),
cut AS (
    SELECT n::int, len, (sum(len) OVER (ORDER BY n) - len)::int AS start
    FROM unnest(string_to_array(%(lengths)s, ',')::int[]) WITH ORDINALITY AS l(len, n)),
written AS (
    INSERT INTO events (game_id, seq, step, type, record, hash)
    SELECT %(game)s, %(version)s::bigint + n - 1, %(step)s,
           (string_to_array(%(types)s, ','))[n], substring(%(frames)s::bytea FROM start + 1
           FOR len), substring(%(hashes)s::bytea FROM (n - 1) * %(hash_size)s + 1
           FOR %(hash_size)s)
    FROM moved, cut
    RETURNING 1)
SELECT (SELECT count(*) FROM written), pg_notify(%(channel)s, %(note)s) FROM moved
"""
