package cmd

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/files"
	"github.com/tavo-cli/tavo/pkg/schedule"
	"github.com/tavo-cli/tavo/pkg/store"
	storeopen "github.com/tavo-cli/tavo/pkg/store/open"
	"github.com/tavo-cli/tavo/pkg/store/postgres"
)

// NewCmdStore builds `tavo store`: the store's schema and moving it to
// PostgreSQL (SPEC §15).
func NewCmdStore(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "store",
		Short: "Migrate the store, or copy it into PostgreSQL for fleet mode",
		Long: `Work with the store that holds sessions, runs, journals, memory, variables,
files and artifacts: the embedded SQLite file in the data directory, or the
PostgreSQL database that TAVO_STORE_URL or [store] url names (fleet mode,
docs/scale.md). Exit status: 0 on success, 1 when the store fails, 2 on a
usage error (such as a non-empty target without --force).`,
		Example: `  tavo store migrate
  TAVO_STORE_URL=postgres://tavo@db.internal/tavo tavo store migrate
  tavo store copy --to postgres://tavo@db.internal/tavo`,
	}
	c.AddCommand(NewCmdStoreMigrate(f, nil), NewCmdStoreCopy(f, nil))
	return c
}

// StoreMigrateOptions are the inputs of `tavo store migrate`.
type StoreMigrateOptions struct {
	Factory *Factory
	Ctx     context.Context
}

// NewCmdStoreMigrate builds `tavo store migrate`.
func NewCmdStoreMigrate(f *Factory, runF func(*StoreMigrateOptions) error) *cobra.Command {
	opts := &StoreMigrateOptions{Factory: f}
	return &cobra.Command{
		Use:   "migrate",
		Short: "Bring the store's schema up to this tavo's version",
		Long: `Bring the store's schema up to this tavo's version, and print the engine,
where the store is, and its schema version. Every command does this on first
use anyway; run it to upgrade a shared PostgreSQL store once, ahead of a fleet.
River's job-queue tables (tavo worker) are migrated with it. Concurrent runs
are safe: they queue on a lock and each migration is applied
once.`,
		Example: `  tavo store migrate
  TAVO_STORE_URL=postgres://tavo@db.internal/tavo tavo store migrate -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			return runOr(runF, storeMigrateRun, opts)
		},
	}
}

func storeMigrateRun(opts *StoreMigrateOptions) error {
	f := opts.Factory
	u, err := f.StoreURL()
	if err != nil {
		return usageError(err)
	}
	st, err := f.openStoreAt(opts.Ctx, u)
	if err != nil {
		return failedError(err)
	}
	defer st.Close()
	if err := schedule.MigrateURL(opts.Ctx, u, f.DataDirectory()); err != nil {
		return failedError(err)
	}
	version := store.SchemaVersion()
	if st.Engine() == "postgres" {
		version = postgres.SchemaVersion()
	}
	info := map[string]any{"engine": st.Engine(), "location": st.Location(), "schema_version": version}
	if wantsJSON(f) {
		return printJSON(f, info)
	}
	_, err = fmt.Fprintf(f.IO.Out, "%s store %s: schema version %d (up to date)\n", st.Engine(), st.Location(), version)
	return err
}

// StoreCopyOptions are the inputs of `tavo store copy`.
type StoreCopyOptions struct {
	Factory *Factory
	Ctx     context.Context
	To      string
	Force   bool
}

// NewCmdStoreCopy builds `tavo store copy`.
func NewCmdStoreCopy(f *Factory, runF func(*StoreCopyOptions) error) *cobra.Command {
	opts := &StoreCopyOptions{Factory: f}
	c := &cobra.Command{
		Use:   "copy --to postgres://…",
		Short: "Copy the store, files included, into a PostgreSQL database",
		Long: `Copy everything the current store holds (sessions, messages, runs and their
journals, audit, memory, variables, todos, artifacts, and the file store) into
the PostgreSQL database --to names, migrating it first. The copy is one
transaction: on any error the target is left as it was. Afterwards every
table is compared (row count and a checksum of its values) and every file is
read back and compared; the command prints what it copied with the checksums.

A target that already holds sessions, runs, audit rows, variables, memory or
artifacts is refused (exit 2) unless --force, which replaces its contents.
Stop tavo processes writing to the source first. Then point the fleet at the
target with [store] url or TAVO_STORE_URL.`,
		Example: `  tavo store copy --to postgres://tavo@db.internal/tavo
  PGPASSWORD=… tavo store copy --to 'postgres://tavo@db.internal/tavo?sslmode=verify-full'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			return runOr(runF, storeCopyRun, opts)
		},
	}
	c.Flags().StringVar(&opts.To, "to", "", "the PostgreSQL database to copy into (postgres://…)")
	c.Flags().BoolVar(&opts.Force, "force", false, "replace what a non-empty target holds")
	_ = c.MarkFlagRequired("to")
	return c
}

// storeCopyReport is what `tavo store copy` prints.
type storeCopyReport struct {
	From   string            `json:"from"`
	To     string            `json:"to"`
	Tables []store.TableCopy `json:"tables"`
	Files  files.CopyReport  `json:"files"`
}

func storeCopyRun(opts *StoreCopyOptions) error {
	f := opts.Factory
	if !postgres.IsURL(opts.To) {
		return usageError(errors.New("store copy: --to must be a postgres:// URL"))
	}
	ctx, stop := signalContext(opts.Ctx)
	defer stop()
	src, err := f.openStore(ctx)
	if err != nil {
		return failedError(err)
	}
	defer src.Close()
	dst, err := storeopen.Open(ctx, opts.To, f.DataDirectory())
	if err != nil {
		return failedError(err)
	}
	defer dst.Close()
	if src.Location() == dst.Location() {
		return usageError(fmt.Errorf("store copy: %s is the store in use already", dst.Location()))
	}
	tables, err := src.CopyTo(ctx, dst, opts.Force)
	if err != nil {
		if errors.Is(err, store.ErrInvalid) {
			return usageError(err)
		}
		return failedError(err)
	}
	srcFiles := f.Files()
	dstDB := dst.SharedDB()
	dstFiles := files.OpenWith(f.DataDirectory(), func(context.Context) (*sql.DB, error) { return dstDB, nil })
	fr, err := files.CopyAll(ctx, srcFiles, dstFiles)
	if err != nil {
		return failedError(fmt.Errorf("store copy: the tables were copied, but the files failed: %w", err))
	}
	rep := storeCopyReport{From: src.Location(), To: dst.Location(), Tables: tables, Files: fr}
	if wantsJSON(f) {
		return printJSON(f, rep)
	}
	w := f.IO.Out
	fmt.Fprintf(w, "copied %s %s → %s\n", src.Engine(), rep.From, rep.To)
	for _, t := range tables {
		fmt.Fprintf(w, "  %-22s %8d rows  sha256 %s\n", t.Table, t.Rows, t.SHA256[:16])
	}
	_, err = fmt.Fprintf(w, "  %-22s %8d files  %d bytes  sha256 %s\n", "files", fr.Files, fr.Bytes, fr.SHA256[:16])
	return err
}

// wantsJSON reports whether -o json (or --jq) asks for JSON.
func wantsJSON(f *Factory) bool {
	format, err := cli.ResolveFormat(f.Output, f.IO, cli.FormatText)
	return err == nil && format != cli.FormatText || f.JQ != ""
}
