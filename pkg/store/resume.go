package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// ErrCannotResume is matched (errors.Is) by the reasons a run cannot be
// resumed (tavo runs resume): it is still running, it ended some other
// way, it was resumed already, or its session has moved on. Such an error
// matches ErrInvalid too, and reads as its reason alone.
var ErrCannotResume = errors.New("cannot resume")

// CannotResume makes a refusal to resume, worded by format.
func CannotResume(format string, args ...any) error {
	return &cannotResume{msg: fmt.Sprintf(format, args...)}
}

type cannotResume struct{ msg string }

func (e *cannotResume) Error() string { return e.msg }

func (e *cannotResume) Is(target error) bool {
	return target == ErrCannotResume || target == ErrInvalid
}

// SetResumePoint stores what a later resume of the run starts from (a
// JSON object; pkg/session gives it meaning). An unknown run is
// ErrNotFound.
func (s *Store) SetResumePoint(ctx context.Context, runID string, doc json.RawMessage) error {
	op := "storing the resume point of run " + runID
	if len(doc) > 0 && (!json.Valid(doc) || doc[0] != '{') {
		return fmt.Errorf("store: %s: not a JSON object: %w", op, ErrInvalid)
	}
	return s.write(ctx, op, func(tx *sql.Tx) error {
		return mustAffect(tx.ExecContext(ctx, `UPDATE runs SET resume_point = ? WHERE id = ?`, string(doc), runID))(
			fmt.Errorf("run %s: %w", runID, ErrNotFound))
	})
}

// ResumeInfo is what a resume needs to know of a run beyond its record.
type ResumeInfo struct {
	// ResumedFrom is the run this one resumed, "" when none.
	ResumedFrom string
	// ResumePoint is the document SetResumePoint stored, nil when none.
	ResumePoint json.RawMessage
	// ResumedBy is the run that resumed this one, "" when none has.
	ResumedBy string
	// Next is the run that started after this one in its session, "" when
	// it is the latest.
	Next string
}

// ResumeInfo reads a run's resume facts. An unknown run is ErrNotFound.
func (s *Store) ResumeInfo(ctx context.Context, runID string) (*ResumeInfo, error) {
	var ri ResumeInfo
	err := s.read(ctx, "reading how run "+runID+" may resume", func() error {
		var point, session string
		var started int64
		err := s.db.QueryRowContext(ctx, `SELECT resumed_from, resume_point, session_id, started_at FROM runs WHERE id = ?`, runID).
			Scan(&ri.ResumedFrom, &point, &session, &started)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("run %s: %w", runID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if point != "" {
			ri.ResumePoint = json.RawMessage(point)
		}
		err = s.db.QueryRowContext(ctx, `SELECT id FROM runs WHERE resumed_from = ? LIMIT 1`, runID).Scan(&ri.ResumedBy)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		err = s.db.QueryRowContext(ctx, `SELECT id FROM runs WHERE session_id = ? AND id <> ? AND (started_at > ? OR (started_at = ? AND id > ?))
			ORDER BY started_at, id LIMIT 1`, session, runID, started, started, runID).Scan(&ri.Next)
		if errors.Is(err, sql.ErrNoRows) {
			err = nil
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &ri, nil
}

// ClaimResume marks run runID (running, under its lease) as the resume of
// from, in one transaction that checks nothing else did so and that no run
// but runID came after from in the session. A refusal is ErrCannotResume.
func (s *Store) ClaimResume(ctx context.Context, runID, from string) error {
	return s.write(ctx, "marking run "+runID+" as the resume of "+from, func(tx *sql.Tx) error {
		var other string
		err := tx.QueryRowContext(ctx, `SELECT id FROM runs WHERE resumed_from = ? AND id <> ? LIMIT 1`, from, runID).Scan(&other)
		if err == nil {
			return CannotResume("run %s was resumed already, by run %s", from, other)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		err = tx.QueryRowContext(ctx, `SELECT r.id FROM runs r, runs f WHERE f.id = ? AND r.session_id = f.session_id
			AND r.id NOT IN (?, ?) AND (r.started_at > f.started_at OR (r.started_at = f.started_at AND r.id > f.id)) LIMIT 1`,
			from, from, runID).Scan(&other)
		if err == nil {
			return CannotResume("run %s cannot be resumed: its session has moved on (run %s came after it)", from, other)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		return mustAffect(tx.ExecContext(ctx, `UPDATE runs SET resumed_from = ? WHERE id = ?`, from, runID))(
			fmt.Errorf("run %s: %w", runID, ErrNotFound))
	})
}
