// Package runner is tavo's model loop: rounds of model requests and the tool
// calls they ask for, the limits of a run (rounds, tool calls, time), the
// reasoning-context modes, and how a run ends.
package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/httpx"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/turn"
)

// Options configure one run.
type Options struct {
	Provider providers.Provider
	// ProfileName and ProviderName are reported in run.started.
	ProfileName string
	Model       string
	System      string
	// History is the earlier conversation (a continued session).
	History []providers.Message
	// Prompt is the new user message.
	Prompt providers.Message

	// Catalog holds every tool this run may use; nil or ToolsEnabled false
	// means the model gets no tools.
	Catalog      *tools.Catalog
	ToolsEnabled bool
	// DynamicTools sends only resident tools and tavo_tool_search first.
	DynamicTools bool
	// CodeModeTools, when not nil, is code mode (SPEC §12): the model is
	// sent only these tools (tavo_code and the direct ones, those the
	// catalog has), tool search reveals nothing, and every other tool is
	// callable only from code, through Env.CallInner (inner.go).
	CodeModeTools []string

	// MaxRounds, MaxToolCalls and ToolTimeout are the run's limits. The
	// runner has no defaults of its own: the caller decides them
	// (config.ResolveRun owns tavo's defaults), and a run whose limits are
	// not all positive fails at once with internal_error.
	MaxRounds       int
	MaxToolCalls    int
	ToolTimeout     time.Duration
	Reasoning       ReasoningContext
	Stream          bool
	MaxOutputTokens int
	Params          map[string]any
	// Prices, when set, add cost_usd to usage.
	Prices *Prices
	// Schema, when set, requires a final answer that is JSON valid against
	// it; one repair is asked for when it is not (--schema).
	Schema *OutputSchema

	// Asker answers tavo_ask_user; nil answers "cancelled".
	Asker tools.Asker
	// Confirmer decides on tools that need confirmation; nil denies them.
	Confirmer tools.Confirmer
	// Guidance delivers driver guidance, added before the next model request.
	Guidance <-chan string
	// Children, when set, are the run's sub-agents (pkg/agents): their
	// notices join the conversation before each request, a final answer
	// given while some still run waits for them and gets one more round,
	// and those still running when the run ends are stopped, leaves first,
	// before its run.completed, which counts their usage.
	Children Children
	// Attachments, when set, are images the next requests carry (a profile
	// with vision = true); tools find them in the run's context
	// (resources.WithAttachments).
	Attachments *resources.Attachments

	Emitter *events.Emitter
	// BeforeCompleted, when set, runs just before run.completed is
	// emitted, whatever ends the run (the driver's last warnings).
	BeforeCompleted func()
	RunID           string
	SessionID       string
	// Resume is the command that continues this session, for run.completed.
	Resume string
	// Started adds what run.started reports beyond the options above:
	// base URL, system prompt as given, allow-list, sources, resumed run.
	Started StartInfo
	// Pending, when set, continues a run that stopped inside a round
	// (tavo runs resume): its calls run first, and no new prompt is added.
	Pending *Pending

	// OnMessages stores messages as they complete: after each round (the
	// assistant message and its tool results; the prompt with the first),
	// and what remains when the run ends. An error fails the run.
	OnMessages func(round int, msgs []providers.Message) error
	// Compactor shrinks History when a request would not fit ContextBudget
	// (estimated tokens) or the provider reports context_overflow (once).
	Compactor     Compactor
	ContextBudget int
	Now           func() time.Time
	// AfterTurn, when set, is asked after each turn whether the run goes
	// on (a goal, SPEC §14): a turn is the model loop up to a final answer
	// or an end-of-turn action. The round and tool-call limits apply per
	// turn; the run's context (--timeout) to all of them.
	AfterTurn func(ctx context.Context, end TurnEnd) TurnNext
	// AfterStarted, when set, runs just after run.started is emitted (a
	// goal's goal.updated "created" follows it).
	AfterStarted func()
}

