package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/providers/codecs"
	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/tools/builtin"
	"github.com/tavo-cli/tavo/pkg/tools/read"
)

// newCentre is the resource centre of a command's tools: artifacts in the
// store, local:// over the file store, http(s):// over the fetch engine,
// and workspace:// refused until useWorkspace opens one.
func newCentre(d builtin.Deps, workspace string) *resources.Centre {
	e := resources.Engines{Store: d.State, Files: d.Files, Workspace: workspace}
	if d.Fetch != nil {
		e.Fetch = d.Fetch
	}
	c, err := resources.NewStandard(e)
	if err != nil {
		// Only a workspace can fail, and callers pass none here.
		c, _ = resources.NewStandard(resources.Engines{Store: d.State, Files: d.Files, Fetch: e.Fetch})
	}
	return c
}

// useWorkspace opens dir as the centre's workspace:// ("" leaves every
// workspace read refused).
func useWorkspace(c *resources.Centre, dir string) error {
	if c == nil || dir == "" {
		return nil
	}
	ws, err := resources.Workspace(dir)
	if err != nil {
		return fmt.Errorf("--workspace: %w", err)
	}
	c.Set(ws)
	return nil
}

// ReadOptions are the inputs of `tavo read`.
type ReadOptions struct {
	Factory   *Factory
	Ctx       context.Context
	URL       string
	Session   string
	Workspace string
	// Profile names the profile whose workspace key applies when
	// --workspace is not given ("" is TAVO_PROFILE, else the default).
	Profile string
	// Page prints one page and the command for the next on stderr instead
	// of the whole range.
	Page bool
}

