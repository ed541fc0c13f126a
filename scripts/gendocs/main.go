// Command gendocs regenerates tavo's shell completions and man pages from the
// command tree, so they can never drift from the flags. Run it through
// scripts/gen-docs.sh; CI runs scripts/gen-docs.sh --check.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra/doc"
	"github.com/tavo-cli/tavo/cmd"
	"github.com/tavo-cli/tavo/pkg/cli"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gendocs OUTDIR")
		os.Exit(2)
	}
	if err := generate(os.Args[1]); err != nil {
		fmt.Fprintf(os.Stderr, "gendocs: %v\n", err)
		os.Exit(1)
	}
}

func generate(out string) error {
	ios, _, _, _ := cli.Test()
	root := cmd.NewCmdRoot(&cmd.Factory{IO: ios, Getenv: func(string) string { return "" }})
	root.DisableAutoGenTag = true

	comp := filepath.Join(out, "completions")
	man := filepath.Join(out, "man")
	for _, d := range []string{comp, man} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	files := []struct {
		name string
		gen  func(string) error
	}{
		{"tavo.bash", func(p string) error { return root.GenBashCompletionFileV2(p, true) }},
		{"_tavo", root.GenZshCompletionFile},
		{"tavo.fish", func(p string) error { return root.GenFishCompletionFile(p, true) }},
		{"tavo.ps1", root.GenPowerShellCompletionFileWithDesc},
	}
	for _, f := range files {
		if err := f.gen(filepath.Join(comp, f.name)); err != nil {
			return fmt.Errorf("completion %s: %w", f.name, err)
		}
	}
	// A fixed date keeps the pages reproducible: CI regenerates and diffs them.
	date := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	header := &doc.GenManHeader{Title: "TAVO", Section: "1", Source: "tavo", Manual: "tavo manual", Date: &date}
	return doc.GenManTree(root, header, man)
}
