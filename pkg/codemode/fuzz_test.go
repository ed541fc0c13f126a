package codemode

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzValueGlue sends any JSON value from Go into a program as a tool's
// result, as the arguments of a second call, and back out as the return
// value: what comes out must be valid JSON equal to what went in (as
// encoding/json reads both), the arguments an object.
func FuzzValueGlue(f *testing.F) {
	for _, seed := range []string{
		`null`, `true`, `0`, `-0`, `1e308`, `-1.5e-7`, `9007199254740993`, `""`, `"é\u0000\ud83d\ude00"`,
		`"\ud800"`, `[1,[2,[3,{}]]]`, `{"a":{"b":[null,false,"x"]},"":1,"__proto__":{"p":1}}`,
		`{"constructor":1,"toJSON":2,"then":3}`, `"\u2028\u2029<script>"`, `{"a":1,"a":2}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var want any
		if !json.Valid([]byte(in)) || json.Unmarshal([]byte(in), &want) != nil {
			t.Skip()
		}
		var gotArgs json.RawMessage
		call := func(ctx context.Context, name string, args json.RawMessage) []byte {
			if name == "again" {
				gotArgs = args
				return []byte(`{"ok":true,"result":null}`)
			}
			return []byte(`{"ok":true,"result":` + in + `}`)
		}
		res, err := Run(context.Background(), Program{
			Code: `const v = await tools.value({}); await tools.again({v}); return v`,
			Call: call,
		})
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		var got any
		if err := json.Unmarshal(res.Value, &got); err != nil {
			t.Fatalf("%s: the return value %s is not JSON: %v", in, res.Value, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s came back as %s", in, res.Value)
		}
		var args map[string]any
		if err := json.Unmarshal(gotArgs, &args); err != nil || !reflect.DeepEqual(args["v"], want) {
			t.Fatalf("%s: arguments %s", in, gotArgs)
		}
	})
}
