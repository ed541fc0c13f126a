package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Variable scopes.
const (
	ScopeChat   = "chat"
	ScopeGlobal = "global"
)

// varScope checks a scope and returns the session key of its rows ("" for
// global, where sessionID is ignored).
func varScope(scope, sessionID string) (string, error) {
	switch scope {
	case ScopeGlobal:
		return "", nil
	case ScopeChat:
		if err := validID("session", sessionID); err != nil {
			return "", fmt.Errorf("chat scope: %w", err)
		}
		return sessionID, nil
	}
	return "", fmt.Errorf("variable scope %q is not chat or global: %w", scope, ErrInvalid)
}

// varTarget checks a variable's name (CheckVarName) and scope.
func varTarget(scope, sessionID, name string) (string, error) {
	if err := CheckVarName(name); err != nil {
		return "", err
	}
	return varScope(scope, sessionID)
}

// GetVar returns a variable's JSON value, ErrNotFound when it is not set.
// scope is "chat" (of sessionID) or "global"; a name that breaks the rule
// of CheckVarName is ErrInvalidName.
func (s *Store) GetVar(ctx context.Context, scope, sessionID, name string) (json.RawMessage, error) {
	sid, err := varTarget(scope, sessionID, name)
	if err != nil {
		return nil, fmt.Errorf("store: reading variable: %w", err)
	}
	var v string
	err = s.read(ctx, "reading variable "+name, func() error {
		err := s.db.QueryRowContext(ctx, `SELECT value FROM variables WHERE scope = ? AND session_id = ? AND name = ?`,
			scope, sid, name).Scan(&v)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%s variable %q: %w", scope, name, ErrNotFound)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return json.RawMessage(v), nil
}

// SetVar sets a variable to a JSON value, stored compact. The name must
// pass CheckVarName (ErrInvalidName) and the value be one JSON value
// (ErrInvalid) of at most MaxValueBytes compacted (*LimitError); PrepareValue
// applies the same rule and says whether the value deserves a warning. A
// chat-scope variable needs an existing session (ErrNotFound otherwise).
func (s *Store) SetVar(ctx context.Context, scope, sessionID, name string, value json.RawMessage) error {
	sid, err := varTarget(scope, sessionID, name)
	if err != nil {
		return fmt.Errorf("store: setting variable: %w", err)
	}
	compact, err := compactValue(value)
	if err != nil {
		return fmt.Errorf("store: setting variable %q: %w", name, err)
	}
	return s.write(ctx, "setting variable "+name, func(tx *sql.Tx) error {
		if sid != "" {
			if err := sessionExists(ctx, tx, sid); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO variables (scope, session_id, name, value, updated_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (scope, session_id, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
			scope, sid, name, string(compact), toNS(s.now()))
		return err
	})
}

// DeleteVar removes a variable, ErrNotFound when it is not set.
func (s *Store) DeleteVar(ctx context.Context, scope, sessionID, name string) error {
	sid, err := varTarget(scope, sessionID, name)
	if err != nil {
		return fmt.Errorf("store: deleting variable: %w", err)
	}
	return s.write(ctx, "deleting variable "+name, func(tx *sql.Tx) error {
		return mustAffect(tx.ExecContext(ctx, `DELETE FROM variables WHERE scope = ? AND session_id = ? AND name = ?`, scope, sid, name))(
			fmt.Errorf("%s variable %q: %w", scope, name, ErrNotFound))
	})
}

// Var is one variable of a listing.
type Var struct {
	Name  string
	Value json.RawMessage
}

// ListVars returns the variables of a scope whose names start with prefix
// ("" for all), sorted by name byte-wise; an empty slice when none.
func (s *Store) ListVars(ctx context.Context, scope, sessionID, prefix string) ([]Var, error) {
	sid, err := varScope(scope, sessionID)
	if err != nil {
		return nil, fmt.Errorf("store: listing variables: %w", err)
	}
	var out []Var
	err = s.read(ctx, "listing variables", func() error {
		out = []Var{}
		// BINARY collation orders names byte-wise, as sort.Strings does.
		rows, err := s.db.QueryContext(ctx, `SELECT name, value FROM variables WHERE scope = ? AND session_id = ? ORDER BY name`, scope, sid)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var n, v string
			if err := rows.Scan(&n, &v); err != nil {
				return err
			}
			if strings.HasPrefix(n, prefix) {
				out = append(out, Var{Name: n, Value: json.RawMessage(v)})
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Todo is one item of a session's todo list.
type Todo struct {
	Content    string `json:"content"`
	Status     string `json:"status"` // pending, in_progress or completed
	ActiveForm string `json:"active_form,omitempty"`
}

// SetTodos replaces a session's todo list. Each item needs content and a
// status of pending, in_progress or completed.
func (s *Store) SetTodos(ctx context.Context, sessionID string, todos []Todo) error {
	op := "setting the todos of session " + sessionID
	for i, t := range todos {
		if strings.TrimSpace(t.Content) == "" {
			return fmt.Errorf("store: %s: todo %d has no content: %w", op, i, ErrInvalid)
		}
		switch t.Status {
		case "pending", "in_progress", "completed":
		default:
			return fmt.Errorf("store: %s: todo %d has status %q, not pending, in_progress or completed: %w", op, i, t.Status, ErrInvalid)
		}
	}
	if todos == nil {
		todos = []Todo{}
	}
	b, err := json.Marshal(todos)
	if err != nil {
		return fmt.Errorf("store: %s: %w", op, err)
	}
	return s.write(ctx, op, func(tx *sql.Tx) error {
		if err := sessionExists(ctx, tx, sessionID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO todos (session_id, data, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (session_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`,
			sessionID, string(b), toNS(s.now()))
		return err
	})
}

// Todos returns a session's todo list (empty when never set); an unknown
// session is ErrNotFound.
func (s *Store) Todos(ctx context.Context, sessionID string) ([]Todo, error) {
	var data sql.NullString
	err := s.read(ctx, "reading the todos of session "+sessionID, func() error {
		err := s.db.QueryRowContext(ctx, `SELECT t.data FROM sessions s LEFT JOIN todos t ON t.session_id = s.id WHERE s.id = ?`,
			sessionID).Scan(&data)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("session %s: %w", sessionID, ErrNotFound)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	todos := []Todo{}
	if data.Valid {
		if err := json.Unmarshal([]byte(data.String), &todos); err != nil {
			return nil, fmt.Errorf("store: the todos of session %s are damaged: %w", sessionID, err)
		}
	}
	return todos, nil
}

// sessionExists is ErrNotFound unless the session exists.
func sessionExists(ctx context.Context, tx *sql.Tx, id string) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM sessions WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	return err
}
