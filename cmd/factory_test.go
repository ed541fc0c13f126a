package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tavo-cli/tavo/pkg/cli"
)

// TestVersionAndHelpTouchNothing pins the lazy Factory: with a config file
// that does not parse and a data directory that cannot be created, version,
// --version and --help still succeed, because none of them reads the config
// or opens the store.
func TestVersionAndHelpTouchNothing(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte("this is [not toml"), 0o600); err != nil {
		t.Fatal(err)
	}
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"TAVO_CONFIG": cfg, "TAVO_DATA_DIR": filepath.Join(blocker, "data")}
	for _, args := range [][]string{{"version"}, {"--version"}, {"--help"}, {"profile", "--help"}, {"version", "-o", "json"}} {
		ios, _, out, errOut := cli.Test()
		f := &Factory{IO: ios, Getenv: func(k string) string { return env[k] }}
		if code := ExecuteWith(context.Background(), f, args); code != 0 || errOut.Len() != 0 {
			t.Fatalf("tavo %s: exit %d, stderr %q", strings.Join(args, " "), code, errOut)
		}
		if out.Len() == 0 {
			t.Fatalf("tavo %s printed nothing", strings.Join(args, " "))
		}
		if f.cfgDone || f.st != nil {
			t.Fatalf("tavo %s loaded the config or opened the store", strings.Join(args, " "))
		}
	}
}

// TestFactoryConfigLoadsOnce checks that the config is read on first use
// and the same value returned after, so commands share one load.
func TestFactoryConfigLoadsOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte("[profiles.a]\nmodel = \"m\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := &Factory{Getenv: func(string) string { return "" }, ConfigPath: path}
	c1, err := f.Config()
	if err != nil || !c1.HasProfile("a") {
		t.Fatalf("first load: %v", err)
	}
	if err := os.WriteFile(path, []byte("broken ["), 0o600); err != nil {
		t.Fatal(err)
	}
	if c2, err := f.Config(); err != nil || c2 != c1 {
		t.Fatalf("second call reloaded: %v", err)
	}
}

// TestFactoryStoreOpensOnceAndClosesAtExit checks the lazy store: one
// handle for the whole command, closed by the cleanup.
func TestFactoryStoreOpensOnceAndClosesAtExit(t *testing.T) {
	f := &Factory{Getenv: func(string) string { return "" }, DataDir: t.TempDir()}
	ctx := context.Background()
	s1, err := f.Store(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s2, err := f.Store(ctx); err != nil || s2 != s1 {
		t.Fatalf("second call opened another store: %v", err)
	}
	f.runCleanup()
	if _, err := s1.Memory(ctx); err == nil {
		t.Fatal("store still open after cleanup")
	}
}
