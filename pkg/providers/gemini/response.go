package gemini

import (
	"fmt"
	"io"
	"time"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// maxJSONResponse bounds a non-streamed answer; real ones are kilobytes.
const maxJSONResponse = 64 << 20

// decodeJSON reads a GenerateContentResponse, or the JSON array of them that
// streamGenerateContent sends without alt=sse (a proxy may drop the query).
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
		a.chunk(c, discardSink{})
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

// discardSink drops deltas: a non-streamed answer has none to give.
type discardSink struct{}

func (discardSink) TextDelta(string)                 {}
func (discardSink) ReasoningDelta(string)            {}
func (discardSink) Retry(int, time.Duration, string) {}
