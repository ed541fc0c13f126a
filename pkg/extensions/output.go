package extensions

import "bytes"

// cappedBuffer keeps the first max bytes written to it and counts the rest,
// which it discards: a command that floods stdout neither blocks nor fills
// tavo's memory.
type cappedBuffer struct {
	max     int
	buf     bytes.Buffer
	total   int64
	dropped bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.total += int64(len(p))
	if room := b.max - b.buf.Len(); room > 0 {
		if len(p) > room {
			b.buf.Write(p[:room])
			b.dropped = true
		} else {
			b.buf.Write(p)
		}
	} else if len(p) > 0 {
		b.dropped = true
	}
	return len(p), nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= b.max {
		b.buf = append(b.buf[:0], p[len(p)-b.max:]...)
		return n, nil
	}
	if over := len(b.buf) + len(p) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	b.buf = append(b.buf, p...)
	return n, nil
}

// String returns the kept tail with invalid UTF-8 replaced.
func (b *tailBuffer) String() string {
	return string(bytes.ToValidUTF8(b.buf, []byte("\uFFFD")))
}
