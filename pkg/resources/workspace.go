package resources

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/tavo-cli/tavo/pkg/files"
)

// Workspace is the workspace:// scheme: read-only access to the files under
// one host directory. Every path is resolved (symbolic links followed) and
// must stay inside the directory; "..", links leading out, hard links,
// devices, FIFOs and sockets are refused with permission_denied.
func Workspace(dir string) (Scheme, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	root, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	st, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("workspace %s: not a directory", dir)
	}
	w := workspace{root: root}
	return FileScheme("workspace", w.open), nil
}

// NoWorkspace is workspace:// for a run without --workspace: every read is
// permission_denied, saying how to allow it.
func NoWorkspace() Scheme {
	return FileScheme("workspace", func(ctx context.Context, u *FileURL, sc Scope) (*File, error) {
		return nil, errorf(CodePermissionDenied, "no workspace is open: workspace:// reads need the run's --workspace DIR (or the profile key workspace)")
	})
}

type workspace struct{ root string }

func denied(u *FileURL, why string) *Error {
	return errorf(CodePermissionDenied, "%s is outside what the workspace allows: %s", metaURL(u), why)
}

func (w workspace) open(ctx context.Context, u *FileURL, _ Scope) (*File, error) {
	p := u.Path
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return nil, denied(u, "'..' is not allowed")
		}
	}
	full := p
	if !filepath.IsAbs(p) {
		full = filepath.Join(w.root, p)
	}
	full = filepath.Clean(full)
	if !w.inside(full) {
		// An absolute path may name the workspace through a link to it.
		if r, err := filepath.EvalSymlinks(full); err != nil || !w.inside(r) {
			return nil, denied(u, "the path is not under the workspace directory")
		}
	}
	resolved, err := filepath.EvalSymlinks(full)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errorf(CodeResourceNotFound, "%s does not exist in the workspace", metaURL(u))
		}
		return nil, denied(u, "the path cannot be resolved (a link loop?)")
	}
	if !w.inside(resolved) {
		return nil, denied(u, "a symbolic link leads out of the workspace")
	}
	lst, err := os.Lstat(resolved)
	if err != nil {
		return nil, errorf(CodeResourceNotFound, "%s does not exist in the workspace", metaURL(u))
	}
	if lst.IsDir() {
		return nil, errorf(CodeInvalidArguments, "%s is a directory; read a file in it", metaURL(u))
	}
	if !lst.Mode().IsRegular() {
		return nil, denied(u, "only regular files are read (not devices, FIFOs or sockets)")
	}
	if st, ok := lst.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
		return nil, denied(u, "the file has other hard links, which may lie outside the workspace")
	}
	// O_NONBLOCK: should the file be swapped for a FIFO after the check, the
	// open does not hang; the identity check below then refuses it.
	f, err := os.OpenFile(resolved, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, denied(u, "the file cannot be opened")
	}
	st, err := f.Stat()
	if err != nil || !os.SameFile(lst, st) || !st.Mode().IsRegular() {
		f.Close()
		return nil, denied(u, "the file changed while it was opened")
	}
	if err := ctx.Err(); err != nil {
		f.Close()
		return nil, err
	}
	return &File{R: f, Size: st.Size(), Name: filepath.Base(resolved), MediaType: sniff(f, resolved),
		ModTime: st.ModTime(), Version: fmt.Sprintf("%d/%d", st.Size(), st.ModTime().UnixNano()), Close: f.Close}, nil
}

// inside reports whether p is the root or under it.
func (w workspace) inside(p string) bool {
	return p == w.root || strings.HasPrefix(p, w.root+string(filepath.Separator))
}

// sniff finds a file's media type: by name, else text when its head is
// UTF-8 without NUL, else what the content looks like.
func sniff(r io.ReaderAt, name string) string {
	if mt := files.MIMEByName(name); mt != "" {
		return mt
	}
	head := make([]byte, 512)
	n, _ := r.ReadAt(head, 0)
	head = head[:n]
	if looksText(head) {
		return "text/plain; charset=utf-8"
	}
	return http.DetectContentType(head)
}

// looksText: valid UTF-8 (a character cut at the end of the head allowed)
// and no NUL.
func looksText(b []byte) bool {
	for i := 0; i < len(b); {
		if b[i] == 0 {
			return false
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return len(b)-i < utf8.UTFMax && !utf8.FullRune(b[i:])
		}
		i += size
	}
	return true
}
