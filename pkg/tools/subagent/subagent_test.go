package subagent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/tavo-cli/tavo/pkg/tools"
)

func TestSchemasCompile(t *testing.T) {
	for _, tl := range All() {
		if err := tools.CheckTool(tl); err != nil {
			t.Error(err)
		}
		if tl.Spec().Resident {
			t.Errorf("%s is resident; sub-agent tools are found through tavo_tool_search", tl.Spec().Name)
		}
	}
}

func TestOutsideATree(t *testing.T) {
	_, err := list{}.Run(context.Background(), &tools.Call{Args: json.RawMessage(`{}`), Env: &tools.Env{}})
	if te := tools.AsError(err); te.Code != tools.CodeInternalError {
		t.Fatalf("outside a tree: %v", err)
	}
}
