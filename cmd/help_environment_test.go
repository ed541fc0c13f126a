package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// TestHelpEnvironmentListsEveryVariable reads tavo's sources for the
// variables they read (getenv("X"), the search APIs' usual keys, the
// variables set for command tools) and the protocol table's, and fails when
// `tavo help environment` misses one.
func TestHelpEnvironmentListsEveryVariable(t *testing.T) {
	help := environmentHelp()
	want := map[string]string{}
	for _, p := range providers.AllProtocols() {
		info, _ := providers.Lookup(p)
		for _, k := range append(info.KeyEnvs, info.BaseURLEnv) {
			want[k] = "protocol table"
		}
		if !strings.Contains(help, info.DefaultModel) {
			t.Errorf("help lacks %s's default model %s", p, info.DefaultModel)
		}
	}
	read := regexp.MustCompile(`[gG]etenv\("([A-Z][A-Z0-9_]*)"\)|"([A-Z][A-Z0-9_]*_API_KEY)"|"(TAVO_[A-Z_]+)[=" ]|"(XDG_[A-Z_]+)"`)
	// Variables of tests and benchmarks only, not of tavo.
	skip := map[string]bool{"FETCH_BENCH_CORPUS": true, "TAVO_PROVIDER_FIXTURES": true}
	for _, dir := range []string{".", "../pkg"} {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
				strings.Contains(path, "fake") || strings.Contains(path, "test") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range read.FindAllStringSubmatch(string(src), -1) {
				for _, name := range m[1:] {
					if name != "" && !skip[name] {
						want[name] = path
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, must := range []string{"TAVO_CONFIG", "TAVO_DATA_DIR", "TAVO_PROFILE", "TAVO_MODEL", "TAVILY_API_KEY", "NO_COLOR", "XDG_DATA_HOME"} {
		if want[must] == "" {
			t.Errorf("the source scan found no %s: the pattern is stale", must)
		}
	}
	for name, from := range want {
		if !regexp.MustCompile(`\b` + name + `\b`).MatchString(help) {
			t.Errorf("tavo help environment lacks %s (read in %s)", name, from)
		}
	}
}
