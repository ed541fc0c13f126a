// Package ids makes tavo's identifiers: a prefix, then a time-ordered,
// random-suffixed token, so IDs sort by creation time and never collide
// across processes (run_01JD…, ses_01JD…).
package ids

import (
	"crypto/rand"
	"encoding/binary"
	"strings"
	"time"
)

// Crockford's base32 alphabet: no I, L, O, U, case-insensitive to read.
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// New returns prefix + "_" + 26 characters: 48 bits of milliseconds since
// the epoch and 80 random bits.
func New(prefix string, now time.Time) string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(now.UnixMilli())<<16)
	if _, err := rand.Read(b[6:]); err != nil {
		panic("ids: no randomness: " + err.Error()) // crypto/rand never fails on supported systems
	}
	var sb strings.Builder
	sb.Grow(len(prefix) + 27)
	sb.WriteString(prefix)
	sb.WriteByte('_')
	// 128 bits as 26 base32 digits, most significant first.
	hi := binary.BigEndian.Uint64(b[:8])
	lo := binary.BigEndian.Uint64(b[8:])
	for i := 25; i >= 0; i-- {
		shift := uint(i * 5)
		var v uint64
		switch {
		case shift >= 64:
			v = hi >> (shift - 64)
		case shift == 0:
			v = lo
		default:
			v = lo>>shift | hi<<(64-shift)
		}
		sb.WriteByte(alphabet[v&31])
	}
	return sb.String()
}
