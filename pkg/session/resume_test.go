package session

import (
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

func result(callID, content string) providers.Part {
	return providers.Part{Type: providers.PartToolResult, ToolResult: &providers.ToolResult{CallID: callID, Name: "t", Content: content}}
}

func TestDropSupersededKeepsTheLatestResultOfACall(t *testing.T) {
	call := providers.ToolCall{ID: "c1", Name: "t"}
	h := &History{
		Messages: []providers.Message{
			msg(providers.RoleUser, "go"),
			{Role: providers.RoleAssistant, Parts: []providers.Part{{Type: providers.PartToolCall, ToolCall: &call}}},
			{Role: providers.RoleTool, Parts: []providers.Part{result("c1", "cancelled")}},
			{Role: providers.RoleTool, Parts: []providers.Part{result("c1", "answered")}},
			msg(providers.RoleAssistant, "done"),
		},
		Seqs: []int64{1, 2, 3, 4, 5},
	}
	dropSuperseded(h)
	if len(h.Messages) != 4 || h.Seqs[2] != 4 || h.Messages[2].Parts[0].ToolResult.Content != "answered" {
		t.Fatalf("history %+v seqs %v", h.Messages, h.Seqs)
	}
}
