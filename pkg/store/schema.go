package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are the schema changes, in order; migrations[i] takes the
// database from version i to i+1 (PRAGMA user_version). Never edit one that
// has shipped: append a new one.
//
// Times are Unix nanoseconds (UTC). JSON documents are stored as text.
var migrations = []string{
	// 1: the first schema.
	`
CREATE TABLE sessions (
	id           TEXT PRIMARY KEY,
	title        TEXT NOT NULL,
	created_at   INTEGER NOT NULL,
	last_used_at INTEGER NOT NULL,
	last_seq     INTEGER NOT NULL DEFAULT 0, -- the seq of the newest message
	messages     INTEGER NOT NULL DEFAULT 0  -- how many messages are stored
);
CREATE INDEX sessions_by_use ON sessions (last_used_at DESC, id);

-- seq is per session, 1, 2, 3… without gaps. run_id is kept as plain text:
-- pruning a run never removes the conversation it added to.
CREATE TABLE messages (
	session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	seq        INTEGER NOT NULL,
	run_id     TEXT NOT NULL DEFAULT '',
	round      INTEGER NOT NULL DEFAULT 0,
	role       TEXT NOT NULL,
	data       TEXT NOT NULL, -- providers.Message as JSON
	created_at INTEGER NOT NULL,
	UNIQUE (session_id, seq)
);

CREATE TABLE runs (
	id               TEXT PRIMARY KEY,
	session_id       TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	status           TEXT NOT NULL, -- running, interrupted, or run.completed's status
	started_at       INTEGER NOT NULL,
	ended_at         INTEGER,
	exit_code        INTEGER,
	profile          TEXT NOT NULL DEFAULT '',
	provider         TEXT NOT NULL DEFAULT '',
	model            TEXT NOT NULL DEFAULT '',
	summary          TEXT,          -- run.completed's payload
	pid              INTEGER NOT NULL DEFAULT 0,
	events           INTEGER NOT NULL DEFAULT 0, -- journaled events still stored
	cancel_requested INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX runs_by_start ON runs (started_at DESC, id DESC);
CREATE INDEX runs_by_session ON runs (session_id, started_at DESC, id DESC);
CREATE INDEX runs_running ON runs (session_id) WHERE status = 'running';

-- line is the event's NDJSON line exactly as streamed, without its "\n".
CREATE TABLE events (
	run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	seq    INTEGER NOT NULL,
	type   TEXT NOT NULL,
	line   BLOB NOT NULL,
	UNIQUE (run_id, seq)
);

CREATE TABLE compactions (
	id            INTEGER PRIMARY KEY AUTOINCREMENT,
	session_id    TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	kept_from_seq INTEGER NOT NULL,
	summary       TEXT NOT NULL,
	tokens_before INTEGER NOT NULL,
	tokens_after  INTEGER NOT NULL,
	created_at    INTEGER NOT NULL
);
CREATE INDEX compactions_by_session ON compactions (session_id, id);

CREATE TABLE audit (
	id   INTEGER PRIMARY KEY AUTOINCREMENT,
	kind TEXT NOT NULL,
	time INTEGER NOT NULL,
	data TEXT NOT NULL
);
CREATE INDEX audit_by_kind ON audit (kind, id);
CREATE INDEX audit_by_time ON audit (time);

-- session_id is '' for the global scope; chat-scope rows are removed with
-- their session by DeleteSession.
CREATE TABLE variables (
	scope      TEXT NOT NULL,
	session_id TEXT NOT NULL,
	name       TEXT NOT NULL,
	value      TEXT NOT NULL,
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (scope, session_id, name)
);

CREATE TABLE todos (
	session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
	data       TEXT NOT NULL, -- []Todo as JSON
	updated_at INTEGER NOT NULL
);

-- Small documents of process-wide state (memory).
CREATE TABLE kv (
	key        TEXT PRIMARY KEY,
	value      TEXT NOT NULL,
	updated_at INTEGER NOT NULL
);
`,
	// 2: sessions that remember (SPEC §17). A session keeps how it was run
	// (config, JSON: session.Config); a run keeps the run it resumed and the
	// point a later resume starts from (resume_point, JSON). Retention finds
	// old journals through runs_with_events. Fetch audit rows gave their
	// duration in nanoseconds ("duration"); every record now says
	// "duration_ms".
	`
ALTER TABLE sessions ADD COLUMN config TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN resumed_from TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN resume_point TEXT NOT NULL DEFAULT '';
CREATE INDEX runs_resumed ON runs (resumed_from) WHERE resumed_from <> '';
CREATE INDEX runs_with_events ON runs (started_at) WHERE events > 0;
UPDATE audit SET data = json_set(json_remove(data, '$.duration'), '$.duration_ms',
		CAST(json_extract(data, '$.duration') / 1000000 AS INTEGER))
	WHERE kind = 'fetch' AND json_type(data, '$.duration') IN ('integer', 'real');
`,
	// 3: artifacts: see artifacts.go.
	artifactsMigration,
	// 4: memory items (SPEC §16). Each note becomes a row with an id; pos
	// keeps the order seed 000's tools show (a list rewritten by
	// tavo_memory_update is renumbered, ids kept for unchanged notes).
	// memory_fts indexes the notes for ranked full-text search; triggers
	// keep it in step. The notes in kv's "memory" document move here in
	// their order; the document keeps only "enabled".
	`
CREATE TABLE memory_items (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	pos        INTEGER NOT NULL,
	content    TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);
CREATE INDEX memory_items_by_pos ON memory_items (pos, id);
CREATE VIRTUAL TABLE memory_fts USING fts5(content, content = 'memory_items', content_rowid = 'id',
	tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER memory_items_insert AFTER INSERT ON memory_items BEGIN
	INSERT INTO memory_fts (rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER memory_items_delete AFTER DELETE ON memory_items BEGIN
	INSERT INTO memory_fts (memory_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER memory_items_update AFTER UPDATE OF content ON memory_items BEGIN
	INSERT INTO memory_fts (memory_fts, rowid, content) VALUES ('delete', old.id, old.content);
	INSERT INTO memory_fts (rowid, content) VALUES (new.id, new.content);
END;
INSERT INTO memory_items (pos, content, created_at, updated_at)
	SELECT CAST(j.key AS INTEGER) + 1, j.value, kv.updated_at, kv.updated_at
	FROM kv, json_each(kv.value, '$.memories') AS j
	WHERE kv.key = 'memory' AND j.type = 'text'
	ORDER BY CAST(j.key AS INTEGER);
UPDATE kv SET value = json_remove(value, '$.memories') WHERE key = 'memory';
`,
	// 5: images a session retains (SPEC §11): see retained.go.
	retainedMigration,
	// 6: sub-agent session trees (SPEC §13): see tree.go.
	treeMigration,
	// 6: goals, loops and wake-ups (SPEC §14): see goals.go.
	scheduleMigration,
}

// SchemaVersion is the schema version this build writes.
func SchemaVersion() int { return len(migrations) }

// migrate brings the schema to SchemaVersion, refusing a database written
// by a newer tavo. Concurrent Opens are safe: the version is re-read inside
// the write transaction, so only the first one applies a migration.
func (s *Store) migrate(ctx context.Context) error {
	var v int
	err := s.read(ctx, "reading the schema version", func() error {
		return s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	})
	if err != nil {
		return err
	}
	if v > len(migrations) {
		return s.newerSchema(v)
	}
	if v == len(migrations) {
		return nil
	}
	return s.write(ctx, "migrating the schema", func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
			return err
		}
		if v > len(migrations) {
			return s.newerSchema(v)
		}
		for i := v; i < len(migrations); i++ {
			if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
				return fmt.Errorf("schema version %d: %w", i+1, err)
			}
		}
		// PRAGMA takes no parameters; the value is our own integer.
		_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(migrations)))
		return err
	})
}

func (s *Store) newerSchema(v int) error {
	return fmt.Errorf("store: %s has schema version %d, newer than this tavo knows (%d): upgrade tavo or use another data dir", s.path, v, len(migrations))
}
