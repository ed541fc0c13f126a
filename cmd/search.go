package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/search"
)

// SearchOptions are the flags of `tavo search`.
type SearchOptions struct {
	Factory         *Factory
	Ctx             context.Context
	Query           string
	MaxResults      int
	Topic           string
	TimeRange       string
	Depth           string
	ChunksPerSource int
	Include         []string
	Exclude         []string
	API             string
}

// NewCmdSearch builds `tavo search`; runF, when not nil, runs instead of
// searchRun (for tests).
func NewCmdSearch(f *Factory, runF func(*SearchOptions) error) *cobra.Command {
	o := &SearchOptions{Factory: f}
	c := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search the web with the configured search API",
		Long: `Search the web with the default search API (see tavo search-api), or the one
--engine names. On a terminal results are numbered title, URL and snippet; in a
pipe one result per line: title, URL and snippet separated by tabs; -o json
prints {query, api, engine, results, warnings}. Warnings go to stderr.

Exit status: 0 with results (or none), 1 when the search failed, 2 when no
complete search API is configured.`,
		Example: `  tavo search golang generics
  tavo search -n 3 --time-range week --topic news "rust 2.0"
  tavo search --include-domain go.dev "context cancellation" | cut -f2
  tavo search -o json --jq '.results[].url' sqlite wal`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.Query = cmd.Context(), strings.Join(args, " ")
			return runOr(runF, searchRun, o)
		},
	}
	fl := c.Flags()
	fl.IntVarP(&o.MaxResults, "max-results", "n", 0, fmt.Sprintf("number of results, 1-30, at most 20 on Tavily and Brave (default: the API's, else %d)", search.DefaultMaxResults))
	fl.StringVar(&o.Topic, "topic", "", "general|news|finance")
	fl.StringVar(&o.TimeRange, "time-range", "", "day|week|month|year")
	fl.StringVar(&o.Depth, "depth", "", "Tavily search depth: basic|advanced|fast|ultra-fast")
	fl.IntVar(&o.ChunksPerSource, "chunks-per-source", 0, "Tavily chunks per source, 1-3 (advanced and fast depth)")
	fl.StringArrayVar(&o.Include, "include-domain", nil, "only results from this domain (repeatable)")
	fl.StringArrayVar(&o.Exclude, "exclude-domain", nil, "no results from this domain (repeatable)")
	fl.StringVar(&o.API, "engine", "", "run this configured search API instead of the default, without fallbacks")
	_ = c.RegisterFlagCompletionFunc("engine", completeSearchAPIs(f))
	return c
}

// The ranges of tavo search's numeric flags; 0 leaves the choice to the
// configured API.
var (
	searchMaxResultsRange = config.Range[int]{Flag: "--max-results", Min: 1, Max: search.MaxResults, Zero: "the API's default"}
	searchChunksRange     = config.Range[int]{Flag: "--chunks-per-source", Min: 1, Max: search.MaxChunksPerSource, Zero: "the API's default"}
)

func searchRun(o *SearchOptions) error {
	f, text := o.Factory, o.Query
	// Flags first: a bad number is a usage error even before an API exists.
	if err := checkRange(searchMaxResultsRange, o.MaxResults); err != nil {
		return err
	}
	if err := checkRange(searchChunksRange, o.ChunksPerSource); err != nil {
		return err
	}
	out, cfg, err := configOutput(f)
	if err != nil {
		return err
	}
	runner, err := searchRunner(cfg, o.API, f.Getenv, f.auditLog())
	if err != nil {
		return usageError(err)
	}
	q := search.Query{
		Text: text, MaxResults: o.MaxResults, Topic: o.Topic, TimeRange: o.TimeRange, Depth: o.Depth,
		ChunksPerSource: o.ChunksPerSource, IncludeDomains: o.Include, ExcludeDomains: o.Exclude,
	}
	if err := q.WithDefaults(runner.Default.Defaults).Validate(); err != nil {
		return usageError(err)
	}
	ctx, stop := signalContext(o.Ctx)
	defer stop()
	stopSpinner := f.IO.StartSpinner("searching")
	resp, err := runner.Search(ctx, q)
	stopSpinner()
	if err != nil {
		var se *search.Error
		if errors.As(err, &se) && se.Code == search.CodeNotConfigured {
			return usageError(err)
		}
		return failedError(err)
	}
	for _, w := range resp.Warnings {
		warn(f, w.Code, w.Message)
	}
	if out.Structured() {
		return out.WriteValue(map[string]any{
			"query": text, "api": resp.API, "engine": resp.Engine, "results": resp.Results, "warnings": resp.Warnings,
		})
	}
	return printResults(f, resp.Results)
}

// printResults prints search results: numbered blocks on a terminal, one
// tab-separated line each in a pipe.
func printResults(f *Factory, results []search.Result) error {
	w := f.IO.Out
	if !f.IO.IsStdoutTTY() {
		for _, r := range results {
			fmt.Fprintf(w, "%s\t%s\t%s\n", flat(r.Title), flat(r.URL), flat(r.Snippet))
		}
		return nil
	}
	if len(results) == 0 {
		fmt.Fprintln(f.IO.ErrOut, "no results")
		return nil
	}
	for i, r := range results {
		fmt.Fprintf(w, "%2d. %s\n    %s\n", i+1, flat(r.Title), r.URL)
		if s := flat(r.Snippet); s != "" {
			fmt.Fprintf(w, "    %s\n", clip(s, 300))
		}
		if i < len(results)-1 {
			fmt.Fprintln(w)
		}
	}
	return nil
}

// flat makes a field safe for one tab-separated line.
func flat(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
