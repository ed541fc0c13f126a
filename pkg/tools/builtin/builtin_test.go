package builtin

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/extensions"
	"github.com/tavo-cli/tavo/pkg/fetch"
	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/search"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
)

// names lists a catalog's tool names, sorted.
func names(t *testing.T, c *tools.Catalog) string {
	t.Helper()
	var out []string
	for _, s := range c.Specs() {
		out = append(out, s.Name)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// extSet is a config with one command tool, "deploy".
func extSet(t *testing.T) *extensions.Set {
	t.Helper()
	set, err := extensions.New(&config.Config{Tools: map[string]*config.CommandTool{
		"deploy": {Description: "Deploy it", Command: []string{"true"}},
	}}, extensions.Options{Getenv: func(string) string { return "" }, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { set.Close() })
	return set
}

func everyDep(t *testing.T) Deps {
	return Deps{
		Fetch:  &fetch.Engine{UserAgent: "tavo/test"},
		Files:  files.Open(t.TempDir()),
		Search: &search.Runner{},
		State: func(context.Context) (*store.Store, error) {
			return nil, errors.New("not opened in this test")
		},
		Extensions: extSet(t),
	}
}

func TestEngineLessDepsGiveOnlyTheCoreTools(t *testing.T) {
	c, err := Catalog(Deps{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(t, c); got != "tavo_ask_user tavo_finish tavo_send_message tavo_tool_search tavo_wait" {
		t.Fatalf("tools %q", got)
	}
}

func TestEveryDepAddsItsTools(t *testing.T) {
	c, err := Catalog(everyDep(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := names(t, c)
	for _, want := range []string{"tavo_ask_user", "tavo_tool_search", "tavo_web_fetch", "tavo_web_search", "tavo_file_save", "tavo_file_list", "tavo_memory", "deploy", "extension_tool_search"} {
		if !strings.Contains(" "+got+" ", " "+want) {
			t.Errorf("catalog %q lacks %s", got, want)
		}
	}
	d := everyDep(t)
	d.NoExtensionSearch = true
	c, err = Catalog(d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(t, c); strings.Contains(got, "extension_tool_search") || !strings.Contains(got, "deploy") {
		t.Fatalf("without extension search: %q", got)
	}
}

func TestAllowListKeepsOnlyNamedTools(t *testing.T) {
	d := everyDep(t)
	c, err := Catalog(d, []string{"tavo_file_save", "deploy", "tavo_file_save"})
	if err != nil {
		t.Fatal(err)
	}
	// Each name once; the restricted extension set brings its search.
	if got := names(t, c); got != "deploy extension_tool_search tavo_file_save" {
		t.Fatalf("allow-listed catalog %q", got)
	}
}

func TestAllowListRefusesUnknownAndUnavailableNames(t *testing.T) {
	d := Deps{Unavailable: map[string]string{"tavo_web_search": "no search API is configured"}}
	_, err := Catalog(d, []string{"tavo_web_search"})
	if err == nil || err.Error() != `tool "tavo_web_search" is unavailable: no search API is configured` {
		t.Fatalf("unavailable: %v", err)
	}
	_, err = Catalog(d, []string{"tavo_file_sav"})
	if err == nil || !strings.Contains(err.Error(), `unknown tool "tavo_file_sav" in --tool (known: tavo_ask_user, tavo_finish, tavo_send_message, tavo_tool_search, tavo_wait)`) {
		t.Fatalf("unknown: %v", err)
	}
}
