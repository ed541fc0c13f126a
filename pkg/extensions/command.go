package extensions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// Command tool defaults and limits.
const (
	// DefaultCommandTimeout bounds a call when the tool sets no timeout.
	DefaultCommandTimeout = 60 * time.Second
	// MaxStdout is how much of a command's stdout is kept; the rest is read
	// and thrown away so the command never blocks on a full pipe. What is
	// kept reaches the model through the one exit (SPEC §11): archived whole
	// when it passes the text budget, read on by URL.
	MaxStdout = 16 << 20
	// stderrTail is how much of the end of stderr a failure reports.
	stderrTail = 2 << 10
	// waitDelay is how long tavo waits for the pipes to close after the
	// command exited or was killed (a background child may hold them).
	waitDelay = 2 * time.Second
)

// defaultSchema is the argument schema of a command tool that declares none.
const defaultSchema = `{"type":"object"}`

// CommandTool runs a local program: the call's arguments go to its stdin as
// JSON, its stdout is the result (JSON when it parses, else text), a
// non-zero exit is an upstream_error carrying the end of stderr, and a call
// that outlives the timeout has its whole process group killed and reports
// that its result is unknown.
type CommandTool struct {
	spec    tools.Spec
	argv    []string
	env     []string
	timeout time.Duration
	// procs records the command's process group while it runs; nil
	// records nothing.
	procs *ProcRegistry
}

// NewCommandTool returns the command tool name declared by c. getenv reads
// tavo's environment, for $VAR references in c.Env and for the base
// variables a command gets (see processEnv).
func NewCommandTool(name string, c *config.CommandTool, getenv func(string) string) (*CommandTool, error) {
	if c == nil || len(c.Command) == 0 || c.Command[0] == "" {
		return nil, fmt.Errorf("command tool %q: command is required", name)
	}
	schema := strings.TrimSpace(c.Schema)
	if schema == "" {
		schema = defaultSchema
	}
	if !json.Valid([]byte(schema)) {
		return nil, fmt.Errorf("command tool %q: schema is not valid JSON", name)
	}
	timeout := DefaultCommandTimeout
	if c.Timeout != "" {
		d, err := time.ParseDuration(c.Timeout)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("command tool %q: timeout %q is not a positive duration such as \"30s\"", name, c.Timeout)
		}
		timeout = d
	}
	desc := strings.TrimSpace(c.Description)
	if desc == "" {
		desc = "Run the local command " + filepath.Base(c.Command[0]) + "."
	}
	return &CommandTool{
		spec: tools.Spec{
			Name:         name,
			ID:           CommandID(name),
			Description:  desc,
			Parameters:   json.RawMessage(schema),
			NeedsConfirm: c.Confirm,
			Source:       tools.SourceCommand,
			DisplayName:  c.DisplayName,
		},
		argv:    append([]string(nil), c.Command...),
		env:     processEnv(c.Env, getenv),
		timeout: timeout,
	}, nil
}

// Spec describes the tool.
func (t *CommandTool) Spec() tools.Spec { return t.spec }

// Timeout is the tool's own limit on one call.
func (t *CommandTool) Timeout() time.Duration { return t.timeout }

// Run runs the command once with the call's arguments on stdin.
func (t *CommandTool) Run(ctx context.Context, call *tools.Call) (any, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, t.timeout, errCommandTimeout)
	defer cancel()

	cmd := exec.CommandContext(ctx, t.argv[0], t.argv[1:]...)
	cmd.Env = append(append([]string(nil), t.env...), callEnv(call)...)
	cmd.Stdin = bytes.NewReader(call.Args)
	stdout := &cappedBuffer{max: MaxStdout}
	stderr := &tailBuffer{max: stderrTail}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// The command leads a process group of its own, so that a timeout stops
	// its children too, not only the process tavo started.
	setProcessGroup(cmd)
	cmd.Cancel = func() error { return killProcessGroup(cmd) }
	cmd.WaitDelay = waitDelay
	// Should tavo be killed outright, the kernel kills the command
	// (parent-death signal) and the next tavo kills the rest of its group
	// (ProcRegistry.Sweep). The signal fires when the thread that started
	// the command ends, so this goroutine keeps its thread until the
	// command is done; the runtime never ends a thread in use.
	setParentDeathSignal(cmd)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	err := cmd.Start()
	if err == nil {
		done := t.procs.add(cmd.Process.Pid)
		err = cmd.Wait()
		done()
	}
	if err == nil || errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState != nil && cmd.ProcessState.Success() {
		return commandResult(stdout), nil
	}
	if ctx.Err() != nil {
		if errors.Is(context.Cause(ctx), errCommandTimeout) {
			return nil, &tools.Error{Code: tools.CodeTimeout, Message: fmt.Sprintf(
				"the command did not finish within %s and was stopped with its child processes; its result is unknown "+
					"(it may or may not have taken effect) and it was not re-run", t.timeout)}
		}
		return nil, ctx.Err()
	}
	return nil, t.failure(cmd, err, stderr.String())
}

// errCommandTimeout is the cause of a call cut by the tool's own timeout.
var errCommandTimeout = errors.New("command tool timeout")

// failure phrases a command that could not start or did not exit 0.
func (t *CommandTool) failure(cmd *exec.Cmd, err error, tail string) *tools.Error {
	prog := filepath.Base(t.argv[0])
	var ee *exec.ExitError
	if !errors.As(err, &ee) || cmd.ProcessState == nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, syscall.ENOENT) {
			return tools.Errorf(tools.CodeUpstreamError, fmt.Sprintf("the command %q could not be started: it was not found", prog))
		}
		return tools.Errorf(tools.CodeUpstreamError, fmt.Sprintf("the command %q could not be started or read", prog))
	}
	st := cmd.ProcessState
	msg := fmt.Sprintf("the command %q exited with status %d", prog, st.ExitCode())
	details := map[string]any{"exitCode": st.ExitCode()}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		msg = fmt.Sprintf("the command %q was killed by signal %s", prog, ws.Signal())
		details = map[string]any{"signal": ws.Signal().String()}
	}
	if tail = strings.TrimSpace(tail); tail != "" {
		msg += "; the end of its stderr: " + tail
	} else {
		msg += " and wrote nothing to stderr"
	}
	return &tools.Error{Code: tools.CodeUpstreamError, Message: msg, Details: details}
}

// commandResult is stdout as the model sees it: a JSON value when the whole
// output parses as JSON, else text (invalid UTF-8 replaced), marked when the
// command wrote more than MaxStdout.
func commandResult(out *cappedBuffer) any {
	b := bytes.TrimSpace(out.buf.Bytes())
	if !out.dropped && len(b) > 0 && json.Valid(b) {
		return json.RawMessage(b)
	}
	text := string(b)
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	if out.dropped {
		text += fmt.Sprintf("\n[output truncated: the command wrote %d bytes; only the first %d were kept]", out.total, len(out.buf.Bytes()))
	}
	return text
}
