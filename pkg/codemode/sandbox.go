package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"modernc.org/quickjs"
)

// The default limits of one program (SPEC §12).
const (
	DefaultMemory  = 64 << 20
	DefaultCalls   = 64
	DefaultConsole = 16 << 10
)

// interruptEvery is how often a program whose context ended is
// interrupted again until it stops.
const interruptEvery = 5 * time.Millisecond

// CallFunc runs one tool call of a program: the tool's name and its
// arguments as a JSON object. It returns the tool's envelope as JSON,
// {"ok":true,"result":…} or {"ok":false,"error":{code,message,details}},
// which the program sees as the result or as a thrown Error. It runs on
// the program's goroutine and must return when ctx ends.
type CallFunc func(ctx context.Context, name string, args json.RawMessage) (envelope []byte)

// Limits bound one program; a zero field takes its default.
type Limits struct {
	// Memory bounds the runtime's heap in bytes (DefaultMemory).
	Memory int
	// Calls bounds the tool calls of one program (DefaultCalls).
	Calls int
	// Console bounds the console output kept, in bytes (DefaultConsole).
	Console int
}

func (l Limits) withDefaults() Limits {
	if l.Memory <= 0 {
		l.Memory = DefaultMemory
	}
	if l.Calls <= 0 {
		l.Calls = DefaultCalls
	}
	if l.Console <= 0 {
		l.Console = DefaultConsole
	}
	return l
}

// Program is one program to run.
type Program struct {
	// Code is the body of an async function: it may await and return.
	Code string
	// Call runs the tool calls; nil makes every call fail with unknown_tool.
	Call   CallFunc
	Limits Limits
}

// Result is what a program that ran to its end returned.
type Result struct {
	// Value is the return value as JSON (null for none).
	Value json.RawMessage
	// Console is what console.log and its kin printed, one line per call,
	// cut at Limits.Console (ConsoleTruncated is then set).
	Console          string
	ConsoleTruncated bool
	// Calls is the number of tool calls the program made.
	Calls int
}

// Run runs p in a fresh runtime and returns its result, or an *Error
// (code_error, limit_exceeded, timeout, cancelled). Console output and the
// number of calls are in the Result even when the program failed. When ctx
// ends the program is stopped at once, busy or waiting on a tool.
func Run(ctx context.Context, p Program) (*Result, error) {
	s := &sandbox{prog: p, limits: p.Limits.withDefaults(), ctx: ctx}
	res := &Result{}
	err := s.run()
	res.Console, res.ConsoleTruncated, res.Calls = s.console.String(), s.cut, s.calls
	if err != nil {
		return res, err
	}
	res.Value = s.value
	return res, nil
}

// sandbox is the state of one program's run.
type sandbox struct {
	prog   Program
	limits Limits
	ctx    context.Context
	vm     *quickjs.VM

	calls   int
	console strings.Builder
	cut     bool

	settled bool
	value   json.RawMessage
	failure *Error

	mu sync.Mutex
	// over is the limit the program passed, set when the host stopped it.
	over *Error
}

func (s *sandbox) run() error {
	if err := s.ctx.Err(); err != nil {
		return s.stopped()
	}
	vm, err := quickjs.NewVM()
	if err != nil {
		return errorf(CodeLimitExceeded, "the sandbox could not start: %v", err)
	}
	s.vm = vm
	defer vm.Close()
	vm.SetMemoryLimit(uintptr(s.limits.Memory))
	if err := s.register(); err != nil {
		return errorf(CodeLimitExceeded, "the sandbox could not start: %v", err)
	}

	// The watcher interrupts the program when ctx ends; Interrupt is the
	// one VM method safe from another goroutine. It repeats, because an
	// interrupt that arrives while a tool runs lapses when the engine call
	// that made the tool call returns, and the program may go on in the
	// next one (drain checks ctx between them too).
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-s.ctx.Done():
		case <-done:
			return
		}
		tick := time.NewTicker(interruptEvery)
		defer tick.Stop()
		for {
			vm.Interrupt()
			select {
			case <-tick.C:
			case <-done:
				return
			}
		}
	}()
	defer func() { close(done); wg.Wait() }()

	_, err = vm.Eval(prelude+"\n"+s.prog.Code+epilogue, quickjs.EvalGlobal)
	if err == nil {
		err = s.drain()
	}
	return s.outcome(err)
}

