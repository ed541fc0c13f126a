package gemini

import (
	"io"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// decodeJSON reads a GenerateContentResponse, or the JSON array of them that
// streamGenerateContent sends without alt=sse (a proxy may drop the query).
func decodeJSON(r io.Reader, hadTools bool) (*providers.Response, error) {
	root, err := providers.ReadJSON(r)
	if err != nil {
		return nil, err
	}
	chunks := []gjson.Result{root}
	if root.IsArray() {
		chunks = root.Array()
	}
	var a assembler
	for _, c := range chunks {
		if !c.IsObject() {
			return nil, &providers.Error{Code: providers.ErrProviderError, Message: "the response is JSON but not an object"}
		}
		if e := c.Get("error"); e.Exists() && e.Type != gjson.Null {
			return nil, classify(0, parseStatus(c), hadTools)
		}
		a.chunk(c, providers.DiscardSink{})
	}
	if err := a.check(); err != nil {
		return nil, err
	}
	if a.finish == "" && len(a.parts) == 0 {
		return nil, &providers.Error{Code: providers.ErrProviderError, Message: "the response has no candidates"}
	}
	return a.response(), nil
}

// check reports a prompt Gemini refused to answer at all.
func (a *assembler) check() error {
	if a.blocked != "" && len(a.parts) == 0 {
		return &providers.Error{Code: providers.ErrProviderError, Message: "Gemini blocked the prompt (" + a.blocked + ")", Err: providers.ErrPermanent}
	}
	return nil
}
