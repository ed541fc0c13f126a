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

const description = "Read a resource by URL, one page at a time: artifact://ID (results too large to show " +
	"whole, fetched pages), local://NAME and local://global/NAME (stored files), workspace://PATH (the project's " +
	"files, when a workspace is open), asset://ID (attachments), http(s)://URL. On text, add a line selector " +
	"before any query: :N, :START-END or :START+COUNT (1-based); write a literal ':' in a name as %3A. " +
	"?view=meta returns {name, media_type, size, lines, …} without the content. A page returns " +
	`{"kind":"text","text","source":{url,offset,line,column},"continue"?}; when "continue" is present, ` +
	"call tavo_read with that exact URL to read on (it keeps your selector); no continue means the end. " +
	"When another tool's result says truncated:true, read its continue URL the same way. An image answers " +
	`{"kind":"media",…}; when you can see images it is shown to you in the next request ("attached"). ` +
	"Add ?question=TEXT to an image URL to have a vision model answer about it."

const schema = `{
  "type": "object",
  "properties": {
    "url": {"type": "string", "minLength": 1, "maxLength": 2048, "description": "The resource URL, or a continue URL from an earlier read."},
    "lifetime": {"type": "string", "description": "For images only, when you can see images: once (default, the next request), recent (the next 3 requests) or retain (the rest of the run)."}
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