// NewCmdRead builds `tavo read`; runF, when not nil, runs instead of
// readRun (for tests).
func NewCmdRead(f *Factory, runF func(*ReadOptions) error) *cobra.Command {
	opts := &ReadOptions{Factory: f}
	c := &cobra.Command{
		Use:   "read URL",
		Short: "Read a resource URL the way tavo_read does (artifacts, files, workspace, web)",
		Long: `Read a resource URL through the same resource centre as the model's tavo_read:
artifact://ID (a tool result too large to show whole, a fetched page),
asset://ID (an attachment), local://NAME (a chat file, with --session) and
local://global/NAME, workspace://PATH (with --workspace DIR), http(s)://URL.

On text, a line selector goes before any query: :N, :START-END or
:START+COUNT (1-based, inclusive); a literal ':' in a name is %3A.
?view=meta prints the metadata instead of the content. ?question=TEXT on an
image asks the profile's vision_model and prints its answer.

Text output prints the whole selected range, read page by page; --page
prints one page of the model's budget (2,000 lines, 30,000 UTF-16 units)
and, when more remains, the command for the next on stderr. -o json prints
the one-page result object the model would get: {kind, text, source,
continue?}, {kind:"meta", …} or {kind:"media", …}.

workspace:// reads --workspace DIR, else the workspace key of the profile
(-p/--profile, TAVO_PROFILE, else the default profile); with neither, every
workspace read is refused.

Without --session every session's artifacts are readable; with it, only that
session's. Exit status: 0 on success, 1 when the resource is missing or may
not be read (permission_denied), 2 on an invalid URL or selector, 4 when
--session names no session.`,
		Example: `  tavo read artifact://art_01JDX8Q5ZK
  tavo read 'artifact://art_01JDX8Q5ZK:100-200'
  tavo read --workspace . workspace://go.mod:1+3
  tavo read --session ses_01J… local://notes.md?view=meta -o json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			opts.URL = args[0]
			return runOr(runF, readRun, opts)
		},
	}
	c.Flags().StringVar(&opts.Session, "session", "", "read as this session: its chat files and artifacts only")
	_ = c.RegisterFlagCompletionFunc("session", completeSessions(f))
	c.Flags().StringVar(&opts.Workspace, "workspace", "", "the directory workspace:// reads (read-only; default: the profile's workspace key)")
	c.Flags().StringVarP(&opts.Profile, "profile", "p", "", "profile whose workspace key applies (env TAVO_PROFILE)")
	_ = c.RegisterFlagCompletionFunc("profile", completeProfiles(f))
	_ = c.MarkFlagDirname("workspace")
	c.Flags().BoolVar(&opts.Page, "page", false, "print one budgeted page, not the whole range")
	return c
}

func readRun(opts *ReadOptions) error {
	f := opts.Factory
	out, err := textOutput(f)
	if err != nil {
		return usageError(err)
	}
	if opts.Session != "" {
		if err := files.CheckSession(opts.Session); err != nil {
			return usageError(err)
		}
		st, err := f.Store(opts.Ctx)
		if err != nil {
			return failedError(err)
		}
		if err := checkSession(opts.Ctx, st, opts.Session); err != nil {
			return err
		}
	}
	ws, err := readWorkspace(opts)
	if err != nil {
		return err
	}
	log := f.auditLog()
	c, err := resources.NewStandard(resources.Engines{Store: log.open, Files: f.Files(),
		Fetch: fetchEngineWith(log), Workspace: ws})
	if err != nil {
		return usageError(fmt.Errorf("workspace: %w", err))
	}
	if strings.Contains(opts.URL, "question=") {
		if err := readVision(opts, c); err != nil {
			return err
		}
	}
	scope := resources.Scope{Person: true, SessionID: opts.Session}
	url := opts.URL
	for {
		res, err := c.Read(opts.Ctx, resources.Request{URL: url, Scope: scope})
		if err != nil {
			return readError(err)
		}
		if out.Structured() {
			if out.JQ != nil {
				return out.WriteValue(jsonDoc(res))
			}
			return out.WriteValue(res)
		}
		switch r := res.(type) {
		case *resources.Meta:
			return printMeta(f, r)
		case *resources.Media:
			fmt.Fprintf(f.IO.Out, "%s\t%s\t%d bytes\n", r.URL, r.MediaType, r.Bytes)
			return nil
		case *resources.Text:
			if _, err := f.IO.Out.Write([]byte(r.Text)); err != nil {
				return err
			}
			if r.Continue == "" {
				return nil
			}
			if opts.Page {
				note(f, "more: tavo read '%s'", r.Continue)
				return nil
			}
			url = r.Continue
		}
	}
}

// readWorkspace is the directory workspace:// reads: --workspace, else the
// chosen profile's workspace key. The config is loaded only when the flag
// is absent.
func readWorkspace(opts *ReadOptions) (string, error) {
	if opts.Workspace != "" {
		return config.RunWorkspace(opts.Workspace, config.Profile{}), nil
	}
	cfg, err := loadConfig(opts.Factory)
	if err != nil {
		return "", err
	}
	_, p, err := cfg.SelectedProfile(opts.Profile, opts.Factory.Getenv)
	if err != nil {
		return "", usageError(err)
	}
	return config.RunWorkspace("", p), nil
}

// readVision lets ?question= ask the chosen profile's vision_model, as in
// a run; the provider is resolved only for a URL that asks.
func readVision(opts *ReadOptions, c *resources.Centre) error {
	cfg, err := loadConfig(opts.Factory)
	if err != nil {
		return err
	}
	_, p, err := cfg.SelectedProfile(opts.Profile, opts.Factory.Getenv)
	if err != nil {
		return usageError(err)
	}
	if p.QuestionModel() == "" {
		return nil
	}
	res, err := cfg.Resolve(config.Overrides{Profile: opts.Profile}, opts.Factory.Getenv)
	if err != nil {
		return usageError(err)
	}
	provider, err := codecs.New(res.Protocol, res.ProviderConfig())
	if err != nil {
		return usageError(err)
	}
	c.SetVision(read.Vision(provider, p.QuestionModel()))
	return nil
}

// printMeta prints metadata as "key: value" lines.
func printMeta(f *Factory, m *resources.Meta) error {
	fmt.Fprintf(f.IO.Out, "url: %s\nname: %s\nmedia_type: %s\nsize: %d\n", m.URL, m.Name, m.MediaType, m.Size)
	if m.Lines != nil {
		fmt.Fprintf(f.IO.Out, "lines: %d\n", *m.Lines)
	}
	if m.ModifiedAt != "" {
		fmt.Fprintf(f.IO.Out, "modified_at: %s\n", m.ModifiedAt)
	}
	if m.SHA256 != "" {
		fmt.Fprintf(f.IO.Out, "sha256: %s\n", m.SHA256)
	}
	return nil
}

// readError maps a read's failure to the exit status: an invalid URL is a
// usage error (2), anything else a failure (1), said as "CODE: message".
func readError(err error) error {
	var re *resources.Error
	if errors.As(err, &re) {
		e := fmt.Errorf("%s: %s", re.Code, re.Message)
		if re.Code == resources.CodeInvalidArguments {
			return usageError(e)
		}
		return failedError(e)
	}
	return failedError(err)
}

// jsonDoc turns v into plain JSON values for --jq.
func jsonDoc(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var doc any
	if json.Unmarshal(b, &doc) != nil {
		return v
	}
	return doc
}

// formatTime is the RFC 3339 time artifact listings show.
func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// artifactURL is the URL an artifact is read by.
func artifactURL(kind, id string) string {
	return strings.ToLower(kind) + "://" + id
}
