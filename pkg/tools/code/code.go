// Package code is tavo_code, the one tool of code mode (SPEC §12): the
// model writes a JavaScript program that calls the run's other tools and
// returns only what matters. The program runs in pkg/codemode's sandbox;
// its calls go through the run's own path (tools.Env.CallInner); its
// return value comes back through the executor like any result, so the one
// exit of SPEC §11 applies to it, and its top-level attachments array
// carries media out.
package code

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tavo-cli/tavo/pkg/codemode"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// Name is the model-facing name of the tool.
const Name = "tavo_code"

// DirectOnly are the tools a program may not call: tavo_code itself and
// the end-of-turn tools that end the model's turn (SPEC §14), which the
// model calls directly.
var DirectOnly = []string{Name, "tavo_finish", "tavo_wait"}

// Options configure tavo_code for one run.
type Options struct {
	// Catalog is the run's catalog: the tools programs call, and those
	// tavo_code's description lists.
	Catalog *tools.Catalog
	// Direct are the tools the model calls directly (code_mode_direct);
	// the description lists the others.
	Direct []string
	// Timeout is a program's wall clock (code_timeout); 0 is
	// DefaultTimeout. Time waiting for a person does not count.
	Timeout time.Duration
	// Limits bound each program (memory, calls, console).
	Limits codemode.Limits
}

// DefaultTimeout is a program's wall clock when Options.Timeout is 0.
const DefaultTimeout = 30 * time.Second

// Tool is tavo_code.
type Tool struct {
	opts Options
	desc func() string
}

// New returns tavo_code. Its description lists the catalog's tools as they
// are when the model is first sent it.
func New(o Options) *Tool {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	t := &Tool{opts: o}
	t.desc = sync.OnceValue(func() string { return Describe(o.Catalog, o.Direct, o.Timeout, o.Limits) })
	return t
}

const schema = `{
  "type": "object",
  "properties": {
    "code": {"type": "string", "minLength": 1, "description": "The body of an async JavaScript function: await tools.NAME({...}) calls, then return the result."}
  },
  "required": ["code"],
  "additionalProperties": false
}`

// Spec describes tavo_code; it is resident.
func (t *Tool) Spec() tools.Spec {
	return tools.Spec{Name: Name, ID: Name, Description: t.desc(), Parameters: json.RawMessage(schema), Resident: true, Source: tools.SourceBuiltin}
}

// CallTimeout is a program's wall clock: it replaces the run's per-call
// timeout for tavo_code (tools.CallTimeouter).
func (t *Tool) CallTimeout() time.Duration { return t.opts.Timeout }

