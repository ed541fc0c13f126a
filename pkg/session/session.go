// Package session ties runs to stored sessions. Bind attaches a run to a new
// or continued session: it holds the session's lease (one run at a time),
// journals the run's events, audits its tool calls, stores its messages
// round by round and records how it ended. LoadHistory and Compactor give a
// continued run the session's history, compacted with the model when it
// would not fit. Nothing here knows of Cobra: `tavo run`, `tavo session
// send` and any later caller bind runs the same way.
package session

import (
	"errors"

	"github.com/tavo-cli/tavo/pkg/store"
)

func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }
