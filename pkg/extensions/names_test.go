package extensions

import (
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/tools"
)

func TestModelName(t *testing.T) {
	long := strings.Repeat("t", 80)
	cases := []struct {
		server, tool, want string
	}{
		{"github", "create_issue", "github__create_issue"},
		{"fs", "read-file", "fs__read-file"},
		{"1password", "get", "mcp_1password__get"},
		{"fs", "read.file", "fs__read_file_" + hash6("mcp/fs:read.file")},
		{"fs", "read file", "fs__read_file_" + hash6("mcp/fs:read file")},
		{"fs", "lire_fichier_é", "fs__lire_fichier___" + hash6("mcp/fs:lire_fichier_é")},
		{"s", long, ("s__" + long)[:57] + "_" + hash6("mcp/s:"+long)},
	}
	for _, tc := range cases {
		got := ModelName(tc.server, tc.tool)
		if got != tc.want {
			t.Errorf("ModelName(%q, %q) = %q, want %q", tc.server, tc.tool, got, tc.want)
		}
		if !tools.ValidName(got) || !isLetter(got[0]) {
			t.Errorf("%q breaks a provider's name rules", got)
		}
	}
	// Names that sanitise alike stay apart.
	if ModelName("fs", "a.b") == ModelName("fs", "a/b") || ModelName("fs", "a.b") == ModelName("fs", "a_b") {
		t.Error("colliding names")
	}
}

func TestUniqueName(t *testing.T) {
	ct, err := NewCommandTool("fs__read", &config.CommandTool{Command: []string{"cat"}}, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	cat := mustCatalog(t, ct)
	if got := uniqueName(cat, "fs__read", "mcp/fs:read"); got != "fs__read_"+hash6("mcp/fs:read") {
		t.Errorf("taken name kept: %q", got)
	}
	if got := uniqueName(cat, "fs__write", "mcp/fs:write"); got != "fs__write" {
		t.Errorf("free name changed: %q", got)
	}
}

func hash6(id string) string {
	s := withHash("", id)
	return s[1:]
}
