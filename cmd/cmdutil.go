package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/store"
)

// This file holds what every command shares: exit codes, loading the
// config, opening the store, output and flag checks. A command's own file
// holds only its options, its constructor and its run function.

// ExitError carries a process exit code with the error that caused it.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// usageError marks an error as a usage or configuration error (exit 2).
func usageError(err error) error { return &ExitError{Code: events.ExitUsage, Err: err} }

// failedError marks an error as a failed operation (exit 1): a missing
// file, run or variable, an unreachable server. Errors returned without an
// ExitError are usage errors (Cobra's own), so a command that fails at its
// work says so through this.
func failedError(err error) error { return &ExitError{Code: events.ExitFailed, Err: err} }

// silentExit ends the process with code without printing anything more (the
// command already reported, e.g. through a run.completed event).
func silentExit(code int) error { return &ExitError{Code: code} }

// loadConfig loads the config file (once per process, through the Factory);
// a broken file is a configuration error.
func loadConfig(f *Factory) (*config.Config, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, usageError(err)
	}
	return cfg, nil
}

// openStore opens the data directory's store, as a configuration-level error
// when it cannot be opened (a read-only or full disk says so in one line).
// The caller owns the handle and closes it.
func openStore(ctx context.Context, f *Factory) (*store.Store, error) {
	st, err := f.openStore(ctx)
	if err != nil {
		return nil, &ExitError{Code: events.ExitFailed, Err: err}
	}
	applyRetention(ctx, f, st)
	return st, nil
}

// sessionError maps a store error about session id to its exit code:
// not found and busy are exit 4, anything else exit 1.
func sessionError(err error, id string) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return &ExitError{Code: events.ExitSession, Err: fmt.Errorf("session_not_found: no session %q (see `tavo session list`)", id)}
	case errors.Is(err, store.ErrSessionBusy):
		return &ExitError{Code: events.ExitSession, Err: fmt.Errorf("session_busy: session %q is running another run; wait for it or `tavo runs cancel` it", id)}
	}
	return &ExitError{Code: events.ExitFailed, Err: err}
}

// checkSession refuses a --session that names no session before a command
// does anything under it (exit 4, like every command that takes a session
// id); "" (no --session) passes. Without it a chat-scope command would
// store orphan files or list an empty scope and exit 0.
func checkSession(ctx context.Context, st *store.Store, id string) error {
	if id == "" {
		return nil
	}
	// An id no session can have ("../x") is a usage error, not a lookup.
	if err := files.CheckSession(id); err != nil {
		return usageError(err)
	}
	if _, err := st.GetSession(ctx, id); err != nil {
		return sessionError(err, id)
	}
	return nil
}

// storeError maps a store error of a command that reads or writes by
// name: an invalid argument (a bad cursor, a bad name) is a usage error
// (exit 2), anything else — a full disk, a broken database — a failure
// (exit 1).
func storeError(err error) error {
	if errors.Is(err, store.ErrInvalid) {
		return usageError(err)
	}
	return failedError(err)
}

// storeOutput prepares a command that prints what the store holds: the
// output format (text by default) and the open store, which the caller closes.
func storeOutput(cmd *cobra.Command, f *Factory) (*cli.Output, *store.Store, error) {
	return storeOutputContext(cmd.Context(), f)
}

// storeOutputContext is storeOutput for a run function, which has its
// context but no Cobra command.
func storeOutputContext(ctx context.Context, f *Factory) (*cli.Output, *store.Store, error) {
	out, err := textOutput(f)
	if err != nil {
		return nil, nil, err
	}
	st, err := openStore(ctx, f)
	if err != nil {
		return nil, nil, err
	}
	return out, st, nil
}

// textOutput is the output of a command whose default format is text:
// -o and --jq applied, a bad value a usage error.
func textOutput(f *Factory) (*cli.Output, error) {
	out, err := cli.NewOutput(f.IO, f.Output, f.JQ, cli.FormatText)
	if err != nil {
		return nil, usageError(err)
	}
	return out, nil
}

// saveConfig writes the config file: a config that does not validate is a
// usage error (exit 2), a file that cannot be written a failure (exit 1).
func saveConfig(cfg *config.Config) error {
	err := cfg.Save()
	var ce *config.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ce):
		return usageError(err)
	}
	return failedError(err)
}

// configOutput is textOutput and loadConfig, for the commands that print
// what the config file holds.
func configOutput(f *Factory) (*cli.Output, *config.Config, error) {
	out, err := textOutput(f)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := loadConfig(f)
	if err != nil {
		return nil, nil, err
	}
	return out, cfg, nil
}

// checkLimit validates a --limit flag.
func checkLimit(limit, most int) error {
	return checkRange(config.Range[int]{Flag: "--limit", Min: 1, Max: most}, limit)
}

// checkRange validates a command's numeric or duration flag against r: a
// value out of range is a usage error naming the flag and the range
// (docs/ranges.md lists them all).
func checkRange[T int | int64 | time.Duration](r config.Range[T], v T) error {
	if err := r.Check(v); err != nil {
		return usageError(err)
	}
	return nil
}

// note prints a confirmation or hint on stderr unless -q was given.
func note(f *Factory, format string, args ...any) {
	if !f.Quiet {
		fmt.Fprintf(f.IO.ErrOut, format+"\n", args...)
	}
}

// warn prints a warning a command got along with its result (a search
// API's, a fetched page's) on stderr unless -q was given.
func warn(f *Factory, code, message string) {
	if !f.Quiet {
		fmt.Fprintf(f.IO.ErrOut, "tavo: warning: %s: %s\n", code, message)
	}
}

// printJSON prints v as JSON, through --jq when given.
func printJSON(f *Factory, v any) error {
	if f.JQ != "" {
		jq, err := cli.NewJQ(f.JQ)
		if err != nil {
			return usageError(err)
		}
		var doc any
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return err
		}
		return jq.Apply(f.IO.Out, doc)
	}
	return cli.WriteJSON(f.IO.Out, v, f.IO.IsStdoutTTY())
}

// argOr returns args[0], or def when there is none (an optional NAME).
func argOr(args []string, def string) string {
	if len(args) > 0 {
		return args[0]
	}
	return def
}

// runOr runs a command's options through runF when a test supplied one, so
// the test sees the parsed options without running anything, else through
// the command's own run function.
func runOr[O any](runF func(*O) error, run func(*O) error, opts *O) error {
	if runF != nil {
		return runF(opts)
	}
	return run(opts)
}
