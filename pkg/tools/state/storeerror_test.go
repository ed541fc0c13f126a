package state

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// A store write that fails for a full disk or a read-only data dir reaches
// the model as one line naming the session store and the cause, without
// the data dir the store's own message names.
func TestStoreWriteFailureNamesNoPath(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("store: setting a variable: the disk holding data dir /secret/dir is full: %w: %w", store.ErrDiskFull, errors.New("database or disk is full (13)")),
			"the session store cannot be written (disk full); the call did nothing"},
		{fmt.Errorf("store: setting a variable: %w: the session store in data dir /secret/dir cannot be written (permission denied)", store.ErrReadOnly),
			"the session store cannot be written (its data dir is read-only); the call did nothing"},
	} {
		te := tools.AsError(storeError(c.err, ""))
		if te.Code != tools.CodeInternalError || te.Message != c.want || strings.Contains(te.Message, "/secret") {
			t.Errorf("%v: got %+v, want %q", c.err, te, c.want)
		}
	}
}
