package webfetch

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAuditArgumentsDropsCursorsAndCredentials(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"url":"https://x.test/a?q=1","headers":{"Accept":"text/html","Authorization":"Bearer TOK","X-Session-Token":"TOK2"}}`,
			`{"headers":{"Accept":"text/html","Authorization":"[redacted]","X-Session-Token":"[redacted]"},"url":"https://x.test/a?q=1"}`},
		{`{"cursor":"CURSOR-SECRET"}`, `{"cursor":"[omitted]"}`},
		{`{"url":"https://x.test","cursor":"CURSOR-SECRET"}`, `{"cursor":"[omitted]","url":"https://x.test"}`},
		{`{"headers":"Bearer TOK"}`, `{"headers":"[redacted]"}`},
		{`"not json {cursor: CURSOR-SECRET}"`, `"[redacted]"`},
		{`null`, `"[redacted]"`},
	} {
		got := string(AuditArguments(json.RawMessage(tc.in)))
		if got != tc.want {
			t.Errorf("AuditArguments(%s) = %s, want %s", tc.in, got, tc.want)
		}
		if strings.Contains(got, "TOK") || strings.Contains(got, "CURSOR-SECRET") {
			t.Errorf("AuditArguments(%s) kept a secret: %s", tc.in, got)
		}
	}
}