// TurnEnd is how one turn of a run ended.
type TurnEnd struct {
	// Turn counts the run's turns from 1.
	Turn int
	// Status is the turn's status: completed, or the limit it stopped at.
	Status string
	Text   string
	// Action is the end-of-turn action that ended it (turn.Action*), ""
	// for a final answer.
	Action string
	// WakeAt is the wake-up tavo_wait declared.
	WakeAt *time.Time
	// Calls are the tool calls the turn ran, in order.
	Calls []TurnCall
}

// TurnCall is one tool call a turn ran: its name and how it ended.
type TurnCall struct {
	Name string
	OK   bool
	// Code is the error code of a call that failed.
	Code string
}

// TurnNext is what a run does after a turn.
type TurnNext struct {
	// Prompt, when not empty, starts another turn with it as a user message.
	Prompt string
	// Status, when set (and Prompt is not), ends the run with it and Err.
	Status string
	Err    *events.ErrorInfo
	// Usage is what deciding cost (a judge request); it counts in the run's.
	Usage providers.Usage
}

// Prices are per-million-token prices in USD.
type Prices struct {
	InputPerMTok       float64
	OutputPerMTok      float64
	CachedInputPerMTok float64
}

// Result is how a run ended.
type Result struct {
	Status   string
	ExitCode int
	Text     string
	// Messages are the messages this run added to the conversation (the
	// prompt, assistant turns, tool results), in order.
	Messages  []providers.Message
	Usage     providers.Usage
	Rounds    int
	ToolCalls events.ToolCallCounts
	Err       *events.ErrorInfo
	// Structured is the parsed answer under Options.Schema.
	Structured any
	// WakeAt is when the session should be woken again: set when the
	// run's last turn ended with tavo_wait (status waiting).
	WakeAt *time.Time
}

// StopCause is the cause a caller gives when it cancels a run's context
// (a signal, a driver's cancel line, output that cannot be written), so the
// run reports the right status and exit code.
type StopCause struct {
	Reason   string
	ExitCode int
	// Status and Code are run.completed's status and error code; empty
	// means "cancelled" for both.
	Status, Code string
}

func (s *StopCause) Error() string { return s.Reason }

type run struct {
	opts   Options
	start  time.Time
	msgs   []providers.Message
	added  int // index in msgs where this run's messages start
	vis    *tools.Visibility
	exec   *tools.Executor
	env    *tools.Env
	usage  providers.Usage
	tools  toolUsage // model requests tools made for the run
	counts events.ToolCallCounts
	// countMu guards counts: a code-mode program's calls (inner.go) are
	// counted from the tool's goroutine.
	countMu    sync.Mutex
	round      int
	requests   int // model requests sent
	lastText   string
	stored     int     // index in msgs up to which OnMessages has seen them
	ratio      float64 // provider tokens per estimated token
	repaired   bool    // the one --schema repair was asked for
	structured any
	compacted  bool
	// limit is set once the run hit --max-rounds or --max-tool-calls: the
	// next request is its last, sent with tool calls turned off, and the run ends with
	// this status whatever the model answers.
	limit *Result
	// final is set while that last request is built and sent.
	final bool
	// ranTools is set when the latest response asked for tools.
	ranTools bool
	// carried are tool results of the round being completed by a resumed
	// run, which open the next tool message.
	carried []providers.Part
	// subagents is each sub-agent run's usage, for run.completed.
	subagents []events.SubagentUsage
	// ctl is where end-of-turn tools say the turn is over; turns counts
	// the turns, turnFirst is the first round of the current one and
	// turnCalls the tool calls made before it (limits apply per turn).
	ctl       *turn.Control
	turns     int
	turnFirst int
	turnCalls int
	// turnTools are the calls run in the current turn, for AfterTurn.
	turnTools []TurnCall
}

