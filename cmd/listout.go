package cmd

import "github.com/tavo-cli/tavo/pkg/cli"

// writePage prints one page of a cursor listing in a structured format
// (docs/output.md): an object with next_cursor for json, one row per line
// for ndjson with the cursor hinted on stderr, as text output does.
func writePage[T any](f *Factory, out *cli.Output, key string, items []T, next string) error {
	if err := cli.WritePage(out, key, items, next); err != nil {
		return err
	}
	if out.Format == cli.FormatNDJSON {
		pageHint(f, next)
	}
	return nil
}