// drain runs the promise jobs until the program settles or nothing is left
// to run.
func (s *sandbox) drain() error {
	for !s.settled && s.ctx.Err() == nil && !s.isOver() {
		n, err := s.vm.ExecutePendingJobs()
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
	}
	return nil
}

// outcome decides how the program ended, from the most to the least
// specific cause: a stop from outside, a limit, a thrown error, a settled
// promise.
func (s *sandbox) outcome(err error) error {
	if s.ctx.Err() != nil {
		return s.stopped()
	}
	s.mu.Lock()
	over := s.over
	s.mu.Unlock()
	if over != nil {
		return over
	}
	if err != nil {
		return s.engineError(err)
	}
	if s.failure != nil {
		return s.failure
	}
	if !s.settled {
		return errorf(CodeError, "the program never finished: it awaited a promise that nothing resolves (only tools.NAME(...) calls complete in code mode)")
	}
	return nil
}

// stopped is the error of a program its context ended.
func (s *sandbox) stopped() error {
	if errors.Is(s.ctx.Err(), context.DeadlineExceeded) {
		return errorf(CodeTimeout, "the program did not finish in time and was stopped; tool calls it made before may have taken effect")
	}
	return errorf(CodeCancelled, "the program was cancelled before it finished; tool calls it made before may have taken effect")
}

// engineError maps an error of the engine itself: a syntax error, memory
// or stack exhausted, an uncatchable interrupt.
func (s *sandbox) engineError(err error) error {
	var qe *quickjs.Error
	if !errors.As(err, &qe) {
		return errorf(CodeError, "the program failed: %v", err)
	}
	if e := limitError(qe.Name, qe.Message); e != nil {
		return e
	}
	e := errorf(CodeError, "%s: %s", qe.Name, qe.Message)
	if qe.LineNumber > 0 {
		e.Details = position(qe.LineNumber, qe.ColumnNumber)
	} else if d := stackPosition(qe.Stack); d != nil {
		e.Details = d
	}
	return e
}

// limitError is the limit_exceeded error of an exhausted engine, nil for
// any other error.
func limitError(name, message string) *Error {
	if name != "InternalError" && name != "RangeError" {
		return nil
	}
	switch {
	case strings.Contains(message, "out of memory"), strings.Contains(message, "string too long"):
		return errorf(CodeLimitExceeded, "the program used more than its memory limit")
	case strings.Contains(message, "stack overflow"), strings.Contains(message, "Maximum call stack"):
		return errorf(CodeLimitExceeded, "the program recursed too deeply (stack overflow)")
	}
	return nil
}

// position is the details of a code_error: line and column in the
// program, whose first line is the script's second.
func position(line, column int) map[string]any {
	if line > 1 {
		line--
	}
	return map[string]any{"line": line, "column": column}
}

// stackPosition finds the first frame of the program in a stack trace
// ("    at f (<eval>:3:7)"); frames on line 1 are the prelude's.
func stackPosition(stack string) map[string]any {
	for _, frame := range strings.Split(stack, "\n") {
		i := strings.LastIndex(frame, "<eval>:")
		if i < 0 {
			continue
		}
		rest := strings.TrimRight(frame[i+len("<eval>:"):], ")")
		ls, cs, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		line, err1 := strconv.Atoi(ls)
		col, err2 := strconv.Atoi(cs)
		if err1 != nil || err2 != nil || line < 2 {
			continue
		}
		return position(line, col)
	}
	return nil
}

// register installs the host functions the prelude takes.
func (s *sandbox) register() error {
	if err := s.vm.RegisterHostFunc("__tavo_call", s.hostCall); err != nil {
		return err
	}
	if err := s.vm.RegisterHostFunc("__tavo_log", s.hostLog); err != nil {
		return err
	}
	return s.vm.RegisterHostFunc("__tavo_settle", s.hostSettle)
}