// Run executes the model loop once and always emits exactly one run.completed
// event, whatever happens.
func Run(ctx context.Context, opts Options) (res *Result) {
	r := newRun(opts)
	ctx = turn.WithControl(ctx, r.ctl)
	if opts.Attachments != nil {
		// Tools that produce images queue them here.
		ctx = resources.WithAttachments(ctx, opts.Attachments)
	}
	defer func() {
		// A bug must not cost a script its run.completed: report it as an
		// internal failure instead of dying mid-stream.
		if p := recover(); p != nil {
			res = r.failed("internal_error", fmt.Sprintf("internal error: %v", p))
		}
		r.endChildren(res)
		if err := r.store(); err != nil && res.Status == events.StatusCompleted {
			res = r.failed("store_failed", err.Error())
		}
		if r.opts.BeforeCompleted != nil {
			r.opts.BeforeCompleted()
		}
		r.complete(res)
	}()
	return r.loop(ctx)
}

func newRun(opts Options) *run {
	if opts.Reasoning == "" {
		opts.Reasoning = ReasoningOff
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	r := &run{opts: opts, start: opts.Now(), ctl: &turn.Control{}, turnFirst: 1}
	r.msgs = append([]providers.Message(nil), opts.History...)
	// A prompt without parts adds no user message: the run continues the
	// history as it stands (a resumed run).
	if len(opts.Prompt.Parts) > 0 {
		r.msgs = append(r.msgs, opts.Prompt)
	}
	r.added = len(opts.History)
	r.stored = r.added
	if r.toolsOn() {
		r.vis = tools.NewVisibility(r.initialTools()...)
		r.exec = &tools.Executor{
			Catalog: opts.Catalog,
			Timeout: opts.ToolTimeout,
			Budget:  tools.NewBudget(tools.MaxResultBytes, tools.MaxRunResultBytes),
		}
	}
	r.env = &tools.Env{
		RunID:      opts.RunID,
		SessionID:  opts.SessionID,
		Asker:      opts.Asker,
		Confirmer:  opts.Confirmer,
		Emit:       func(t string, p any) { r.emit(events.Type(t), p) },
		Visibility: r.vis,
		Catalog:    opts.Catalog,
		OnUsage:    r.tools.add,
		CallInner:  r.callInner,
	}
	if names := r.codeModeTools(); len(names) > 0 && names[0] == r.opts.CodeModeTools[0] {
		// tavo_code leads the code-mode tools (inner.go).
		r.env.CodeTool = names[0]
	}
	return r
}

// toolUsage totals the usage of model requests tools make on the run's
// behalf. It has its own lock: a tool runs on its own goroutine, and one
// abandoned at its timeout may still report after the round moved on.
type toolUsage struct {
	mu    sync.Mutex
	total providers.Usage
}

func (t *toolUsage) add(u providers.Usage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total = t.total.Add(u)
}

func (t *toolUsage) sum() providers.Usage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total
}

func (r *run) toolsOn() bool { return r.opts.ToolsEnabled && r.opts.Catalog != nil }

// initialTools are the tools visible in the first request: under dynamic
// loading tool search and the resident tools, else every tool.
func (r *run) initialTools() []string {
	if r.opts.CodeModeTools != nil {
		return r.codeModeTools()
	}
	var names []string
	for _, s := range r.opts.Catalog.Specs() {
		if !r.opts.DynamicTools || s.Resident || s.Name == tools.ToolSearchName {
			names = append(names, s.Name)
		}
	}
	// tavo_tool_search leads the list, as the model sees it first.
	for i, n := range names {
		if n == tools.ToolSearchName && i > 0 {
			copy(names[1:i+1], names[:i])
			names[0] = tools.ToolSearchName
		}
	}
	return names
}

func (r *run) emit(t events.Type, payload any) {
	if r.opts.Emitter != nil {
		r.opts.Emitter.Emit(t, payload)
	}
}

