package providers

import (
	"reflect"
	"testing"
)

func TestApplyParams(t *testing.T) {
	body := map[string]any{"model": "m", "stream": true, "max_completion_tokens": 100}
	ApplyParams(body, map[string]any{"max_completion_tokens": nil, "max_tokens": 50, "model": "m2", "absent": nil})
	want := map[string]any{"model": "m2", "stream": true, "max_tokens": 50}
	if !reflect.DeepEqual(body, want) {
		t.Fatalf("body = %v, want %v", body, want)
	}
	ApplyParams(body, nil)
	if !reflect.DeepEqual(body, want) {
		t.Fatalf("nil params changed the body to %v", body)
	}
}