// hostCall runs one tool call: (name, argsJSON) → envelope JSON.
func (s *sandbox) hostCall(args []any) (any, error) {
	name, _ := arg(args, 0).(string)
	raw, _ := arg(args, 1).(string)
	if s.calls >= s.limits.Calls {
		s.stop(errorf(CodeLimitExceeded, "the program made more than %d tool calls; do less per program, or return what you have and continue in the next", s.limits.Calls))
		return nil, errors.New("too many tool calls")
	}
	s.calls++
	if s.prog.Call == nil {
		return envelopeError("unknown_tool", "there is no tool named "+strconv.Quote(name)), nil
	}
	env := s.prog.Call(s.ctx, name, json.RawMessage(raw))
	if !json.Valid(env) {
		return envelopeError("internal_error", "the tool's result could not be read"), nil
	}
	return string(env), nil
}

// isOver reports whether the program passed a limit.
func (s *sandbox) isOver() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.over != nil
}

// stop records the limit a program passed and interrupts it: it cannot
// catch a limit.
func (s *sandbox) stop(e *Error) {
	s.mu.Lock()
	if s.over == nil {
		s.over = e
	}
	s.mu.Unlock()
	s.vm.Interrupt()
}

// hostLog keeps one line of console output, up to the limit.
func (s *sandbox) hostLog(args []any) (any, error) {
	line, _ := arg(args, 0).(string)
	if s.cut {
		return nil, nil
	}
	left := s.limits.Console - s.console.Len()
	if len(line)+1 > left {
		s.cut = true
		s.console.WriteString(cutUTF8(line, left))
		return nil, nil
	}
	s.console.WriteString(line)
	s.console.WriteByte('\n')
	return nil, nil
}

// hostSettle receives how the program's promise settled: (true, valueJSON)
// or (false, descriptionJSON).
func (s *sandbox) hostSettle(args []any) (any, error) {
	ok, _ := arg(args, 0).(bool)
	payload, _ := arg(args, 1).(string)
	s.settled = true
	if ok {
		if !json.Valid([]byte(payload)) {
			s.failure = errorf(CodeError, "the return value could not be turned into JSON")
			return nil, nil
		}
		s.value = json.RawMessage(payload)
		return nil, nil
	}
	s.failure = thrown(payload)
	return nil, nil
}

// thrown maps the prelude's description of a rejection to an *Error.
func thrown(payload string) *Error {
	var d struct {
		Name, Message, Stack, Code string
		Thrown, NotJSON            *string
	}
	if err := json.Unmarshal([]byte(payload), &d); err != nil {
		return errorf(CodeError, "the program failed with an error that could not be read")
	}
	switch {
	case d.NotJSON != nil:
		return errorf(CodeError, "the return value cannot be turned into JSON (%s); return plain data: objects, arrays, strings, numbers, booleans, null", *d.NotJSON)
	case d.Thrown != nil:
		return errorf(CodeError, "the program threw a value that is not an Error: %s", clip(*d.Thrown, 500))
	}
	if e := limitError(d.Name, d.Message); e != nil {
		return e
	}
	e := errorf(CodeError, "%s: %s", d.Name, clip(d.Message, 2000))
	e.Details = stackPosition(d.Stack)
	if d.Code != "" {
		// A tool error the program did not catch: keep its code.
		if e.Details == nil {
			e.Details = map[string]any{}
		}
		e.Details["error_code"] = d.Code
		e.Message = "uncaught tool error " + d.Code + ": " + clip(d.Message, 2000)
	}
	return e
}

func arg(args []any, i int) any {
	if i < len(args) {
		return args[i]
	}
	return nil
}

// envelopeError is a tool envelope for a call that could not run.
func envelopeError(code, message string) string {
	b, _ := json.Marshal(map[string]any{"ok": false, "error": map[string]string{"code": code, "message": message}})
	return string(b)
}

// cutUTF8 cuts s to at most n bytes without splitting a character.
func cutUTF8(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// clip cuts s to n bytes with an ellipsis.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return cutUTF8(s, n) + "…"
}