func (r *run) loop(ctx context.Context) *Result {
	var visible []string
	if r.vis != nil {
		visible = r.vis.Visible()
	}
	r.emit(events.RunStarted, events.RunStartedP{
		SessionID:        r.opts.SessionID,
		Profile:          r.opts.ProfileName,
		Provider:         string(r.providerName()),
		Model:            r.opts.Model,
		Tools:            nonNil(visible),
		DynamicTools:     r.toolsOn() && r.opts.DynamicTools,
		MaxRounds:        r.opts.MaxRounds,
		ReasoningContext: string(r.opts.Reasoning),
		BaseURL:          r.opts.Started.BaseURL,
		System:           r.opts.Started.System,
		AllowTools:       r.opts.Started.AllowTools,
		Sources:          r.opts.Started.Sources,
		ResumedFrom:      r.opts.Started.ResumedFrom,
	})
	if r.opts.AfterStarted != nil {
		r.opts.AfterStarted()
	}
	if err := r.opts.checkLimits(); err != nil {
		return r.failed("internal_error", err.Error())
	}
	for r.round = 1; ; r.round++ {
		if res := r.stopped(ctx); res != nil {
			return res
		}
		if r.vis != nil && r.opts.CodeModeTools == nil {
			if added := r.vis.Advance(); len(added) > 0 {
				r.emit(events.ToolsVisible, events.ToolsVisibleP{Added: added, Reason: "tool_search"})
			}
		}
		r.takeGuidance()
		r.takeNotes()
		if r.limit == nil && r.turnRound() == r.opts.MaxRounds && r.ranTools {
			// The round before asked for tools and this request is the last
			// allowed: tool calls turned off, so the model answers with what it has.
			r.limit = r.result(events.StatusMaxRounds, &events.ErrorInfo{
				Code:    "max_rounds",
				Message: fmt.Sprintf("the run reached --max-rounds %d: the last round was sent with tool calls turned off (raise --max-rounds)", r.opts.MaxRounds),
			})
		}
		r.final = r.limit != nil
		r.emit(events.RoundStarted, events.RoundStartedP{Round: r.round})
		if res := r.runPending(ctx); res != nil {
			return res
		}
		r.requests++
		if err := r.fitOrCompact(ctx); err != nil {
			code, msg := compactionFailure(err)
			return r.failed(code, msg)
		}
		resp, err := r.request(ctx)
		if err != nil && providers.AsError(err).Code == providers.ErrContextOverflow && r.stopped(ctx) == nil {
			// One compaction and one retry (SPEC §8).
			if cerr := r.compact(ctx, "the provider reported that the context overflowed"); cerr != nil {
				code, msg := compactionFailure(cerr)
				return r.failed(code, msg)
			}
			resp, err = r.request(ctx)
		}
		if err != nil {
			if res := r.stopped(ctx); res != nil {
				return res
			}
			pe := providers.AsError(err)
			res := r.failed(string(pe.Code), pe.Error())
			var te *httpx.TimeoutError
			if errors.As(err, &te) {
				// A script tells a server that stopped answering from one
				// that answered with an error without parsing the message.
				res.Err.Details = map[string]any{"timeout": string(te.Phase)}
			}
			return res
		}
		r.usage = r.usage.Add(resp.Usage)
		r.msgs = append(r.msgs, resp.Message)
		r.lastText = resp.Message.Text()
		calls := resp.Message.ToolCalls()
		r.emitMessage(resp, calls)
		r.ranTools = len(calls) > 0
		if r.final {
			if res := r.endTurn(ctx, r.finalAnswer(calls)); res != nil {
				return res
			}
			continue
		}
		if len(calls) == 0 {
			if r.awaitChildren(ctx) {
				continue
			}
			if r.opts.Schema == nil {
				if res := r.endTurn(ctx, r.result(events.StatusCompleted, nil)); res != nil {
					return res
				}
				continue
			}
			v, err := r.opts.Schema.parse(r.lastText)
			if err == nil {
				r.structured = v
				if res := r.endTurn(ctx, r.result(events.StatusCompleted, nil)); res != nil {
					return res
				}
				continue
			}
			if r.repaired {
				return r.failed(CodeInvalidStructuredOutput, err.Error())
			}
			// One repair request, even past --max-rounds: the answer is due.
			r.repaired = true
			r.msgs = append(r.msgs, repairPrompt(err.Error()))
			if r.turnRound() >= r.opts.MaxRounds {
				r.opts.MaxRounds = r.turnRound() + 1
			}
			continue
		}
		if r.turnRound() >= r.opts.MaxRounds {
			r.answerUnrun(calls, "not run: the run reached its round limit")
			return r.result(events.StatusMaxRounds, &events.ErrorInfo{
				Code:    "max_rounds",
				Message: fmt.Sprintf("the model still asked for tools after %d rounds (raise --max-rounds)", r.opts.MaxRounds),
			})
		}
		if res := r.runTools(ctx, calls); res != nil {
			return res
		}
		if err := r.store(); err != nil {
			return r.failed("store_failed", err.Error())
		}
		if r.ctl.Ended() {
			// An end-of-turn action (tavo_finish, tavo_send_message,
			// tavo_wait) ends the turn once the round's calls have run.
			if res := r.endTurn(ctx, r.result(events.StatusCompleted, nil)); res != nil {
				return res
			}
		}
	}
}

