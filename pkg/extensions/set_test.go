package extensions

import (
	"context"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/config"
)

func TestSetEmpty(t *testing.T) {
	set, err := New(&config.Config{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !set.Empty() || set.Tools() != nil || set.Close() != nil {
		t.Fatal("an empty config gave extension tools")
	}
	// An MCP server alone is enough for the search to be offered.
	set, _ = New(&config.Config{MCP: map[string]*config.MCPServer{"demo": stdioServer("serve")}}, Options{})
	if set.Empty() || len(set.Tools()) != 1 || set.Tools()[0].Spec().Name != SearchName {
		t.Fatalf("tools = %v", set.Tools())
	}
}

func TestSetRestrict(t *testing.T) {
	set := searchSet(t, map[string]*config.MCPServer{"demo": stdioServer("serve")})
	r, rest, err := set.Restrict([]string{"tavo_web_fetch", "wordcount", "mcp/demo:echo"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rest, ",") != "tavo_web_fetch" || len(r.CommandTools()) != 1 {
		t.Fatalf("rest = %v, commands = %v", rest, r.CommandTools())
	}
	cat := mustCatalog(t)
	specs, failed := r.Load(context.Background(), cat)
	if len(failed) != 0 || len(specs) != 1 || specs[0].Name != "demo__echo" {
		t.Fatalf("loaded %v, failed %v", specs, failed)
	}

	r, _, _ = set.Restrict([]string{"mcp/demo"})
	if len(r.CommandTools()) != 0 || r.Empty() {
		t.Fatalf("a whole server: commands %v", r.CommandTools())
	}
	if specs, _ := r.Load(context.Background(), mustCatalog(t)); len(specs) < 5 {
		t.Errorf("a whole server loaded %d tools", len(specs))
	}

	r, _, _ = set.Restrict([]string{"tavo_web_fetch"})
	if !r.Empty() || r.Tools() != nil {
		t.Error("built-ins only still offered extension tools")
	}
	for _, bad := range []string{"mcp/nope", "mcp/nope:x", "extension/command:nope"} {
		if _, _, err := set.Restrict([]string{bad}); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
