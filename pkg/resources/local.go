package resources

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tavo-cli/tavo/pkg/files"
)

// Local is the local:// scheme over the file store of SPEC §5:
// local://NAME is the reading session's chat file, local://global/NAME the
// global one.
func Local(fs *files.Store) Scheme {
	return FileScheme("local", func(ctx context.Context, u *FileURL, sc Scope) (*File, error) {
		loc, name := files.Chat(sc.SessionID), u.Path
		if rest, ok := strings.CutPrefix(u.Path, "global/"); ok {
			loc, name = files.Global(), rest
		} else if sc.SessionID == "" {
			return nil, errorf(CodeResourceNotFound, "%s is a chat file and this read belongs to no session; use local://global/NAME or --session ID", metaURL(u))
		}
		if err := files.CheckName(name); err != nil {
			return nil, invalidURL("local://NAME or local://global/NAME, NAME a file name", u.Path, "%v", err)
		}
		rc, e, err := fs.Reader(ctx, loc, name)
		if errors.Is(err, files.ErrNotFound) {
			return nil, errorf(CodeResourceNotFound, "%s does not exist", metaURL(u))
		}
		if err != nil {
			return nil, sourceError(err)
		}
		f := &File{Name: name, MediaType: e.MIMEType, Size: e.Size, ModTime: e.ModifiedAt,
			Version: fmt.Sprintf("%d/%d", e.Size, e.ModifiedAt.UnixNano()), Close: rc.Close}
		if ra, ok := rc.(io.ReaderAt); ok {
			f.R = ra
			return f, nil
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, sourceError(err)
		}
		f.R, f.Size = TextSource(string(b))
		f.Close = nil
		return f, nil
	})
}
