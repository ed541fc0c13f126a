package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Memory is the long-term memory the memory tools manage. Enabled says
// whether it is injected into the system prompt; the items are kept either
// way.
type Memory struct {
	Enabled bool     `json:"enabled"`
	Items   []string `json:"memories"`
}

const memoryKey = "memory"

// Memory returns the memory; nothing stored yet is disabled and empty.
func (s *Store) Memory(ctx context.Context) (Memory, error) {
	var m Memory
	err := s.read(ctx, "reading memory", func() error {
		var err error
		m, err = readMemory(s.db.QueryRowContext(ctx, `SELECT value FROM kv WHERE key = ?`, memoryKey))
		return err
	})
	return m, err
}

// AppendMemory adds items after the existing notes and returns the new
// memory; it never changes Enabled. The items are trimmed and checked
// (CleanMemoryItems: an *ItemError) and the notes they would make are
// checked against the limits (CheckMemorySize: a *LimitError) inside the
// write transaction, so writers appending at the same time can never take
// memory past them together.
func (s *Store) AppendMemory(ctx context.Context, items []string) (Memory, error) {
	items, err := CleanMemoryItems(items)
	if err != nil {
		return Memory{}, fmt.Errorf("store: appending to memory: %w", err)
	}
	return s.changeMemory(ctx, "appending to memory", func(m *Memory) error {
		all := append(append(make([]string, 0, len(m.Items)+len(items)), m.Items...), items...)
		if err := CheckMemorySize(all); err != nil {
			return err
		}
		m.Items = all
		return nil
	})
}

// MemoryUpdate is what SetMemory changes; a nil field is kept as stored.
type MemoryUpdate struct {
	// Enabled switches injection into the system prompt on or off.
	Enabled *bool
	// Items replaces every note (an empty list removes them all).
	Items *[]string
}

// SetMemory applies u in one write transaction and returns the new memory.
// New items are trimmed and checked like AppendMemory's, and must fit the
// limits on their own (*ItemError, *LimitError); switching Enabled alone
// checks nothing, so it works whatever is stored.
func (s *Store) SetMemory(ctx context.Context, u MemoryUpdate) (Memory, error) {
	var items []string
	if u.Items != nil {
		var err error
		if items, err = CleanMemoryItems(*u.Items); err != nil {
			return Memory{}, fmt.Errorf("store: setting memory: %w", err)
		}
		if err := CheckMemorySize(items); err != nil {
			return Memory{}, fmt.Errorf("store: setting memory: %w", err)
		}
	}
	return s.changeMemory(ctx, "setting memory", func(m *Memory) error {
		if u.Enabled != nil {
			m.Enabled = *u.Enabled
		}
		if u.Items != nil {
			m.Items = items
		}
		return nil
	})
}

// changeMemory reads the memory, lets change edit it and writes the result,
// in one write transaction, so a concurrent append or toggle is never lost
// and a limit checked in change holds. An error from change aborts the
// write.
func (s *Store) changeMemory(ctx context.Context, op string, change func(*Memory) error) (Memory, error) {
	var m Memory
	err := s.write(ctx, op, func(tx *sql.Tx) error {
		var err error
		m, err = readMemory(tx.QueryRowContext(ctx, `SELECT value FROM kv WHERE key = ?`, memoryKey))
		if err != nil {
			return err
		}
		if err := change(&m); err != nil {
			return err
		}
		return s.putMemory(ctx, tx, m)
	})
	if err != nil {
		return Memory{}, err
	}
	return m, nil
}

func readMemory(row *sql.Row) (Memory, error) {
	m := Memory{Items: []string{}}
	var v string
	err := row.Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return m, nil
	}
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal([]byte(v), &m); err != nil {
		return m, fmt.Errorf("the stored memory is damaged: %w", err)
	}
	if m.Items == nil {
		m.Items = []string{}
	}
	return m, nil
}

func (s *Store) putMemory(ctx context.Context, tx *sql.Tx, m Memory) error {
	if m.Items == nil {
		m.Items = []string{}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		memoryKey, string(b), toNS(s.now()))
	return err
}

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
