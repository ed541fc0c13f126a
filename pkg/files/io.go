package files

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// byteReader reads a byte slice; unlike bytes.Reader it has no WriteTo, so
// io.Copy goes through the size limit and the head capture.
type byteReader struct{ b []byte }

func (r *byteReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

// ctxReader stops reading once ctx is done, so a long save from a pipe can
// be cancelled.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (r *ctxReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.Read(p)
}

// headWriter keeps the first sniffBytes written, for MIME sniffing.
type headWriter struct{ b []byte }

func (w *headWriter) Write(p []byte) (int, error) {
	if room := sniffBytes - len(w.b); room > 0 {
		w.b = append(w.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// openRegular opens the regular file at p. A folder, a symbolic link or
// anything else that is not a plain file reads as missing: the store only
// ever writes plain files, and following a link could leave the scope.
func openRegular(p string) (*os.File, error) {
	// A save renames a new file over the name between Lstat and Open now and
	// then; the check is then simply made again on the new file.
	for attempt := 0; ; attempt++ {
		lst, err := os.Lstat(p)
		if err != nil {
			return nil, err
		}
		if !lst.Mode().IsRegular() {
			return nil, fs.ErrNotExist
		}
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		st, err := f.Stat()
		if err == nil && os.SameFile(lst, st) {
			return f, nil
		}
		f.Close()
		if err != nil {
			return nil, err
		}
		if attempt == 9 {
			return nil, fmt.Errorf("the file keeps changing while it is opened")
		}
	}
}
