//go:build windows

package cli

import (
	"fmt"
	"io"
	"os"
)

// console joins the console's input and output handles into one
// ReadWriteCloser, Windows' equivalent of /dev/tty.
type console struct {
	in, out *os.File
}

func (c *console) Read(p []byte) (int, error)  { return c.in.Read(p) }
func (c *console) Write(p []byte) (int, error) { return c.out.Write(p) }

func (c *console) Close() error {
	errIn := c.in.Close()
	if errOut := c.out.Close(); errOut != nil {
		return errOut
	}
	return errIn
}

func openTTY() (io.ReadWriteCloser, error) {
	in, err := os.OpenFile("CONIN$", os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNoTerminal, err)
	}
	out, err := os.OpenFile("CONOUT$", os.O_RDWR, 0)
	if err != nil {
		in.Close()
		return nil, fmt.Errorf("%w (%v)", ErrNoTerminal, err)
	}
	return &console{in: in, out: out}, nil
}