// Run runs one program.
func (t *Tool) Run(ctx context.Context, call *tools.Call) (any, error) {
	var a struct {
		Code string `json:"code"`
	}
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	if call.Env == nil || call.Env.CallInner == nil {
		return nil, tools.Errorf(tools.CodeInternalError, "code mode is not available in this run")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var inputRequired bool
	n := 0
	prog := codemode.Program{Code: a.Code, Limits: t.opts.Limits}
	prog.Call = func(pctx context.Context, name string, args json.RawMessage) []byte {
		n++
		if isDirectOnly(name) {
			return []byte(tools.ErrorOutcome(name, tools.Errorf(tools.CodeUnknownTool,
				strconv.Quote(name)+" cannot be called from code; call it directly")).Envelope)
		}
		// Media the program's tools return start no lifetime: only the
		// attachments of its return value go to the model.
		pctx = resources.WithAttachments(pctx, nil)
		out := call.Env.CallInner(pctx, call, providers.ToolCall{ID: call.ID + "/" + strconv.Itoa(n), Name: name, Arguments: string(args)})
		if out.InputRequired {
			inputRequired = true
			cancel()
		}
		return []byte(out.Envelope)
	}
	res, err := codemode.Run(ctx, prog)
	if inputRequired {
		return nil, tools.ErrInputRequired
	}
	if err != nil {
		return nil, programError(err, res)
	}
	value, err := t.attachments(ctx, call.Env, res.Value)
	if err != nil {
		return nil, err
	}
	if res.Console == "" {
		return value, nil
	}
	out := map[string]any{"return": value, "console": res.Console}
	if res.ConsoleTruncated {
		out["console_truncated"] = true
	}
	return out, nil
}

// programError is the tool error of a program that failed, with what it
// printed and how many calls it made (they may have taken effect).
func programError(err error, res *codemode.Result) error {
	var ce *codemode.Error
	if !errors.As(err, &ce) {
		return err
	}
	te := &tools.Error{Code: ce.Code, Message: ce.Message, Details: map[string]any{}}
	for k, v := range ce.Details {
		te.Details[k] = v
	}
	if res != nil {
		te.Details["calls"] = res.Calls
		if res.Console != "" {
			te.Details["console"] = res.Console
		}
	}
	return te
}

func isDirectOnly(name string) bool { return slices.Contains(DirectOnly, name) }

// Describe is tavo_code's description: how to write a program, then one
// compact line per tool a program may call that the model does not call
// directly: name(arguments, optional?): what it does.
func Describe(cat *tools.Catalog, direct []string, timeout time.Duration, l codemode.Limits) string {
	l = limitsOrDefault(l)
	var b strings.Builder
	fmt.Fprintf(&b, "Run JavaScript, the body of an async function: `await tools.NAME({...})` returns a tool's result; "+
		"a tool error throws an Error with code and message. Return only what you need, as JSON; console.log output "+
		"comes back as {return, console}. A top-level `attachments` array returns media (tavo_read media nodes, MCP "+
		"image blocks; optional lifetime). Each call is a new program; no files, network, timers or clock but tools; "+
		"%s, %d MiB, %d calls.\nTools (arg? optional; a line `p_: a(x), b()` lists p_a and p_b):", seconds(timeout), l.Memory>>20, l.Calls)
	skip := map[string]bool{}
	for _, n := range append(direct, DirectOnly...) {
		skip[n] = true
	}
	// Tools of one family (tavo_file_save, tavo_file_load…; an MCP
	// server's server__tool) share one line: their names say what they
	// do, and the list stays within 2 KB as families grow. A tool alone
	// in its family keeps a one-line summary.
	var order []string
	families := map[string][]tools.Spec{}
	for _, s := range cat.Specs() {
		if skip[s.Name] {
			continue
		}
		f := family(s.Name)
		if _, ok := families[f]; !ok {
			order = append(order, f)
		}
		families[f] = append(families[f], s)
	}
	for _, f := range order {
		members := families[f]
		if len(members) == 1 {
			s := members[0]
			b.WriteString("\n" + s.Name + "(" + strings.Join(argNames(s.Parameters), ", ") + ")")
			if line := summary(s.Description); line != "" {
				b.WriteString(": " + line)
			}
			continue
		}
		b.WriteString("\n" + f + ":")
		for i, s := range members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(" " + strings.TrimPrefix(s.Name, f) + "(" + strings.Join(argNames(s.Parameters), ", ") + ")")
		}
	}
	return b.String()
}

func limitsOrDefault(l codemode.Limits) codemode.Limits {
	if l.Memory <= 0 {
		l.Memory = codemode.DefaultMemory
	}
	if l.Calls <= 0 {
		l.Calls = codemode.DefaultCalls
	}
	return l
}

// argNames are the top-level properties of an object schema, required ones
// first, the others marked with "?".
func argNames(raw json.RawMessage) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	req := map[string]bool{}
	var names []string
	for _, r := range s.Required {
		if _, ok := s.Properties[r]; ok && !req[r] {
			req[r] = true
			names = append(names, r)
		}
	}
	var opt []string
	for k := range s.Properties {
		if !req[k] {
			opt = append(opt, k+"?")
		}
	}
	slices.Sort(opt)
	return append(names, opt...)
}

// maxSummary bounds the few words that say what a listed tool does: the
// list of built-ins must stay within 2 KB (docs/performance.md).
const maxSummary = 36

// summary is the first clause of a description, cut to maxSummary.
func summary(desc string) string {
	desc = strings.Join(strings.Fields(desc), " ")
	for _, sep := range []string{". ", ", ", " (", ": ", "; "} {
		if i := strings.Index(desc, sep); i >= 0 {
			desc = desc[:i]
		}
	}
	desc = strings.TrimSuffix(desc, ".")
	if len(desc) <= maxSummary {
		return desc
	}
	cut := strings.LastIndexByte(desc[:maxSummary], ' ')
	if cut < maxSummary/2 {
		cut = maxSummary
		for cut > 0 && desc[cut]&0xC0 == 0x80 {
			cut--
		}
	}
	return desc[:cut] + "…"
}

// family is the part of a tool's name its family shares: up to the last
// "__" of an MCP tool (its server), else up to the last "_" after the
// first word (tavo_file_save → tavo_file_); "" for a name with neither.
func family(name string) string {
	if i := strings.LastIndex(name, "__"); i > 0 {
		return name[:i+2]
	}
	first := strings.IndexByte(name, '_')
	if i := strings.LastIndexByte(name, '_'); i > first && first >= 0 {
		return name[:i+1]
	}
	return name
}

// seconds renders a timeout: "30 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}
