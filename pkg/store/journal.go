package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Journal queues one event line for the run's journal; a goroutine writes
// queued lines in batches, so the call returns at once (it only waits when
// journalMaxPending lines are queued and the database is still taking
// them; while writes fail, lines beyond that are dropped). line is the NDJSON line exactly as streamed; a trailing "\n" is
// not stored (Events returns lines without it). The bytes are copied.
// Write errors do not reach the caller here: Err reports them and Finish
// returns them.
func (l *Lease) Journal(seq int64, eventType string, line []byte) {
	line = bytes.TrimSuffix(line, []byte("\n"))
	e := journalLine{seq: seq, typ: eventType, line: bytes.Clone(line)}
	l.mu.Lock()
	for len(l.pending) >= l.s.journalMax && l.writeErr == nil && !l.finished {
		l.kickFlush()
		l.drained.Wait()
	}
	if l.finished {
		l.mu.Unlock()
		return
	}
	if len(l.pending) >= l.s.journalMax {
		l.lost++
		l.mu.Unlock()
		return
	}
	l.pending = append(l.pending, e)
	if len(l.pending) >= journalBatch {
		l.kickFlush()
	}
	l.mu.Unlock()
}

// Audit queues an audit record of a kind ("tool", …) to be written with
// the run's next journal batch, at the latest by Finish: a tool call costs
// no write of its own. data must be a JSON object; at zero means now.
// After Finish it does nothing.
func (l *Lease) Audit(kind string, at time.Time, data json.RawMessage) error {
	if err := checkAudit(kind, data); err != nil {
		return err
	}
	if at.IsZero() {
		at = l.s.now()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.finished {
		return nil
	}
	if len(l.audits) >= l.s.journalMax {
		l.lostAudits++
		return nil
	}
	l.audits = append(l.audits, auditLine{kind: kind, at: toNS(at), data: string(data)})
	return nil
}

// kickFlush asks the writer goroutine for a flush now.
func (l *Lease) kickFlush() {
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// Err reports journal trouble so far: the last write error while lines
// are still waiting to be written, or how many lines were lost. It is nil
// once a retry has written everything.
func (l *Lease) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.journalErr()
}

func (l *Lease) journalErr() error {
	if l.lost == 0 && l.lostAudits == 0 {
		return l.writeErr
	}
	cause := l.writeErr
	if cause == nil {
		cause = errors.New("the journal buffer was full")
	}
	what := fmt.Sprintf("%d events", l.lost)
	switch {
	case l.lost == 0:
		what = fmt.Sprintf("%d audit records", l.lostAudits)
	case l.lostAudits > 0:
		what += fmt.Sprintf(" and %d audit records", l.lostAudits)
	}
	return fmt.Errorf("store: journal of run %s: %s could not be stored: %w", l.runID, what, cause)
}

// flush writes the queued lines, at most journalTxMax per transaction. A
// batch that fails goes back to the front of the queue, to be retried by
// the next flush or by Finish.
func (l *Lease) flush() {
	for {
		l.mu.Lock()
		n := min(len(l.pending), journalTxMax)
		batch := l.pending[:n:n]
		l.pending = l.pending[n:]
		audits := l.audits
		l.audits = nil
		l.mu.Unlock()
		if n == 0 && len(audits) == 0 {
			return
		}
		ctx := context.Background()
		err := l.s.write(ctx, "journaling events of run "+l.runID, func(tx *sql.Tx) error {
			if err := insertEvents(ctx, tx, l.runID, batch); err != nil {
				return err
			}
			return insertAudits(ctx, tx, audits)
		})
		if err == nil {
			l.s.engine().Notify(ctx, TopicJournal, l.runID)
		}
		l.mu.Lock()
		if err != nil {
			l.pending = append(batch, l.pending...)
			l.audits = append(audits, l.audits...)
			l.writeErr = err
		} else if l.lost == 0 && l.lostAudits == 0 {
			l.writeErr = nil
		}
		l.drained.Broadcast()
		l.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// insertRows is how many lines one INSERT statement carries (4 parameters
// each, well under SQLite's limit on parameters).
const insertRows = 128

// insertEvents stores journal lines and counts them on the run. A seq
// already stored is kept as it was (a line is journaled once).
func insertEvents(ctx context.Context, tx *sql.Tx, runID string, batch []journalLine) error {
	n, err := insertEventRows(ctx, tx, runID, batch)
	if err != nil || n == 0 {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE runs SET events = events + ? WHERE id = ?`, n, runID)
	return err
}

// insertEventRows stores journal lines and returns how many were new; the
// caller counts them on the run.
func insertEventRows(ctx context.Context, tx *sql.Tx, runID string, batch []journalLine) (int64, error) {
	var n int64
	args := make([]any, 0, 4*insertRows)
	for len(batch) > 0 {
		k := min(len(batch), insertRows)
		args = args[:0]
		for _, e := range batch[:k] {
			args = append(args, runID, e.seq, e.typ, e.line)
		}
		q := `INSERT INTO events (run_id, seq, type, line) VALUES ` +
			strings.Repeat("(?, ?, ?, ?), ", k-1) + `(?, ?, ?, ?) ON CONFLICT (run_id, seq) DO NOTHING`
		res, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return 0, err
		}
		added, _ := res.RowsAffected()
		n += added
		batch = batch[k:]
	}
	return n, nil
}

// insertAudits stores queued audit records.
func insertAudits(ctx context.Context, tx *sql.Tx, rows []auditLine) error {
	for _, a := range rows {
		if _, err := tx.ExecContext(ctx, `INSERT INTO audit (kind, time, data) VALUES (?, ?, ?)`, a.kind, a.at, a.data); err != nil {
			return err
		}
	}
	return nil
}
