package anthropic

import (
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers/providertest"
)

func FuzzDecodeStream(f *testing.F) {
	f.Add([]byte(frames(ev(msgStart), ev(blockStart("0", `{"type":"text","text":""}`)), ev(blockDelta("0", `{"type":"text_delta","text":"a"}`)), ev(msgDelta("end_turn")), ev(msgStop))))
	f.Add([]byte(frames(ev(blockStart("1", `{"type":"tool_use","id":"t","name":"f","input":{"a":1}}`)), ev(blockDelta("1", `{"type":"input_json_delta","partial_json":"{"}`)), ev(blockStart("1", `{"type":"text","text":"again"}`)), ev(msgDelta("tool_use")))))
	f.Add([]byte(frames(ev(blockStart("-1", `{"type":"thinking","thinking":"t"}`)), ev(blockDelta("-1", `{"type":"signature_delta","signature":"s"}`)), ev(msgStop))))
	f.Add([]byte(frames(ev(`{"type":"error","error":{"type":"overloaded_error","message":"x"}}`))))
	f.Add([]byte("event: message_start\r\ndata: {\"type\":\r\n\r\n"))
	f.Add([]byte("garbage"))
	providertest.FuzzDecodeStream(f, decodeStream, "message_stop", "stop_reason")
}

func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(`{"type":"message","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"text","text":"hi"},{"type":"tool_use","id":"a","name":"f","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":1}}`))
	f.Add([]byte(`{"type":"error","error":{"type":"x"}}`))
	f.Add([]byte(`{"content":[1,"a",null]}`))
	providertest.FuzzDecodeJSON(f, decodeJSON)
}

func FuzzClassifyHTTP(f *testing.F) {
	f.Add(400, []byte(`{"type":"error","error":{"type":"invalid_request_error","message":"tools.0.input_schema: bad"}}`))
	f.Add(529, []byte(`<html>`))
	f.Add(429, []byte(`{"error":"slow"}`))
	providertest.FuzzClassify(f, classifyHTTP)
}