// turnRound is the current round counted from the start of the turn.
func (r *run) turnRound() int { return r.round - r.turnFirst + 1 }

// endTurn ends a turn that ended with res: AfterTurn decides whether
// another turn starts (nil is returned, and the loop goes on) or the run
// ends (the result is returned, with status waiting when the turn declared
// a wake-up).
func (r *run) endTurn(ctx context.Context, res *Result) *Result {
	tk := r.ctl.Take()
	if r.lastText == "" && tk.Sent != "" {
		// The model spoke through tavo_send_message: that is its answer.
		r.lastText = tk.Sent
		res.Text = tk.Sent
	}
	r.turns++
	if r.opts.AfterTurn != nil && ctx.Err() == nil {
		next := r.opts.AfterTurn(ctx, TurnEnd{Turn: r.turns, Status: res.Status, Text: res.Text, Action: tk.Action, WakeAt: tk.WakeAt, Calls: r.turnTools})
		r.turnTools = nil
		r.usage = r.usage.Add(next.Usage)
		if next.Prompt != "" && ctx.Err() == nil {
			r.msgs = append(r.msgs, providers.Message{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: next.Prompt}}})
			r.turnFirst = r.round + 1
			r.turnCalls = r.callCounts().Total
			r.limit, r.final, r.ranTools, r.repaired = nil, false, false, false
			r.lastText = ""
			return nil
		}
		status, errInfo := res.Status, res.Err
		if next.Status != "" {
			status, errInfo = next.Status, next.Err
		}
		res = r.result(status, errInfo)
	}
	if tk.WakeAt != nil && res.Status == events.StatusCompleted {
		res.Status, res.ExitCode = events.StatusWaiting, events.ExitCodeFor(events.StatusWaiting)
		res.WakeAt = tk.WakeAt
	}
	return res
}

// finalAnswer ends a run that hit a limit, after the last request was sent
// without tools: its text is the answer, its status the limit's. A model
// that asks for tools anyway gets results saying they were not run.
func (r *run) finalAnswer(calls []providers.ToolCall) *Result {
	if len(calls) > 0 {
		r.answerUnrun(calls, "not run: the run reached its limit")
	}
	if r.opts.Schema != nil {
		if v, err := r.opts.Schema.parse(r.lastText); err == nil {
			r.structured = v
		}
	}
	res := r.result(r.limit.Status, r.limit.Err)
	return res
}

// checkLimits reports limits the caller left unset.
func (o *Options) checkLimits() error {
	switch {
	case o.MaxRounds < 1:
		return fmt.Errorf("runner: Options.MaxRounds must be at least 1, got %d", o.MaxRounds)
	case o.MaxToolCalls < 1:
		return fmt.Errorf("runner: Options.MaxToolCalls must be at least 1, got %d", o.MaxToolCalls)
	case o.ToolTimeout <= 0:
		return fmt.Errorf("runner: Options.ToolTimeout must be positive, got %s", o.ToolTimeout)
	}
	return nil
}

// store hands the messages completed since the last call to OnMessages.
func (r *run) store() error {
	if r.opts.OnMessages == nil || r.stored >= len(r.msgs) {
		return nil
	}
	if err := r.opts.OnMessages(r.round, r.msgs[r.stored:]); err != nil {
		return fmt.Errorf("storing the conversation: %w", err)
	}
	r.stored = len(r.msgs)
	return nil
}

func (r *run) providerName() providers.Protocol {
	if r.opts.Provider == nil {
		return ""
	}
	return r.opts.Provider.Protocol()
}

