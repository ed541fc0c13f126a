package responses

import (
	"io"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/openai"
)

// decodeJSON reads a non-streamed Response object.
func decodeJSON(r io.Reader, hadTools bool) (*providers.Response, error) {
	root, err := providers.ReadJSON(r)
	if err != nil {
		return nil, err
	}
	if err := failure(root, hadTools); err != nil {
		return nil, err
	}
	out := root.Get("output")
	if !out.IsArray() {
		return nil, &providers.Error{Code: providers.ErrProviderError, Message: "the response has no output"}
	}
	a := newAssembler()
	a.output(out)
	a.response(root)
	return a.result(), nil
}

// failure returns the error a Response (or error envelope) reports: an
// "error" object, or the status "failed".
func failure(root gjson.Result, hadTools bool) error {
	e := root.Get("error")
	switch {
	case e.IsObject():
		return openai.ClassifyEnvelope(e.Get("message").String(), e.Get("type").String(), e.Get("code").String(), hadTools)
	case e.Type == gjson.String:
		return openai.ClassifyEnvelope(e.Str, "", "", hadTools)
	case root.Get("status").String() == "failed":
		return openai.ClassifyEnvelope("the response failed without a message", "", "", hadTools)
	}
	return nil
}
