package code

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/read"
)

// mediaItem is one entry of a program's attachments: a tavo_read media
// node ({kind:"media", url, media_type, bytes}) or any {url}, an MCP image
// or audio block ({type, data (base64), mimeType}) or an MCP embedded
// resource ({type:"resource", resource:{uri, mimeType, blob}}), each with
// an optional lifetime.
type mediaItem struct {
	Type     string `json:"type"`
	Data     string `json:"data"`
	MimeType string `json:"mimeType"`
	URL      string `json:"url"`
	Lifetime string `json:"lifetime"`
	Resource *struct {
		URI      string `json:"uri"`
		MimeType string `json:"mimeType"`
		Blob     string `json:"blob"`
	} `json:"resource"`
}

// attachments takes the media of a top-level attachments array out of a
// program's return value (SPEC §12): each is kept as an artifact (or read
// where it already is) and stands in the result as its
// [attachment: URL; media_type; N bytes] note; an image also goes into
// the model's next requests for its lifetime when the run shows images.
// A value without that array is returned as it is.
func (t *Tool) attachments(ctx context.Context, env *tools.Env, value json.RawMessage) (any, error) {
	var top map[string]json.RawMessage
	if json.Unmarshal(value, &top) != nil || top == nil {
		return value, nil
	}
	raw, ok := top["attachments"]
	if !ok {
		return value, nil
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return value, nil
	}
	centre := env.Catalog.Resources()
	if centre == nil {
		return nil, tools.Errorf(tools.CodeUnsupportedMediaType, "this run keeps no media, so a program cannot return attachments")
	}
	scope := resources.Scope{SessionID: env.SessionID, RunID: env.RunID}
	notes := make([]string, 0, len(items))
	for i, it := range items {
		note, err := attach(ctx, centre, scope, it)
		if err != nil {
			return nil, itemError(i, err)
		}
		notes = append(notes, note)
	}
	b, _ := json.Marshal(notes)
	top["attachments"] = b
	return top, nil
}

// itemError is the tool error of attachments[i]: its message and its
// details' path name the item, so the model knows which one to fix.
func itemError(i int, err error) *tools.Error {
	te := *tools.AsError(read.ToolError(err))
	prefix := fmt.Sprintf("attachments[%d]", i)
	te.Message = prefix + ": " + te.Message
	if p, ok := te.Details["path"].(string); ok {
		d := maps.Clone(te.Details)
		d["path"] = prefix + "." + p
		te.Details = d
	}
	return &te
}

// attach keeps one media item and returns its note.
func attach(ctx context.Context, c *resources.Centre, scope resources.Scope, raw json.RawMessage) (string, error) {
	var m mediaItem
	if err := json.Unmarshal(raw, &m); err != nil {
		return "", tools.Errorf(tools.CodeInvalidArguments, "not a media item: want a tavo_read media node {url}, an MCP image or audio block {type, data, mimeType} or an MCP resource")
	}
	life, err := resources.ParseLifetime(m.Lifetime)
	if err != nil {
		return "", err
	}
	queue := resources.AttachmentsFrom(ctx)
	mime, data := m.MimeType, m.Data
	if m.Resource != nil && m.Resource.Blob != "" {
		mime, data = m.Resource.MimeType, m.Resource.Blob
	}
	switch {
	case data != "":
		bytes, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			return "", tools.Errorf(tools.CodeInvalidArguments, "its data is not base64")
		}
		if mime == "" {
			mime = "application/octet-stream"
		}
		url, note, err := c.StoreMedia(ctx, scope, Name, mime, bytes)
		if err != nil {
			return "", err
		}
		if queue != nil && resources.IsImage(mime) && len(bytes) <= resources.MaxMediaBytes {
			queue.Add(resources.Attachment{URL: url, MediaType: mime, Data: bytes}, life)
		}
		return note, nil
	case m.URL != "":
		rctx := ctx
		if queue != nil {
			rctx = resources.WithMediaBytes(ctx)
		}
		res, err := c.Read(rctx, resources.Request{URL: m.URL, Scope: scope})
		if err != nil {
			return "", err
		}
		media, ok := res.(*resources.Media)
		if !ok {
			return "", tools.Errorf(tools.CodeUnsupportedMediaType, m.URL+" is not an image or audio clip; return text as data, not as an attachment")
		}
		if queue != nil && media.Data != nil {
			queue.Add(resources.Attachment{URL: media.URL, MediaType: media.MediaType, Data: media.Data}, life)
		}
		return resources.AttachmentNote(media.URL, media.MediaType, media.Bytes), nil
	}
	return "", tools.Errorf(tools.CodeInvalidArguments, "not a media item: want a tavo_read media node {url}, an MCP image or audio block {type, data, mimeType} or an MCP resource")
}
