package anthropic

import (
	"io"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// decodeJSON reads a non-streamed Message object.
func decodeJSON(r io.Reader, hadTools bool) (*providers.Response, error) {
	root, err := providers.ReadJSON(r)
	if err != nil {
		return nil, err
	}
	if root.Get("type").String() == "error" || root.Get("error").IsObject() {
		return nil, classify(0, parseEnvelope([]byte(root.Raw)), hadTools)
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
