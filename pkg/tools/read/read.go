// Package read is the tavo_read tool: the model reads a resource URL
// (artifact://, local://, workspace://, asset://, http(s)://, or a scheme an
// extension added) through the run's resource centre, one budgeted page at a
// time (SPEC §11).
package read

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// Name is the model-facing name of the tool.
const Name = "tavo_read"

// New returns tavo_read over centre.
func New(centre *resources.Centre) tools.Tool { return reader{centre: centre} }

type reader struct{ centre *resources.Centre }

const description = "Read a resource by URL, a page at a time: artifact://ID (large results, fetched pages), " +
	"local://NAME and local://global/NAME (files), workspace://PATH, asset://ID (attachments), http(s)://URL. " +
	"Text takes a line selector before any query: :N, :START-END, :START+COUNT (a literal ':' is %3A); " +
	"?view=meta gives {name, media_type, size, lines, …}. A page is " +
	`{"kind":"text","text","source","continue"?}: call again with continue to read on; none means the end. ` +
	"A result with truncated:true reads on from its continue URL the same way. Images give " +
	`{"kind":"media",…}, shown to you in the next request when you can see images; ?question=TEXT asks a ` +
	"vision model about one."

const schema = `{
  "type": "object",
  "properties": {
    "url": {"type": "string", "minLength": 1, "maxLength": 2048, "description": "A resource or continue URL."},
    "lifetime": {"type": "string", "description": "Images: once (default), recent (3 requests) or retain."}
  },
  "required": ["url"],
  "additionalProperties": false
}`

func (reader) Spec() tools.Spec {
	return tools.Spec{
		Name:        Name,
		ID:          Name,
		Description: description,
		Parameters:  json.RawMessage(schema),
		Resident:    true,
		Source:      tools.SourceBuiltin,
	}
}

type args struct {
	URL      string `json:"url"`
	Lifetime string `json:"lifetime"`
}

func (r reader) Run(ctx context.Context, call *tools.Call) (any, error) {
	var a args
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	life, err := resources.ParseLifetime(a.Lifetime)
	if err != nil {
		return nil, ToolError(err)
	}
	att := resources.AttachmentsFrom(ctx)
	if att != nil {
		// The model is shown images: an image read keeps its bytes.
		ctx = resources.WithMediaBytes(ctx)
	}
	res, err := r.centre.Read(ctx, resources.Request{URL: a.URL, Scope: resources.Scope{SessionID: call.Env.SessionID, RunID: call.Env.RunID}})
	if err != nil {
		return nil, ToolError(err)
	}
	if m, ok := res.(*resources.Media); ok && att != nil && m.Data != nil {
		att.Add(resources.Attachment{URL: m.URL, MediaType: m.MediaType, Data: m.Data}, life)
		m.Attached = life
	}
	return res, nil
}

// ToolError turns a resource error into the envelope's error; anything
// else stays as it is (cancellation) or becomes internal_error.
func ToolError(err error) error {
	var re *resources.Error
	if errors.As(err, &re) {
		return &tools.Error{Code: re.Code, Message: re.Message, Details: re.Details}
	}
	return err
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
