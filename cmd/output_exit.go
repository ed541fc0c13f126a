package cmd

import (
	"errors"
	"fmt"

	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/events"
)

// outputExit decides the exit code of a command whose output failed, for
// every command alike (docs/events.md, "Output that cannot be written"):
//
//   - standard output could not be written (a full disk, /dev/full): one
//     line on stderr, exit 1, even when the command thought it succeeded;
//   - standard output was a pipe whose reader went away (`| head -1`):
//     nothing on stderr, exit 141, as a process killed by SIGPIPE;
//   - a --jq filter failed while it ran: its error, exit 1 (an expression
//     that does not compile is a usage error, exit 2, reported before).
//
// A command that already reported and chose its exit code (a run's
// run.completed) keeps it. ok is false when the output did not fail.
func outputExit(f *Factory, err error) (code int, ok bool) {
	var ee *ExitError
	reported := errors.As(err, &ee) && ee.Err == nil
	if werr := f.IO.OutErr(); werr != nil {
		switch {
		case reported:
			return ee.Code, true
		case cli.IsClosedPipe(werr):
			return events.ExitClosedPipe, true
		}
		printError(f, fmt.Errorf("writing standard output: %w", werr))
		return events.ExitFailed, true
	}
	var je *cli.JQError
	if errors.As(err, &je) {
		printError(f, je)
		return events.ExitFailed, true
	}
	return 0, false
}
