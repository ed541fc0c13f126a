// Command gendocs regenerates tavo's shell completions and man pages from the
// command tree, so they can never drift from the flags. Run it through
// scripts/gen-docs.sh; CI runs scripts/gen-docs.sh --check.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
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
		// tavo completion bash's script, which works without bash-completion.
		{"tavo.bash", func(p string) error {
			return writeFile(p, func(w io.Writer) error { return cmd.WriteCompletion(root, "bash", w) })
		}},
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
	// No Title: each page gets its command's own (TAVO-SESSION-LIST).
	header := &doc.GenManHeader{Section: "1", Source: "tavo", Manual: "tavo manual", Date: &date}
	if err := doc.GenManTree(root, header, man); err != nil {
		return err
	}
	// Help topics (tavo help environment) get a page too.
	for _, c := range root.Commands() {
		if c.IsAdditionalHelpTopicCommand() {
			h := *header
			name := filepath.Join(man, strings.ReplaceAll(c.CommandPath(), " ", "-")+".1")
			if err := writeFile(name, func(w io.Writer) error { return doc.GenMan(c, &h, w) }); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
