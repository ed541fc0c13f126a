package gemini

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/providers/sse"
)

// decodeStream reads an alt=sse stream: one GenerateContentResponse per
// data line, CRLF framing, no event names and no end marker. The stream is
// whole when a finish reason came before it ended.
func decodeStream(r io.Reader, sink providers.Sink, hadTools bool) (*providers.Response, error) {
	events := sse.NewReader(r)
	var a assembler
	for n := 1; ; n++ {
		ev, err := events.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, sse.ErrTooLong) {
			return nil, &providers.Error{Code: providers.ErrProviderError, Message: fmt.Sprintf("stream event %d is too large: %v", n, err), Err: err}
		}
		if err != nil {
			return nil, providers.StreamCut(fmt.Sprintf("after %d events", n-1), err)
		}
		data := strings.TrimSpace(ev.Data)
		if data == "" {
			continue
		}
		if !gjson.Valid(data) {
			return nil, &providers.Error{Code: providers.ErrProviderError, Message: fmt.Sprintf("stream event %d is not valid JSON (%d bytes)", n, len(data))}
		}
		root := gjson.Parse(data)
		if !root.IsObject() {
			return nil, &providers.Error{Code: providers.ErrProviderError, Message: fmt.Sprintf("stream event %d is JSON but not an object", n)}
		}
		if e := root.Get("error"); e.Exists() && e.Type != gjson.Null {
			return nil, classify(0, parseStatus(root), hadTools)
		}
		a.chunk(root, sink)
	}
	if err := a.check(); err != nil {
		return nil, err
	}
	if a.finish == "" {
		return nil, providers.StreamCut("the stream ended without a finish reason", nil)
	}
	return a.response(), nil
}
