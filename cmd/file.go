package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/files"
)

// FileOptions are the flags every `tavo file` subcommand shares.
type FileOptions struct {
	Scope   string
	Session string
}

func newCmdFile(f *Factory) *cobra.Command {
	o := &FileOptions{}
	c := &cobra.Command{
		Use:   "file",
		Short: "List, read, write and delete stored files (what the model's file tools see)",
		Long: `Work with tavo's file store, the files the model reads and writes through
tavo_file_save, tavo_file_load, tavo_file_list, tavo_file_exists and
tavo_file_delete. Files live in the global scope, shared by every session, or
in the chat scope of one session (--session ID, the id in run.started).
--scope defaults to chat when --session is given, else global.

A name is one file name: no '/', '\', ':', NUL or control characters, not
'.' or '..'. Exit status: 0 on success, 1 when a file is missing or an
operation failed, 2 on a usage error such as an invalid name.`,
		Example: `  printf 'hello' | tavo file put notes.txt
  tavo file get notes.txt | wc -c
  tavo file put --session ses_01J… data.csv ./data.csv
  tavo file exists report.md && tavo file get report.md > report.md
  tavo file ls --scope global -o json --jq '.files[].name'`,
	}
	pf := c.PersistentFlags()
	pf.StringVar(&o.Scope, "scope", "", "chat|global (default: chat with --session, else global)")
	pf.StringVar(&o.Session, "session", "", "the session whose chat files to use")
	c.AddCommand(newCmdFileLs(f, o), newCmdFileGet(f, o), newCmdFilePut(f, o), newCmdFileRm(f, o), newCmdFileExists(f, o))
	return c
}

// location resolves --scope and --session.
func (o *FileOptions) location() (files.Location, error) {
	scope := files.Scope(o.Scope)
	switch {
	case o.Scope == "" && o.Session != "":
		scope = files.ScopeChat
	case o.Scope == "":
		scope = files.ScopeGlobal
	case scope != files.ScopeChat && scope != files.ScopeGlobal:
		return files.Location{}, usageError(fmt.Errorf("--scope must be chat or global, got %q", o.Scope))
	}
	if scope == files.ScopeGlobal && o.Session != "" {
		return files.Location{}, usageError(errors.New("--session selects chat files; drop it or use --scope chat"))
	}
	if scope == files.ScopeChat && o.Session == "" {
		return files.Location{}, usageError(errors.New("--scope chat needs --session ID (the session id from run.started)"))
	}
	loc, err := files.NewLocation(scope, o.Session)
	if err != nil {
		return files.Location{}, usageError(err)
	}
	return loc, nil
}

// fileError turns a store error into the command's exit status: a bad
// argument is a usage error (2), anything else a failure (1).
func fileError(err error) error {
	if errors.Is(err, files.ErrInvalid) {
		return usageError(err)
	}
	return &ExitError{Code: 1, Err: err}
}

// target resolves the scope flags and checks names, so that a command
// refuses an invalid name before it does anything.
func (o *FileOptions) target(names ...string) (files.Location, error) {
	loc, err := o.location()
	if err != nil {
		return files.Location{}, err
	}
	for _, n := range names {
		if err := files.CheckName(n); err != nil {
			return files.Location{}, usageError(err)
		}
	}
	return loc, nil
}

func newCmdFileLs(f *Factory, o *FileOptions) *cobra.Command {
	var limit int
	var cursor string
	var all bool
	c := &cobra.Command{
		Use:   "ls",
		Short: "List files, sorted by name",
		Long: `List the files of a scope, sorted by name (case-sensitive), one page at a time.
On a terminal: a table NAME SIZE MODIFIED MIME. In a pipe: one file per line,
name, size in bytes, modification time (RFC 3339, UTC) and MIME type separated
by tabs. -o json prints {files, nextCursor}; -o ndjson one file per line.
When more files remain, the command to get the next page is printed on stderr
(text) or nextCursor is set (json); --all lists every page.`,
		Example: `  tavo file ls --scope global
  tavo file ls --session ses_01J… --limit 20
  tavo file ls --all | cut -f1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			loc, err := o.location()
			if err != nil {
				return err
			}
			if limit < 1 || limit > files.MaxListLimit {
				return usageError(fmt.Errorf("--limit must be 1-%d, got %d", files.MaxListLimit, limit))
			}
			out, err := cli.NewOutput(f.IO, f.Output, f.JQ, cli.FormatText)
			if err != nil {
				return usageError(err)
			}
			ctx, stop := signalContext(cmd.Context())
			defer stop()
			store := files.Open(f.DataDirectory())
			page := files.Page{Files: []files.Entry{}}
			next := cursor
			for {
				p, err := store.List(ctx, loc, files.ListOptions{Limit: limit, Cursor: next})
				if err != nil {
					return fileError(err)
				}
				page.Files = append(page.Files, p.Files...)
				next = p.NextCursor
				if !all || next == "" {
					break
				}
			}
			page.NextCursor = next
			switch {
			case out.Format == cli.FormatNDJSON:
				return cli.WriteList(out, page.Files)
			case out.Structured():
				return out.WriteValue(page)
			}
			if err := printFileTable(f, page.Files); err != nil {
				return err
			}
			if page.NextCursor != "" && !f.Quiet {
				fmt.Fprintf(f.IO.ErrOut, "tavo: more files: tavo file ls %s--cursor %s\n", o.flags(loc), page.NextCursor)
			}
			return nil
		},
	}
	c.Flags().IntVarP(&limit, "limit", "n", files.DefaultListLimit, fmt.Sprintf("files per page (1-%d)", files.MaxListLimit))
	c.Flags().StringVar(&cursor, "cursor", "", "continue a listing from its nextCursor")
	c.Flags().BoolVar(&all, "all", false, "list every page")
	return c
}

// flags renders the scope flags that select loc, for hints.
func (o *FileOptions) flags(loc files.Location) string {
	if loc.Scope == files.ScopeChat {
		return "--session " + loc.Session + " "
	}
	return "--scope global "
}

// printFileTable prints entries: aligned for people, exact for pipes.
func printFileTable(f *Factory, entries []files.Entry) error {
	tty := f.IO.IsStdoutTTY()
	if tty && len(entries) == 0 {
		fmt.Fprintln(f.IO.ErrOut, "no files")
		return nil
	}
	t := cli.NewTable(f.IO, "NAME", "SIZE", "MODIFIED", "MIME")
	for _, e := range entries {
		if tty {
			t.AddRow(e.Name, humanSize(e.Size), e.ModifiedAt.Local().Format("2006-01-02 15:04"), e.MIMEType)
		} else {
			t.AddRow(e.Name, fmt.Sprint(e.Size), e.ModifiedAt.UTC().Format("2006-01-02T15:04:05.000Z"), e.MIMEType)
		}
	}
	return t.Render()
}

// humanSize renders a size for people: 512 B, 1.5 KiB, 20 MiB.
func humanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, suffix := float64(n), ""
	for _, s := range []string{"KiB", "MiB", "GiB", "TiB"} {
		v /= unit
		suffix = s
		if v < unit {
			break
		}
	}
	s := fmt.Sprintf("%.1f", v)
	return strings.TrimSuffix(s, ".0") + " " + suffix
}

func newCmdFileGet(f *Factory, o *FileOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "get NAME",
		Short: "Write a file's bytes to stdout",
		Long:  `Write a file's content to stdout, byte for byte, whatever its size or type.`,
		Example: `  tavo file get report.md > report.md
  tavo file get --session ses_01J… chart.png | base64`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			loc, err := o.target(args[0])
			if err != nil {
				return err
			}
			ctx, stop := signalContext(cmd.Context())
			defer stop()
			rc, _, err := files.Open(f.DataDirectory()).Reader(ctx, loc, args[0])
			if err != nil {
				return fileError(err)
			}
			defer rc.Close()
			if _, err := io.Copy(f.IO.Out, rc); err != nil {
				return &ExitError{Code: 1, Err: fmt.Errorf("writing %s to stdout: %w", loc.Path(args[0]), err)}
			}
			return nil
		},
	}
}

