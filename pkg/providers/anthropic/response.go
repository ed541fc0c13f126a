package anthropic

import (
	"fmt"
	"io"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// maxJSONResponse bounds a non-streamed answer; real ones are kilobytes.
const maxJSONResponse = 64 << 20

// decodeJSON reads a non-streamed Message object.
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
	if root.Get("type").String() == "error" || root.Get("error").IsObject() {
		return nil, classify(0, parseEnvelope(body), hadTools)
	}
	content := root.Get("content")
	if !content.IsArray() {
		return nil, &providers.Error{Code: providers.ErrProviderError, Message: "the response has no content"}
	}
	var a assembler
	for i, cb := range content.Array() {
		if !cb.IsObject() {
			continue
		}
		a.start(int64(i), cb)
	}
	a.stop = root.Get("stop_reason").String()
	a.usage(root.Get("usage"))
	a.model = root.Get("model").String()
	return a.response(), nil
}