// takeGuidance adds pending driver guidance as user messages.
func (r *run) takeGuidance() {
	if r.opts.Guidance == nil {
		return
	}
	for {
		select {
		case text, ok := <-r.opts.Guidance:
			if !ok {
				r.opts.Guidance = nil
				return
			}
			if strings.TrimSpace(text) != "" {
				r.msgs = append(r.msgs, providers.Message{Role: providers.RoleUser, Parts: []providers.Part{{Type: providers.PartText, Text: text}}})
			}
		default:
			return
		}
	}
}

// request sends one model request built from the history.
func (r *run) request(ctx context.Context) (*providers.Response, error) {
	req := &providers.Request{
		Model:           r.opts.Model,
		System:          r.opts.System,
		Stream:          r.opts.Stream,
		MaxOutputTokens: r.opts.MaxOutputTokens,
		Params:          r.opts.Params,
	}
	if r.opts.Schema != nil {
		req.Schema = r.opts.Schema.Wire
	}
	req.Messages = selectReasoningFor(r.msgs, r.opts.Reasoning, r.added, chainNeedOf(r.opts.Provider))
	req.Tools = r.visibleSpecs()
	if r.final {
		// The tools stay described (Anthropic refuses tool calls in the
		// history of a request without them) but cannot be called.
		req.NoToolCalls = len(req.Tools) > 0
		req.System = joinNonEmpty(req.System, finalHint)
	} else if len(req.Tools) > 0 {
		req.System = joinNonEmpty(req.System, tools.UsageHint)
	}
	att := r.opts.Attachments.Pending()
	if len(att) > 0 {
		req.Messages = append(req.Messages[:len(req.Messages):len(req.Messages)], attachmentMessage(att))
	}
	resp, err := r.opts.Provider.Complete(ctx, req, &sink{r: r})
	if err == nil {
		r.calibrate(req, resp.Usage)
		if len(att) > 0 {
			r.opts.Attachments.Sent()
		}
	}
	return resp, err
}

// attachmentMessage is the user message that shows the model the images
// tools produced: each named by its note, then the image. It is sent, not
// stored: the history keeps the tool results that name the URLs.
func attachmentMessage(att []resources.Attachment) providers.Message {
	m := providers.Message{Role: providers.RoleUser}
	for _, a := range att {
		m.Parts = append(m.Parts,
			providers.Part{Type: providers.PartText, Text: resources.AttachmentNote(a.URL, a.MediaType, int64(len(a.Data)))},
			providers.Part{Type: providers.PartImage, Image: &providers.Image{MIMEType: a.MediaType, Data: a.Data}})
	}
	return m
}

// finalHint tells the model why its last request has no tools, so that it
// answers instead of announcing calls it cannot make.
const finalHint = "This run has reached its limit of tool use: no more tools can be called. Answer now, as well as you can with what you have found so far."

