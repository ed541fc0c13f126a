package cmd

import (
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
)

// Factory carries what every command needs: the IO streams, the environment
// and the global flags. Commands read configuration through it so tests can
// point them anywhere.
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

	audit   *storeAudit
	cleanup []func()
}

// onExit registers work to do when the command has finished (closing the
// store a command opened lazily).
func (f *Factory) onExit(fn func()) { f.cleanup = append(f.cleanup, fn) }

func (f *Factory) runCleanup() {
	for i := len(f.cleanup) - 1; i >= 0; i-- {
		f.cleanup[i]()
	}
	f.cleanup = nil
}

// ConfigFile returns the config file path: --config, TAVO_CONFIG, then XDG.
func (f *Factory) ConfigFile() string {
	if f.ConfigPath != "" {
		return f.ConfigPath
	}
	return config.DefaultPath(f.Getenv)
}

// Config loads the configuration file; a missing file is an empty config.
func (f *Factory) Config() (*config.Config, error) {
	return config.Load(f.ConfigFile())
}

// DataDirectory returns --data-dir, TAVO_DATA_DIR, then $XDG_DATA_HOME/tavo.
func (f *Factory) DataDirectory() string {
	if f.DataDir != "" {
		return f.DataDir
	}
	return config.DefaultDataDir(f.Getenv)
}
