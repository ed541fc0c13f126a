package responses

import (
	"fmt"
	"io"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/openai"
)

// maxJSONResponse bounds a non-streamed answer; real ones are kilobytes.
const maxJSONResponse = 64 << 20

// decodeJSON reads a non-streamed Response object.
func decodeJSON(r io.Reader, hadTools bool) (*providers.Response, error) {
	body, err := io.ReadAll(io.LimitReader(r, maxJSONResponse+1))
	if err != nil {
		return nil, providers.StreamCut("while reading the response", err)
	}
	if len(body) > maxJSONResponse {
		return nil, &providers.Error{Code: providers.ErrProviderError, Message: fmt.Sprintf("the response is larger than %d bytes", maxJSONResponse)}
	}
	if !gjson.ValidBytes(body) {
		return nil, &providers.Error{Code: providers.ErrProviderError, Message: "the response is not valid JSON"}
	}
	root := gjson.ParseBytes(body)
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
