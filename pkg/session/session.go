// Package session ties runs to stored sessions: it loads a session's
// history (with its latest compaction), compacts it with the model when it
// would not fit, and stores what a run adds.
package session

import (
	"errors"

	"github.com/tavo-cli/tavo/pkg/store"
)

func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }
