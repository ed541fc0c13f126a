package sse

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"data: a\n\n",
		"event: x\r\ndata: 1\r\ndata: 2\r\n\r\n",
		"data: a\r\rid: 7\rdata: b",
		": c\n\nretry: 5\ndata\n\n",
		"\xef\xbb\xbfdata: x\n",
		"data: [DONE]\n\n",
	} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, in []byte, small uint8) {
		max := DefaultMaxSize
		if small > 0 {
			max = int(small)
		}
		var whole, bytewise []Event
		var errWhole, errBytewise error
		whole, errWhole = readAll(t, NewReaderSize(bytes.NewReader(in), max))
		bytewise, errBytewise = readAll(t, NewReaderSize(iotest.OneByteReader(bytes.NewReader(in)), max))
		// Every event consumes at least one byte, so there can be no more
		// events than input bytes: this catches loops that emit forever.
		if len(whole) > len(in) {
			t.Fatalf("%d events from %d bytes", len(whole), len(in))
		}
		if errWhole != io.EOF && !strings.Contains(errWhole.Error(), "too long") {
			t.Fatalf("unexpected error %v", errWhole)
		}
		// Splitting the input differently must not change the result.
		if (errWhole == io.EOF) != (errBytewise == io.EOF) || len(whole) != len(bytewise) {
			t.Fatalf("whole: %d events, %v; bytewise: %d events, %v", len(whole), errWhole, len(bytewise), errBytewise)
		}
		for i := range whole {
			if whole[i] != bytewise[i] {
				t.Fatalf("event %d differs: %#v vs %#v", i, whole[i], bytewise[i])
			}
		}
	})
}