func newCmdFilePut(f *Factory, o *FileOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "put NAME [PATH]",
		Short: "Save stdin or a local file as NAME",
		Long: fmt.Sprintf(`Save the content of PATH, or of stdin when PATH is absent or "-", as the file
NAME, replacing any file of that name. The write is atomic: readers see the
old file or the new one. At most %d MiB a file. -o json prints the new entry.`, files.DefaultMaxFileSize>>20),
		Example: `  printf 'hi' | tavo file put greeting.txt
  tavo file put --session ses_01J… data.csv ./export/data.csv`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			loc, err := o.target(args[0])
			if err != nil {
				return err
			}
			out, err := cli.NewOutput(f.IO, f.Output, f.JQ, cli.FormatText)
			if err != nil {
				return usageError(err)
			}
			var in io.Reader = f.IO.In
			if len(args) == 2 && args[1] != "-" {
				fh, err := os.Open(args[1])
				if err != nil {
					return &ExitError{Code: 1, Err: fmt.Errorf("reading %s: %w", args[1], errors.Unwrap(err))}
				}
				defer fh.Close()
				in = fh
			} else if f.IO.IsStdinTTY() {
				return usageError(errors.New("put reads the content from PATH or a pipe: give PATH, or pipe data in"))
			}
			ctx, stop := signalContext(cmd.Context())
			defer stop()
			e, err := files.Open(f.DataDirectory()).SaveFrom(ctx, loc, args[0], in)
			if err != nil {
				return fileError(err)
			}
			if out.Structured() {
				return out.WriteValue(e)
			}
			if f.IO.IsStderrTTY() && !f.Quiet {
				fmt.Fprintf(f.IO.ErrOut, "saved %s (%s)\n", e.Path, humanSize(e.Size))
			}
			return nil
		},
	}
}

func newCmdFileRm(f *Factory, o *FileOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "rm NAME...",
		Short: "Delete files",
		Long:  `Delete files. A missing file is reported on stderr and makes the exit status 1; the others are still deleted.`,
		Example: `  tavo file rm old.txt
  tavo file ls --scope global | cut -f1 | grep '\.tmp$' | xargs tavo file rm`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			loc, err := o.target(args...)
			if err != nil {
				return err
			}
			ctx, stop := signalContext(cmd.Context())
			defer stop()
			store := files.Open(f.DataDirectory())
			var last error
			for _, name := range args {
				if err := store.Delete(ctx, loc, name); err != nil {
					if last != nil {
						printError(f, last)
					}
					last = err
				}
			}
			if last != nil {
				return fileError(last)
			}
			return nil
		},
	}
}

func newCmdFileExists(f *Factory, o *FileOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "exists NAME",
		Short:   "Exit 0 when a file exists, 1 when it does not",
		Long:    `Print nothing; exit 0 when NAME is a file of the scope, 1 when it is not, 2 on a usage error.`,
		Example: `  tavo file exists notes.txt || printf 'start\n' | tavo file put notes.txt`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			loc, err := o.target(args[0])
			if err != nil {
				return err
			}
			ok, err := files.Open(f.DataDirectory()).Exists(cmd.Context(), loc, args[0])
			if err != nil {
				return fileError(err)
			}
			if !ok {
				return silentExit(1)
			}
			return nil
		},
	}
}
