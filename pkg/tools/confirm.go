package tools

import (
	"context"
	"encoding/json"
	"errors"
)

// ConfirmRequest asks whether a tool that needs confirmation may run.
type ConfirmRequest struct {
	CallID string `json:"call_id"`
	Tool   string `json:"tool"`
	ToolID string `json:"tool_id"`
	// DisplayName is how a person knows the tool, when it has one.
	DisplayName string          `json:"display_name,omitempty"`
	Arguments   json.RawMessage `json:"arguments"`
	// Title names the sub-agent whose call it is ("" for the root run's
	// own calls), so a person knows which part of a tree is asking.
	Title string `json:"title,omitempty"`
}

// Confirmation is a person's (or a flag's) decision.
type Confirmation struct {
	Allow bool
	// Via says where it came from: terminal, driver, flag or none.
	Via string
}

// Confirmer decides on tools that need confirmation (SPEC §4, §9).
type Confirmer interface {
	// Confirm blocks until a decision or ctx ends. A Confirmer that cannot
	// ask anyone denies, with Via "none".
	Confirm(ctx context.Context, req ConfirmRequest) (Confirmation, error)
}

// confirm asks env's Confirmer before a call; nil means the call may run.
// The wait happens before the call's timeout clock starts.
func confirm(ctx context.Context, env *Env, spec Spec, callID string, args json.RawMessage) *Error {
	req := ConfirmRequest{CallID: callID, Tool: spec.Name, ToolID: spec.ID, DisplayName: spec.DisplayName, Arguments: args}
	env.EmitEvent("confirm.request", map[string]any{"call_id": callID, "tool": spec.Name, "tool_id": spec.ID, "arguments": args})
	decision := Confirmation{Via: "none"}
	if env != nil && env.Confirmer != nil {
		d, err := env.Confirmer.Confirm(ctx, req)
		if err != nil {
			if errors.Is(err, context.Canceled) || ctx.Err() != nil {
				return cancelledError()
			}
			return Errorf(CodeInternalError, "asking for confirmation failed")
		}
		decision = d
	}
	verdict := "deny"
	if decision.Allow {
		verdict = "allow"
	}
	env.EmitEvent("confirm.result", map[string]any{"call_id": callID, "tool": spec.Name, "decision": verdict, "via": decision.Via})
	if decision.Allow {
		return nil
	}
	msg := "the person declined to run this tool"
	if decision.Via == "none" {
		msg = "this tool needs a person's confirmation and none could be asked (run with --yes, on a terminal, or with --input ndjson)"
	}
	return &Error{Code: CodePermissionDenied, Message: msg}
}
