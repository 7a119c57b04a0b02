"""The tables of a SQLite store (``store.sqlite``): games with their record count and head,
their records by (game, seq), snapshots and seats."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    created TEXT NOT NULL,
    records INTEGER,
    head BLOB
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    step INTEGER NOT NULL,
    type TEXT NOT NULL,
    record BLOB NOT NULL,
    hash BLOB NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    game_id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    data BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL,
    role TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (game_id, role)
);
"""
