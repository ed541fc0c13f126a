package runner

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/tavo-cli/tavo/pkg/tools"
)

// NewConfirmer returns who decides on tools that need confirmation: --yes
// allows every call; else a driver under --input ndjson (confirm.request /
// confirm.result); else a prompt on the terminal; else every call is denied
// (permission_denied), because nobody can be asked.
func NewConfirmer(yes bool, src AskSources) tools.Confirmer {
	switch {
	case yes:
		return allowAll{}
	case src.Driver != nil:
		return driverConfirmer{d: src.Driver}
	case src.Terminal != nil:
		return &terminalConfirmer{open: src.Terminal}
	}
	return denyAll{}
}

type allowAll struct{}

func (allowAll) Confirm(context.Context, tools.ConfirmRequest) (tools.Confirmation, error) {
	return tools.Confirmation{Allow: true, Via: "flag"}, nil
}

type denyAll struct{}

func (denyAll) Confirm(context.Context, tools.ConfirmRequest) (tools.Confirmation, error) {
	return tools.Confirmation{Allow: false, Via: "none"}, nil
}

type driverConfirmer struct{ d *Driver }

func (c driverConfirmer) Confirm(ctx context.Context, req tools.ConfirmRequest) (tools.Confirmation, error) {
	v, err := c.d.decision(ctx, req.CallID)
	if err != nil {
		return tools.Confirmation{}, err
	}
	if v == "" {
		return tools.Confirmation{Allow: false, Via: "none"}, nil
	}
	return tools.Confirmation{Allow: v == "allow", Via: "driver"}, nil
}

// terminalConfirmer asks y/N on the controlling terminal; anything but yes
// (and end of input) denies.
type terminalConfirmer struct {
	open func() (io.ReadWriteCloser, error)
	mu   sync.Mutex
}

func (c *terminalConfirmer) Confirm(ctx context.Context, req tools.ConfirmRequest) (tools.Confirmation, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tty, err := c.open()
	if err != nil {
		return tools.Confirmation{Allow: false, Via: "none"}, nil
	}
	defer tty.Close()
	stop := context.AfterFunc(ctx, func() { tty.Close() })
	defer stop()
	name := req.Tool
	if req.DisplayName != "" {
		name = fmt.Sprintf("%s (%s)", req.DisplayName, req.Tool)
	}
	args := string(req.Arguments)
	if len(args) > 500 {
		args = args[:500] + "…"
	}
	who := "The model"
	if req.Title != "" {
		who = "[" + req.Title + "] The sub-agent"
	}
	fmt.Fprintf(tty, "\n! %s wants to run %s [%s] with:\n  %s\n  Allow? [y/N] ", who, name, req.ToolID, args)
	line, ok, err := (&lineSource{r: bufio.NewReader(tty)}).readLine(ctx)
	if err != nil {
		return tools.Confirmation{}, err
	}
	answer := strings.ToLower(strings.TrimSpace(line))
	allow := ok && (answer == "y" || answer == "yes")
	return tools.Confirmation{Allow: allow, Via: "terminal"}, nil
}
