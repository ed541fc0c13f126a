package turn

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/ids"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// The model-facing names of the end-of-turn tools.
const (
	FinishName      = "tavo_finish"
	SendMessageName = "tavo_send_message"
	WaitName        = "tavo_wait"
)

// MaxWait is the furthest ahead tavo_wait may declare a wake-up.
const MaxWait = 365 * 24 * time.Hour

// All returns the three end-of-turn tools. None is resident: the model finds
// them through tavo_tool_search, which keeps the first request small.
func All() []tools.Tool {
	return []tools.Tool{finish{}, sendMessage{}, wait{now: time.Now}}
}

func spec(name, description, schema string) tools.Spec {
	return tools.Spec{Name: name, ID: name, Description: description, Parameters: json.RawMessage(schema), Source: tools.SourceBuiltin}
}

// control is the Control of the call's run; a run without one (`tavo tools
// call`) still gets the tool's answer, with nothing to end.
func control(ctx context.Context) *Control {
	if c := From(ctx); c != nil {
		return c
	}
	return &Control{}
}

type finish struct{}

func (finish) Spec() tools.Spec {
	return spec(FinishName, "End your turn now, without a further answer: call it when the work of this turn is done "+
		"and nothing more needs saying. Returns {\"ok\":true}.",
		`{"type":"object","properties":{"reason":{"type":"string","description":"Why the turn ends (kept in the log)."}},"additionalProperties":false}`)
}

func (finish) Run(ctx context.Context, call *tools.Call) (any, error) {
	var a struct {
		Reason string `json:"reason"`
	}
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	control(ctx).End(ActionFinish)
	return map[string]any{"ok": true}, nil
}

type sendMessage struct{}

func (sendMessage) Spec() tools.Spec {
	return spec(SendMessageName, "Send a visible message to the person you work for (printed on their terminal, "+
		"recorded as a message.sent event). The turn ends after the call unless continue is true. "+
		`Returns {"ok":true,"ids":[message id]}.`,
		`{"type":"object","properties":{"text":{"type":"string","minLength":1,"description":"The message."},`+
			`"continue":{"type":"boolean","default":false,"description":"true: keep working after the message."}},`+
			`"required":["text"],"additionalProperties":false}`)
}

func (sendMessage) Run(ctx context.Context, call *tools.Call) (any, error) {
	var a struct {
		Text     string `json:"text"`
		Continue bool   `json:"continue"`
	}
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Text) == "" {
		return nil, tools.InvalidArgument("text", "non-empty string", "string")
	}
	id := ids.New("msg", time.Now())
	call.Env.EmitEvent(string(events.MessageSent), events.MessageSentP{Round: call.Env.Round, ID: id, Text: a.Text, Continue: a.Continue})
	c := control(ctx)
	c.Sent(a.Text)
	if !a.Continue {
		c.End(ActionSendMessage)
	}
	return map[string]any{"ok": true, "ids": []string{id}}, nil
}

type wait struct{ now func() time.Time }

func (wait) Spec() tools.Spec {
	return spec(WaitName, "Declare when this conversation should wake up next, and end your turn. Give seconds "+
		"from now, an RFC 3339 time in until, or both (the earlier wins); the last call of a turn wins. A worker "+
		"(tavo worker) wakes the conversation then and you continue. An empty call declares no wake-up. "+
		`Returns {"wake_at":TIME} or {"none":true}.`,
		`{"type":"object","properties":{"seconds":{"type":"integer","minimum":1,"maximum":31536000,"description":"Wake up this many seconds from now."},`+
			`"until":{"type":"string","format":"date-time","description":"Wake up at this time (RFC 3339, e.g. 2026-12-01T09:00:00Z)."}},"additionalProperties":false}`)
}

func (w wait) Run(ctx context.Context, call *tools.Call) (any, error) {
	var a struct {
		Seconds *int64 `json:"seconds"`
		Until   string `json:"until"`
	}
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	now := w.now()
	var at *time.Time
	if a.Seconds != nil {
		t := now.Add(time.Duration(*a.Seconds) * time.Second)
		at = &t
	}
	if a.Until != "" {
		u, err := time.Parse(time.RFC3339, a.Until)
		if err != nil {
			return nil, tools.InvalidArgument("until", "RFC 3339 time", "string")
		}
		if u.After(now.Add(MaxWait)) {
			return nil, tools.Errorf(tools.CodeInvalidArguments, "until is more than a year away")
		}
		if at == nil || u.Before(*at) {
			at = &u
		}
	}
	c := control(ctx)
	c.SetWake(at)
	c.End(ActionWait)
	if at == nil {
		return map[string]any{"none": true}, nil
	}
	return map[string]any{"wake_at": at.UTC().Format(time.RFC3339)}, nil
}
