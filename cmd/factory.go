package cmd

import (
	"context"
	"sync"

	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/store"
)

// Factory carries what every command needs: the IO streams, the environment
// and the global flags. Commands read configuration through it so tests can
// point them anywhere.
//
// It is lazy, like gh's: the config file is read, and the store opened, on
// the first call that needs them and kept for the rest of the process, so
// `tavo version` and `--help` touch neither. A Factory serves one command
// execution; it holds no package-level state.
type Factory struct {
	IO *cli.IOStreams
	// Getenv reads the environment (os.Getenv outside tests).
	Getenv func(string) string

	// Global flags.
	ConfigPath string
	DataDir    string
	Output     string
	JQ         string
	Quiet      bool
	Verbose    bool

	mu      sync.Mutex
	cfg     *config.Config
	cfgErr  error
	cfgDone bool
	// dataDirSaid prints the data directory under -v once.
	dataDirSaid sync.Once
	st          *store.Store
	audit       *storeAudit
	cleanup     []func()
}

// onExit registers work to do when the command has finished (closing the
// store a command opened lazily).
func (f *Factory) onExit(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cleanup = append(f.cleanup, fn)
}

func (f *Factory) runCleanup() {
	f.mu.Lock()
	fns := f.cleanup
	f.cleanup = nil
	f.mu.Unlock()
	for i := len(fns) - 1; i >= 0; i-- {
		fns[i]()
	}
}

// ConfigFile returns the config file path: --config, TAVO_CONFIG, then XDG.
func (f *Factory) ConfigFile() string {
	if f.ConfigPath != "" {
		return f.ConfigPath
	}
	return config.DefaultPath(f.Getenv)
}

// Config loads the configuration file on first use and returns the same
// value afterwards (a command that changes and saves it sees its own
// changes); a missing file is an empty config. It must not be called
// before the flags are parsed, since --config names the file.
func (f *Factory) Config() (*config.Config, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.cfgDone {
		f.cfg, f.cfgErr = config.Load(f.ConfigFile())
		f.cfgDone = true
		verbosef(f, "config: %s (%s)", f.ConfigFile(), settingSource(f.ConfigPath, "TAVO_CONFIG", f.Getenv))
	}
	return f.cfg, f.cfgErr
}

// Store opens the data directory's store on first use and keeps it open
// until the command ends; callers do not close it. A failure is not kept:
// the next call tries again (the first may have had a cancelled context).
func (f *Factory) Store(ctx context.Context) (*store.Store, error) {
	storeURL, err := f.StoreURL()
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.st != nil {
		return f.st, nil
	}
	st, err := f.openStoreAt(ctx, storeURL)
	if err != nil {
		return nil, err
	}
	f.st = st
	// Appended under the lock already held, hence not through onExit.
	f.cleanup = append(f.cleanup, func() { st.Close() })
	return st, nil
}

// DataDirectory returns --data-dir, TAVO_DATA_DIR, then $XDG_DATA_HOME/tavo.
func (f *Factory) DataDirectory() string {
	dir := f.DataDir
	if dir == "" {
		dir = config.DefaultDataDir(f.Getenv)
	}
	f.dataDirSaid.Do(func() { verbosef(f, "data dir: %s (%s)", dir, settingSource(f.DataDir, "TAVO_DATA_DIR", f.Getenv)) })
	return dir
}