// visibleSpecs are the tools the next request carries.
func (r *run) visibleSpecs() []providers.ToolSpec {
	if r.vis == nil {
		return nil
	}
	names := r.vis.Visible()
	specs := make([]providers.ToolSpec, 0, len(names))
	for _, name := range names {
		// The spec the catalog took when the tool was added: the one its
		// arguments are validated against, and no tool builds it again
		// for every request.
		s, ok := r.opts.Catalog.SpecOf(name)
		if !ok {
			continue
		}
		specs = append(specs, providers.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
	}
	return specs
}

func joinNonEmpty(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
}

// sink turns provider progress into events.
type sink struct{ r *run }

func (s *sink) TextDelta(text string) {
	if text != "" {
		s.r.emit(events.TextDelta, events.DeltaP{Round: s.r.round, Text: text})
	}
}

func (s *sink) ReasoningDelta(text string) {
	if text != "" {
		s.r.emit(events.ReasoningDelta, events.DeltaP{Round: s.r.round, Text: text})
	}
}

func (s *sink) Retry(attempt int, wait time.Duration, reason string) {
	s.r.emit(events.Retry, events.RetryP{Attempt: attempt, WaitMS: wait.Milliseconds(), Reason: reason})
}

func (r *run) emitMessage(resp *providers.Response, calls []providers.ToolCall) {
	refs := make([]events.ToolCallRef, 0, len(calls))
	for _, c := range calls {
		refs = append(refs, events.ToolCallRef{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	var reasoning strings.Builder
	for _, p := range resp.Message.Parts {
		if p.Type == providers.PartReasoning && p.Reasoning != nil {
			reasoning.WriteString(p.Reasoning.Text)
		}
	}
	r.emit(events.MessageT, events.MessageP{
		Round:        r.round,
		Text:         resp.Message.Text(),
		Reasoning:    reasoning.String(),
		ToolCalls:    refs,
		FinishReason: string(resp.FinishReason),
		Usage:        r.usageOf(resp.Usage),
	})
}

// runTools runs the calls of one response in provider order. It returns a
// result when the run must end.
func (r *run) runTools(ctx context.Context, calls []providers.ToolCall) *Result {
	r.env.Round = r.round
	results := providers.Message{Role: providers.RoleTool, Parts: r.takeCarried()}
	defer func() {
		if len(results.Parts) > 0 {
			r.msgs = append(r.msgs, results)
		}
	}()
	for i, call := range calls {
		if res := r.stopped(ctx); res != nil {
			results.Parts = append(results.Parts, unrunParts(calls[i:], "not run: the run was stopped")...)
			return res
		}
		if r.callsLeft() <= 0 {
			results.Parts = append(results.Parts, unrunParts(calls[i:], "not run: the run reached its tool-call limit")...)
			res := r.result(events.StatusMaxToolCalls, &events.ErrorInfo{
				Code:    "max_tool_calls",
				Message: fmt.Sprintf("the model asked for more than %d tool calls (raise --max-tool-calls)", r.opts.MaxToolCalls),
			})
			if r.turnRound() >= r.opts.MaxRounds {
				return res
			}
			// One more request, without tools, for the answer.
			r.limit = res
			return nil
		}
		r.countCall()
		toolID := call.Name
		if t, ok := r.opts.Catalog.Get(call.Name); ok {
			toolID = t.Spec().ID
		}
		r.emit(events.ToolCall, events.ToolCallP{
			Round: r.round, CallID: call.ID, Name: call.Name, ToolID: toolID, Arguments: eventArguments(call.Arguments),
		})
		var out tools.Outcome
		if r.exec != nil {
			out = r.exec.Execute(ctx, r.env, call)
		} else {
			// Tools are off, yet the model called one (some models do, or
			// a history has tools in it): an error it can read, not a crash.
			out = tools.ErrorOutcome(toolID, tools.Errorf(tools.CodeUnknownTool,
				fmt.Sprintf("no tools are enabled in this run, so %q cannot be called: answer without tools", call.Name)))
		}
		r.countOutcome(out)
		r.emitResult(call, out)
		tc := TurnCall{Name: call.Name, OK: out.OK}
		if !out.OK && out.Err != nil {
			tc.Code = out.Err.Code
		}
		r.turnTools = append(r.turnTools, tc)
		results.Parts = append(results.Parts, providers.Part{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{
			CallID: call.ID, Name: call.Name, Content: out.Envelope, IsError: !out.OK,
		}})
		if out.InputRequired {
			results.Parts = append(results.Parts, unrunParts(calls[i+1:], "not run: the run ended waiting for an answer")...)
			return r.result(events.StatusInputRequired, &events.ErrorInfo{
				Code:    "input_required",
				Message: "tavo_ask_user needed an answer and --ask fail forbids asking",
			})
		}
	}
	return nil
}

func (r *run) emitResult(call providers.ToolCall, out tools.Outcome) {
	r.emit(events.ToolResult, r.toolResultP(call, out))
}

// toolResultP is the tool.result payload of a call's outcome.
func (r *run) toolResultP(call providers.ToolCall, out tools.Outcome) events.ToolResultP {
	p := events.ToolResultP{
		Round: r.round, CallID: call.ID, Name: call.Name, OK: out.OK,
		Truncated: out.Truncated, Artifact: out.Artifact, Bytes: out.Bytes, DurationMS: out.Duration.Milliseconds(),
	}
	if out.OK {
		p.Result = out.Result
	} else if out.Err != nil {
		p.Error = &events.ErrorInfo{Code: out.Err.Code, Message: out.Err.Message, Details: out.Err.Details}
	}
	return p
}

// answerUnrun records results for calls that will not run, so a continued
// conversation stays valid for every provider (each call needs a result).
func (r *run) answerUnrun(calls []providers.ToolCall, why string) {
	r.msgs = append(r.msgs, providers.Message{Role: providers.RoleTool, Parts: unrunParts(calls, why)})
}

func unrunParts(calls []providers.ToolCall, why string) []providers.Part {
	parts := make([]providers.Part, 0, len(calls))
	for _, c := range calls {
		env, _ := json.Marshal(map[string]any{"ok": false, "error": map[string]string{"code": tools.CodeCancelled, "message": why}})
		parts = append(parts, providers.Part{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{
			CallID: c.ID, Name: c.Name, Content: string(env), IsError: true,
		}})
	}
	return parts
}

// eventArguments is what tool.call shows: the model's JSON as sent, "{}"
// for no arguments, or the raw text when it is not JSON.
func eventArguments(raw string) any {
	if strings.TrimSpace(raw) == "" {
		return json.RawMessage("{}")
	}
	return events.ParseArguments(raw)
}

// stopped reports how the run ends when its context is done.
func (r *run) stopped(ctx context.Context) *Result {
	if ctx.Err() == nil {
		return nil
	}
	cause := context.Cause(ctx)
	var sc *StopCause
	switch {
	case errors.As(cause, &sc):
		status, code := sc.Status, sc.Code
		if status == "" {
			status = events.StatusCancelled
		}
		if code == "" {
			code = "cancelled"
		}
		res := r.result(status, &events.ErrorInfo{Code: code, Message: sc.Reason})
		if sc.ExitCode != 0 {
			res.ExitCode = sc.ExitCode
		}
		return res
	case errors.Is(cause, context.DeadlineExceeded):
		return r.result(events.StatusTimeout, &events.ErrorInfo{Code: "timeout", Message: "the run reached its --timeout"})
	}
	return r.result(events.StatusCancelled, &events.ErrorInfo{Code: "cancelled", Message: "the run was cancelled"})
}

func (r *run) failed(code, msg string) *Result {
	return r.result(events.StatusFailed, &events.ErrorInfo{Code: code, Message: msg})
}

func (r *run) result(status string, errInfo *events.ErrorInfo) *Result {
	return &Result{
		Status:     status,
		ExitCode:   events.ExitCodeFor(status),
		Text:       r.lastText,
		Messages:   r.msgs[r.added:],
		Usage:      r.usage.Add(r.tools.sum()),
		Rounds:     r.requests,
		ToolCalls:  r.callCounts(),
		Err:        errInfo,
		Structured: r.structured,
	}
}

func (r *run) complete(res *Result) {
	r.emit(events.RunCompleted, events.RunCompletedP{
		Status:     res.Status,
		ExitCode:   res.ExitCode,
		Text:       res.Text,
		Structured: res.Structured,
		Rounds:     res.Rounds,
		ToolCalls:  res.ToolCalls,
		Usage:      r.completedUsage(res.Usage),
		DurationMS: r.opts.Now().Sub(r.start).Milliseconds(),
		Error:      res.Err,
		Resume:     r.opts.Resume,
		WakeAt:     res.WakeAt,
	})
}

func (r *run) usageOf(u providers.Usage) events.Usage {
	eu := events.UsageFrom(u)
	if p := r.opts.Prices; p != nil {
		cached := p.CachedInputPerMTok
		if cached == 0 {
			cached = p.InputPerMTok
		}
		uncached := u.InputTokens - u.CachedTokens
		cost := (float64(uncached)*p.InputPerMTok + float64(u.CachedTokens)*cached + float64(u.OutputTokens)*p.OutputPerMTok) / 1e6
		eu.CostUSD = &cost
	}
	return eu
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
