package gemini

import (
	"io"

	"github.com/tidwall/gjson"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// decodeStream reads an alt=sse stream: one GenerateContentResponse per
// data line, CRLF framing, no event names and no end marker. The stream is
// whole when a finish reason came before it ended.
func decodeStream(r io.Reader, sink providers.Sink, hadTools bool) (*providers.Response, error) {
	var a assembler
	_, err := providers.EachEvent(r, func(n int, _, data string) (bool, error) {
		root, err := providers.EventJSON(n, data)
		if err != nil {
			return false, err
		}
		if e := root.Get("error"); e.Exists() && e.Type != gjson.Null {
			return false, classify(0, parseStatus(root), hadTools)
		}
		a.chunk(root, sink)
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	if err := a.check(); err != nil {
		return nil, err
	}
	if a.finish == "" {
		return nil, providers.StreamCut("the stream ended without a finish reason", nil)
	}
	return a.response(), nil
}
