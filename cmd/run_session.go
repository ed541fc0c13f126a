package cmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/store"
)

// openStore opens the data directory's store, as a configuration-level error
// when it cannot be opened (a read-only or full disk says so in one line).
func openStore(ctx context.Context, f *Factory) (*store.Store, error) {
	st, err := store.Open(ctx, f.DataDirectory())
	if err != nil {
		return nil, &ExitError{Code: events.ExitFailed, Err: err}
	}
	return st, nil
}

// sessionNotFound is exit 4, like a busy session.
func sessionError(err error, id string) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return &ExitError{Code: events.ExitSession, Err: fmt.Errorf("session_not_found: no session %q (see `tavo session list`)", id)}
	case errors.Is(err, store.ErrSessionBusy):
		return &ExitError{Code: events.ExitSession, Err: fmt.Errorf("session_busy: session %q is running another run; wait for it or `tavo runs cancel` it", id)}
	}
	return &ExitError{Code: events.ExitFailed, Err: err}
}

// storeOutput prepares a command that prints what the store holds: the
// output format (text by default) and the open store, which the caller closes.
func storeOutput(cmd *cobra.Command, f *Factory) (*cli.Output, *store.Store, error) {
	out, err := cli.NewOutput(f.IO, f.Output, f.JQ, cli.FormatText)
	if err != nil {
		return nil, nil, usageError(err)
	}
	st, err := openStore(cmd.Context(), f)
	if err != nil {
		return nil, nil, err
	}
	return out, st, nil
}

// checkLimit validates a --limit flag.
func checkLimit(limit, most int) error {
	if limit < 1 || limit > most {
		return usageError(fmt.Errorf("--limit must be 1-%d, got %d", most, limit))
	}
	return nil
}
