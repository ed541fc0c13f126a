// Package subagent holds the five sub-agent tools (SPEC §13, seed 004):
// tavo_subagent, tavo_subagent_list, tavo_subagent_message,
// tavo_subagent_stop and tavo_subagent_send. They are thin adapters over
// pkg/agents: decode the arguments, find the calling run's Agent in the
// call's context (agents puts it there), and return what it answers. None
// is resident: the model finds them through tavo_tool_search. The package
// knows pkg/agents only through the Agent interface, so that the runner's
// packages do not depend on it.
package subagent

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/tavo-cli/tavo/pkg/tools"
)

// The model-facing names of the sub-agent tools.
const (
	SpawnName   = "tavo_subagent"
	ListName    = "tavo_subagent_list"
	MessageName = "tavo_subagent_message"
	StopName    = "tavo_subagent_stop"
	SendName    = "tavo_subagent_send"
)

// Names are the five sub-agent tools' names.
var Names = [...]string{SpawnName, ListName, MessageName, StopName, SendName}

// Agent is the calling run's place in its tree of sub-agents, what each
// tool asks (pkg/agents implements it). Results are the tools' results;
// errors that are *tools.Error reach the model as they are.
type Agent interface {
	Spawn(ctx context.Context, env *tools.Env, title, instruction, mode string) (any, error)
	List() any
	Message(ctx context.Context, subSessionID string) (any, error)
	Stop(ctx context.Context, subSessionID string) (any, error)
	Send(ctx context.Context, subSessionID, message string) (any, error)
}

type agentKey struct{}

// WithAgent returns ctx carrying the run's Agent, for the tools to find.
func WithAgent(ctx context.Context, a Agent) context.Context {
	return context.WithValue(ctx, agentKey{}, a)
}

// All returns the five sub-agent tools.
func All() []tools.Tool {
	return []tools.Tool{spawn{}, list{}, message{}, stop{}, send{}}
}

func spec(name, description, schema string) tools.Spec {
	return tools.Spec{Name: name, ID: name, Description: description, Parameters: json.RawMessage(schema), Source: tools.SourceBuiltin}
}

// nodeOf returns the calling run's node; a run outside a tree (a caller
// that did not set one up) cannot use sub-agents.
func nodeOf(ctx context.Context) (Agent, error) {
	n, _ := ctx.Value(agentKey{}).(Agent)
	if n == nil {
		return nil, tools.Errorf(tools.CodeInternalError, "sub-agents are not available in this run")
	}
	return n, nil
}

const idSchema = `"sub_session_id": {"type": "string", "minLength": 1, "description": "The sub-agent's session id (from tavo_subagent or tavo_subagent_list)."}`

type spawn struct{}

func (spawn) Spec() tools.Spec {
	return spec(SpawnName,
		"Start a sub-agent: a new agent with an empty context that does one part of the task and reports back. "+
			"Give it a short title (3-5 words) and a complete instruction, as to a new colleague: the files, URLs, "+
			"context and what was ruled out, since it sees nothing of this conversation. mode async (default) "+
			`returns {"sub_session_id","run_id","status":"running"} at once and its result arrives as a message `+
			"before your next response; mode sync waits and returns its {status, text, structured?, usage}. "+
			"It has your tools and limits.",
		`{
  "type": "object",
  "properties": {
    "title": {"type": "string", "minLength": 1, "maxLength": 120, "description": "A short title, 3-5 words."},
    "instruction": {"type": "string", "minLength": 1, "description": "The whole task, with every piece of context it needs."},
    "mode": {"type": "string", "enum": ["async", "sync"], "default": "async", "description": "async returns at once; sync waits for the result."}
  },
  "required": ["title", "instruction"],
  "additionalProperties": false
}`)
}

func (spawn) Run(ctx context.Context, call *tools.Call) (any, error) {
	var a struct {
		Title       string `json:"title"`
		Instruction string `json:"instruction"`
		Mode        string `json:"mode"`
	}
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	a.Title = strings.Join(strings.Fields(a.Title), " ")
	if a.Title == "" {
		return nil, tools.InvalidArgument("title", "non-empty string", "string")
	}
	if strings.TrimSpace(a.Instruction) == "" {
		return nil, tools.InvalidArgument("instruction", "non-empty string", "string")
	}
	n, err := nodeOf(ctx)
	if err != nil {
		return nil, err
	}
	return n.Spawn(ctx, call.Env, a.Title, a.Instruction, a.Mode)
}

type list struct{}

func (list) Spec() tools.Spec {
	return spec(ListName,
		"List your sub-agents that are running (and theirs): "+
			`[{"sub_session_id","title","status","created_at","updated_at"}].`,
		`{"type": "object", "properties": {}, "additionalProperties": false}`)
}

func (list) Run(ctx context.Context, call *tools.Call) (any, error) {
	n, err := nodeOf(ctx)
	if err != nil {
		return nil, err
	}
	return n.List(), nil
}

type message struct{}

func (message) Spec() tools.Spec {
	return spec(MessageName,
		"Read the latest message of one of your sub-agents, to check its progress or output: "+
			`{"sub_session_id","sub_session_title","sub_session_status","message_id","role","content","created_at"}.`,
		`{"type": "object", "properties": {`+idSchema+`}, "required": ["sub_session_id"], "additionalProperties": false}`)
}

func (message) Run(ctx context.Context, call *tools.Call) (any, error) {
	n, id, err := target(ctx, call)
	if err != nil {
		return nil, err
	}
	return n.Message(ctx, id)
}

// target is the caller's node and the sub_session_id of a call whose only
// argument names one sub-agent.
func target(ctx context.Context, call *tools.Call) (Agent, string, error) {
	var a struct {
		ID string `json:"sub_session_id"`
	}
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return nil, "", err
	}
	n, err := nodeOf(ctx)
	return n, a.ID, err
}

type stop struct{}

func (stop) Spec() tools.Spec {
	return spec(StopName,
		"Stop one of your sub-agents and all of its own sub-agents, deepest first: "+
			`{"stopped_sessions":[{"sub_session_id","title"}],"total_stopped"}.`,
		`{"type": "object", "properties": {`+idSchema+`}, "required": ["sub_session_id"], "additionalProperties": false}`)
}

func (stop) Run(ctx context.Context, call *tools.Call) (any, error) {
	n, id, err := target(ctx, call)
	if err != nil {
		return nil, err
	}
	return n.Stop(ctx, id)
}

type send struct{}

func (send) Spec() tools.Spec {
	return spec(SendName,
		"Send a message to one of your sub-agents: more instructions, context, or an answer to its question. "+
			"A running one reads it before its next step (status queued); one that has finished starts again "+
			`with it (status running): {"sub_session_id","run_id","status"}.`,
		`{"type": "object", "properties": {`+idSchema+`, "message": {"type": "string", "minLength": 1, "description": "The message."}}, "required": ["sub_session_id", "message"], "additionalProperties": false}`)
}

func (send) Run(ctx context.Context, call *tools.Call) (any, error) {
	var a struct {
		ID      string `json:"sub_session_id"`
		Message string `json:"message"`
	}
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Message) == "" {
		return nil, tools.InvalidArgument("message", "non-empty string", "string")
	}
	n, err := nodeOf(ctx)
	if err != nil {
		return nil, err
	}
	return n.Send(ctx, a.ID, a.Message)
}
