package cmd

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/store"
)

// ArtifactsOptions are the inputs of `tavo artifacts` and its subcommands.
type ArtifactsOptions struct {
	Factory *Factory
	Ctx     context.Context
	Session string
	Limit   int
	IDs     []string
}

// NewCmdArtifacts builds `tavo artifacts` (ls, show, rm); runF, when not
// nil, runs instead of each subcommand's logic (for tests).
func NewCmdArtifacts(f *Factory, runF func(*ArtifactsOptions) error) *cobra.Command {
	opts := &ArtifactsOptions{Factory: f}
	c := &cobra.Command{
		Use:   "artifacts",
		Short: "List, show and remove artifacts (tool results kept whole, fetched pages, attachments)",
		Long: `Artifacts are what tavo keeps whole when it cannot show it whole: a tool result
over the model's text budget, a page read through http(s)://, and the assets
--attach added. The model reads them with tavo_read, people with
` + "`tavo read artifact://ID`" + `. They belong to the session and run that made them
and are removed with their run (` + "`tavo runs prune`" + `) or session.

Exit status: 0 on success, 1 when an artifact is missing, 2 on a usage error,
4 when --session names no session.`,
		Example: `  tavo artifacts ls --session ses_01J…
  tavo artifacts show art_01JDX8Q5ZK
  tavo read artifact://art_01JDX8Q5ZK | less
  tavo artifacts rm art_01JDX8Q5ZK`,
	}
	c.PersistentFlags().StringVar(&opts.Session, "session", "", "only the artifacts of this session")
	_ = c.RegisterFlagCompletionFunc("session", completeSessions(f))
	ls := &cobra.Command{
		Use:   "ls",
		Short: "List artifacts, newest first",
		Example: `  tavo artifacts ls --session ses_01J…
  tavo artifacts ls -o json --jq '.[] | select(.size > 1000000) | .url'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			return runOr(runF, artifactsLsRun, opts)
		},
	}
	ls.Flags().IntVar(&opts.Limit, "limit", 100, "artifacts to list, 1-1000")
	show := &cobra.Command{
		Use:   "show ID",
		Short: "Show an artifact's metadata (read its content with tavo read)",
		Example: `  tavo artifacts show art_01JDX8Q5ZK
  tavo artifacts show art_01JDX8Q5ZK -o json --jq .sha256`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.IDs = cmd.Context(), args
			return runOr(runF, artifactsShowRun, opts)
		},
	}
	rm := &cobra.Command{
		Use:   "rm ID...",
		Short: "Remove artifacts",
		Example: `  tavo artifacts rm art_01JDX8Q5ZK
  tavo artifacts rm --session ses_01J… art_01JDX8Q5ZK art_01JDX8Q6AB`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.IDs = cmd.Context(), args
			return runOr(runF, artifactsRmRun, opts)
		},
	}
	c.AddCommand(ls, show, rm)
	return c
}

// artifactRow is one artifact as listings print it.
type artifactRow struct {
	store.Artifact
	URL string `json:"url"`
}

func artifactsLsRun(opts *ArtifactsOptions) error {
	f := opts.Factory
	if err := checkLimit(opts.Limit, 1000); err != nil {
		return err
	}
	out, st, err := storeOutputContext(opts.Ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := checkSession(opts.Ctx, st, opts.Session); err != nil {
		return err
	}
	arts, err := st.ListArtifacts(opts.Ctx, store.ArtifactFilter{SessionID: opts.Session, Limit: opts.Limit})
	if err != nil {
		return storeError(err)
	}
	rows := make([]artifactRow, 0, len(arts))
	for _, a := range arts {
		rows = append(rows, artifactRow{Artifact: a, URL: artifactURL(a.Kind, a.ID)})
	}
	if out.Structured() {
		return cli.WriteList(out, rows)
	}
	t := cli.NewTable(f.IO, "URL", "SESSION", "RUN", "NAME", "TYPE", "SIZE", "CREATED")
	for _, r := range rows {
		t.AddRow(r.URL, r.SessionID, r.RunID, r.Name, r.MediaType, strconv.FormatInt(r.Size, 10), formatTime(r.CreatedAt))
	}
	return t.Render()
}

// getArtifact finds id, within --session when given.
func getArtifact(ctx context.Context, st *store.Store, id, session string) (*store.Artifact, error) {
	a, err := st.GetArtifact(ctx, id)
	if err == nil && session != "" && a.SessionID != session {
		err = store.ErrNotFound
	}
	if errors.Is(err, store.ErrNotFound) {
		where := ""
		if session != "" {
			where = " in session " + session
		}
		return nil, failedError(fmt.Errorf("no artifact %q%s (see `tavo artifacts ls`)", id, where))
	}
	if err != nil {
		return nil, storeError(err)
	}
	return a, nil
}

func artifactsShowRun(opts *ArtifactsOptions) error {
	f := opts.Factory
	out, st, err := storeOutputContext(opts.Ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := checkSession(opts.Ctx, st, opts.Session); err != nil {
		return err
	}
	a, err := getArtifact(opts.Ctx, st, opts.IDs[0], opts.Session)
	if err != nil {
		return err
	}
	row := artifactRow{Artifact: *a, URL: artifactURL(a.Kind, a.ID)}
	if out.Structured() {
		if out.JQ != nil {
			return out.WriteValue(jsonDoc(row))
		}
		return out.WriteValue(row)
	}
	fmt.Fprintf(f.IO.Out, "url: %s\nkind: %s\nsession: %s\nrun: %s\nname: %s\nmedia_type: %s\nsize: %d\nlines: %d\nsha256: %s\ncreated_at: %s\n",
		row.URL, a.Kind, a.SessionID, a.RunID, a.Name, a.MediaType, a.Size, a.Lines, a.SHA256, formatTime(a.CreatedAt))
	return nil
}

func artifactsRmRun(opts *ArtifactsOptions) error {
	f := opts.Factory
	st, err := openStore(opts.Ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := checkSession(opts.Ctx, st, opts.Session); err != nil {
		return err
	}
	for _, id := range opts.IDs {
		if _, err := getArtifact(opts.Ctx, st, id, opts.Session); err != nil {
			return err
		}
		if err := st.DeleteArtifact(opts.Ctx, id); err != nil {
			return storeError(err)
		}
	}
	return nil
}
