package files

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Cursor shape: base64url(mac || payload), payload a small JSON object and
// mac its truncated HMAC-SHA256 under a key kept in the data directory, so a
// cursor survives between processes (`tavo file ls --cursor`) yet cannot be
// forged or edited.
const (
	macBytes       = 16
	keyBytes       = 32
	maxCursorChars = 2048
	cursorVersion  = 1
)

// cursorPayload is what a cursor carries: the location it was made for and
// the last name of the page it ends.
type cursorPayload struct {
	V       int    `json:"v"`
	Scope   Scope  `json:"s"`
	Session string `json:"c,omitempty"`
	After   string `json:"a"`
}

const cursorExpected = "a nextCursor returned by a previous listing of the same scope"

// makeCursor returns the cursor continuing loc's listing after name.
func (s *Store) makeCursor(loc Location, after string) (string, error) {
	key, err := s.cursorKey()
	if err != nil {
		return "", err
	}
	payload, err := json.Marshal(cursorPayload{V: cursorVersion, Scope: loc.Scope, Session: loc.Session, After: after})
	if err != nil {
		return "", fmt.Errorf("files: encoding a cursor: %w", err)
	}
	buf := append(sign(key, payload), payload...)
	return base64.RawURLEncoding.EncodeToString(buf), nil
}

// readCursor checks a cursor and returns the name listing resumes after. A
// cursor that was not made by this data directory, was altered, or belongs
// to another location is a KindInvalid error for field "cursor".
func (s *Store) readCursor(loc Location, cursor string) (string, error) {
	bad := invalid("cursor", cursorExpected,
		"the cursor is not valid: pass nextCursor from the previous listing unchanged, or omit it to start over")
	if len(cursor) > maxCursorChars {
		return "", bad
	}
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || len(raw) <= macBytes {
		return "", bad
	}
	key, err := s.cursorKey()
	if err != nil {
		return "", err
	}
	mac, payload := raw[:macBytes], raw[macBytes:]
	if !hmac.Equal(mac, sign(key, payload)) {
		return "", bad
	}
	var p cursorPayload
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil || p.V != cursorVersion {
		return "", bad
	}
	if p.Scope != loc.Scope {
		return "", invalid("cursor", cursorExpected, fmt.Sprintf(
			"the cursor belongs to the %s scope, not %s: a cursor only continues the listing it came from", p.Scope, loc.Scope))
	}
	if p.Session != loc.Session {
		return "", invalid("cursor", cursorExpected,
			"the cursor belongs to another session's chat files: a cursor only continues the listing it came from")
	}
	return p.After, nil
}

// sign is the truncated HMAC-SHA256 of payload.
func sign(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	return m.Sum(nil)[:macBytes]
}

// cursorKey returns the signing key, creating <data-dir>/files/cursor.key
// (0600) on first use. Concurrent processes agree on one key: the file is
// published with a hard link, which fails when another process won. When
// the data directory cannot be written, a key for this process alone is
// used, so listing still works and only cross-process cursors fail.
func (s *Store) cursorKey() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.key != nil {
		return s.key, nil
	}
	p := filepath.Join(s.root, cursorKeyFile)
	if k, err := os.ReadFile(p); err == nil && len(k) == keyBytes {
		s.key = k
		return k, nil
	}
	k := make([]byte, keyBytes)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("files: making a cursor key: %w", err)
	}
	if err := publishKey(s.root, p, k); err == nil {
		s.key = k
		return k, nil
	} else if errors.Is(err, fs.ErrExist) {
		if won, err := os.ReadFile(p); err == nil && len(won) == keyBytes {
			s.key = won
			return won, nil
		}
	}
	s.key = k
	return k, nil
}

// publishKey writes k to p atomically, failing with fs.ErrExist when p is
// already there.
func publishKey(root, p string, k []byte) error {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(root, "cursor-key-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(k); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Link(tmp.Name(), p)
}
