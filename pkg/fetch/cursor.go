package fetch

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
)

// Cursor layout, before base64url: version, store kind, snapshot id,
// expiry (Unix seconds, 0 for none), offset (uvarint), then a truncated
// HMAC-SHA256 of all that under the store's key. The MAC makes a cursor
// tamper-evident and ties it to the store (and so the run, or the user)
// that minted it.
const (
	cursorVersion = 1
	idBytes       = 16
	macBytes      = 16
	keyBytes      = 32
	headerBytes   = 2 + idBytes + 8

	kindMemory byte = 'm'
	kindDisk   byte = 'd'
)

// cursorData is what a cursor says.
type cursorData struct {
	id      [idBytes]byte
	expires int64
	offset  int
}

// cursorCodec mints and checks the cursors of one store.
type cursorCodec struct {
	key  []byte
	kind byte
}

func (c cursorCodec) encode(d cursorData) string {
	buf := make([]byte, 0, headerBytes+binary.MaxVarintLen64+macBytes)
	buf = append(buf, cursorVersion, c.kind)
	buf = append(buf, d.id[:]...)
	buf = binary.BigEndian.AppendUint64(buf, uint64(d.expires))
	buf = binary.AppendUvarint(buf, uint64(d.offset))
	buf = append(buf, c.mac(buf)...)
	return base64.RawURLEncoding.EncodeToString(buf)
}

func (c cursorCodec) mac(payload []byte) []byte {
	m := hmac.New(sha256.New, c.key)
	m.Write(payload)
	return m.Sum(nil)[:macBytes]
}

// maxCursorChars bounds what decode will look at.
const maxCursorChars = 256

func (c cursorCodec) decode(s string) (cursorData, error) {
	var d cursorData
	if s == "" || len(s) > maxCursorChars {
		return d, errInvalidCursor()
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(s)
	// The decoder skips line breaks; only the exact minted text is a cursor.
	if err != nil || len(raw) < headerBytes+1+macBytes || base64.RawURLEncoding.EncodeToString(raw) != s {
		return d, errInvalidCursor()
	}
	payload, sum := raw[:len(raw)-macBytes], raw[len(raw)-macBytes:]
	if !hmac.Equal(sum, c.mac(payload)) {
		return d, errInvalidCursor()
	}
	if payload[0] != cursorVersion || payload[1] != c.kind {
		return d, errInvalidCursor()
	}
	copy(d.id[:], payload[2:2+idBytes])
	d.expires = int64(binary.BigEndian.Uint64(payload[2+idBytes : headerBytes]))
	off, n := binary.Uvarint(payload[headerBytes:])
	if n <= 0 || headerBytes+n != len(payload) || off > 1<<40 {
		return d, errInvalidCursor()
	}
	d.offset = int(off)
	return d, nil
}

func errInvalidCursor() *Error {
	return errorf(CodeInvalidArguments, "the cursor is not valid: it was altered, cut short or made by another run or cache; fetch the URL again")
}

func errExpiredCursor(why string) *Error {
	return errorf(CodeResourceNotFound, "the cursor has expired (%s); fetch the URL again", why)
}

// newID returns a random snapshot id. crypto/rand.Read never fails (it
// aborts the program instead), so there is no error to return.
func newID() [idBytes]byte {
	var id [idBytes]byte
	_, _ = rand.Read(id[:])
	return id
}

func (d cursorData) idString() string { return hex.EncodeToString(d.id[:]) }

func newKey() []byte {
	k := make([]byte, keyBytes)
	_, _ = rand.Read(k)
	return k
}
