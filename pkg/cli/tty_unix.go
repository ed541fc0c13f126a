//go:build !windows

package cli

import (
	"fmt"
	"io"
	"os"
)

// openTTY opens /dev/tty, which fails when the process has no controlling
// terminal (setsid, CI runners, cron).
func openTTY() (io.ReadWriteCloser, error) {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNoTerminal, err)
	}
	return f, nil
}
