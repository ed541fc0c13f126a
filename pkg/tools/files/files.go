// Package files holds the five file tools of SPEC §5 — tavo_file_save,
// tavo_file_load, tavo_file_delete, tavo_file_exists and tavo_file_list —
// adapting the file store (pkg/files) to the model. The chat scope is the
// run's session, taken from the call's Env, so it stays the same for the
// whole run whatever else runs meanwhile.
package files

import (
	"encoding/json"
	"errors"

	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// The model-facing names of the tools.
const (
	SaveName   = "tavo_file_save"
	LoadName   = "tavo_file_load"
	DeleteName = "tavo_file_delete"
	ExistsName = "tavo_file_exists"
	ListName   = "tavo_file_list"
)

// All returns the five file tools over s. None is resident: the model finds
// them through tavo_tool_search. None asks for confirmation (SPEC §5).
func All(s *files.Store) []tools.Tool {
	return []tools.Tool{
		&saveTool{s: s}, &loadTool{s: s}, &deleteTool{s: s}, &existsTool{s: s}, &listTool{s: s},
	}
}

// spec builds the spec shared by the file tools.
func spec(name, description, schema string) tools.Spec {
	return tools.Spec{
		Name:        name,
		ID:          name,
		Description: description,
		Parameters:  json.RawMessage(schema),
		Source:      tools.SourceBuiltin,
	}
}

// options are the options every file tool may take; each schema admits only
// its own subset.
type options struct {
	Scope    string `json:"scope"`
	Encoding string `json:"encoding"`
	Limit    *int   `json:"limit"`
	Cursor   string `json:"cursor"`
}

// where resolves options.scope against the run's session, and
// options.encoding (utf8 when absent; only save and load admit it).
func (o options) where(env *tools.Env) (files.Location, files.Encoding, error) {
	enc, err := files.ParseEncoding(o.Encoding)
	if err != nil {
		return files.Location{}, "", err
	}
	sc, err := files.ParseScope(o.Scope)
	if err != nil {
		return files.Location{}, "", err
	}
	if sc == files.ScopeGlobal {
		return files.Global(), enc, nil
	}
	session := ""
	if env != nil {
		session = env.SessionID
	}
	if files.CheckSession(session) != nil {
		return files.Location{}, "", &tools.Error{Code: tools.CodeInvalidArguments,
			Message: "this run has no session, so there is no chat scope; use options.scope \"global\"",
			Details: map[string]any{"path": "options.scope", "expected": "global", "actualType": "string"}}
	}
	return files.Chat(session), enc, nil
}

// argPath maps a store error's field onto the argument it came from.
var argPath = map[string]string{
	"name": "name", "content": "content",
	"scope": "options.scope", "session": "options.scope", "encoding": "options.encoding",
	"cursor": "options.cursor", "limit": "options.limit",
}

// toolError maps store failures onto the envelope's codes. A store that
// cannot be written or read is an internal_error whose message says why in
// words ("the file store cannot be written (disk full)") and never where
// on disk. Anything the store did not classify stays a plain error, which
// the executor reports as a generic internal_error: no path on disk
// reaches the model.
func toolError(err error) error {
	var fe *files.Error
	if !errors.As(err, &fe) {
		return err
	}
	path := argPath[fe.Field]
	switch fe.Kind {
	case files.KindInvalid:
		actual := "string"
		if fe.Field == "limit" {
			actual = "integer"
		}
		return &tools.Error{Code: tools.CodeInvalidArguments, Message: fe.Msg,
			Details: map[string]any{"path": path, "expected": fe.Expected, "actualType": actual}}
	case files.KindNotFound:
		return &tools.Error{Code: tools.CodeResourceNotFound, Message: fe.Msg}
	case files.KindTooLarge:
		return &tools.Error{Code: tools.CodeLimitExceeded, Message: fe.Msg,
			Details: map[string]any{"path": path, "limitBytes": fe.Limit}}
	case files.KindUnavailable:
		// The message names the file by its logical path and the cause
		// ("disk full"); the system error, which names the data dir, stays
		// behind.
		return &tools.Error{Code: tools.CodeInternalError, Message: fe.Msg}
	}
	return err
}

// run is the shape of every file tool's Run: decode, act, map errors.
func run[A any](call *tools.Call, act func(a *A) (any, error)) (any, error) {
	var a A
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	v, err := act(&a)
	if err != nil {
		return nil, toolError(err)
	}
	return v, nil
}
