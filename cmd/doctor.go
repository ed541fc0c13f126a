package cmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/extensions"
	"github.com/tavo-cli/tavo/pkg/httpx"
)

// The levels of a doctor check.
const (
	doctorOK   = "ok"
	doctorWarn = "warn"
	doctorFail = "fail"
)

// doctorCheck is one line of `tavo doctor`.
type doctorCheck struct {
	// Name is what was checked: config, data_dir, profile NAME, search
	// NAME, mcp NAME, completions.
	Name   string `json:"name"`
	Status string `json:"status"`
	Detail string `json:"detail"`
	// Fix says what to do, for warn and fail.
	Fix string `json:"fix,omitempty"`
}

// doctorReport is the JSON form of `tavo doctor`.
type doctorReport struct {
	// OK is false when a check failed; warnings leave it true.
	OK     bool          `json:"ok"`
	Checks []doctorCheck `json:"checks"`
}

func (r *doctorReport) add(c doctorCheck) {
	r.Checks = append(r.Checks, c)
	if c.Status == doctorFail {
		r.OK = false
	}
}

// DoctorOptions are the inputs of `tavo doctor`.
type DoctorOptions struct {
	Factory *Factory
	Ctx     context.Context
	// Transport carries the profile probes (the shared HTTP layer's, with
	// the provider timeouts, outside tests).
	Transport http.RoundTripper
}

// NewCmdDoctor builds `tavo doctor`; runF, when not nil, runs instead of
// doctorRun (for tests).
func NewCmdDoctor(f *Factory, runF func(*DoctorOptions) error) *cobra.Command {
	opts := &DoctorOptions{Factory: f, Transport: httpx.NewTransport(httpx.ProviderTimeouts)}
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check the whole setup and say how to fix what is wrong",
		Long: `Check everything tavo depends on, one line each, ok, warn or fail with the fix:

  config       the config file is found and valid
  data_dir     the data directory is writable
  profile NAME each profile has its model and key, and the API accepts the key
               (one cheap request: the model list, 2s limit, as profile diagnose)
  search NAME  each search API has what it needs (no search is sent)
  mcp NAME     each MCP server starts and lists its tools
  completions  a completion file for your shell ($SHELL) is installed

Exit status: 0 when nothing failed (warnings allowed), 1 otherwise.`,
		Example: `  tavo doctor
  tavo doctor -o json --jq '.checks[] | select(.status != "ok")'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			return runOr(runF, doctorRun, opts)
		},
	}
}

func doctorRun(opts *DoctorOptions) error {
	f := opts.Factory
	out, err := textOutput(f)
	if err != nil {
		return err
	}
	rep := doctor(opts.Ctx, f, opts.Transport)
	switch {
	case out.Format == cli.FormatNDJSON:
		err = cli.WriteList(out, rep.Checks)
	case out.Structured():
		err = out.WriteValue(rep)
	default:
		err = printDoctor(f, rep)
	}
	if err != nil {
		return err
	}
	if !rep.OK {
		return silentExit(events.ExitFailed)
	}
	return nil
}

func printDoctor(f *Factory, rep doctorReport) error {
	t := cli.NewTable(f.IO, "STATUS", "CHECK", "DETAIL")
	for _, c := range rep.Checks {
		detail := c.Detail
		if c.Fix != "" {
			detail += "; fix: " + c.Fix
		}
		t.AddRow(c.Status, c.Name, detail)
	}
	return t.Render()
}

// doctor runs every check; a broken config file stops the checks that
// need it.
func doctor(ctx context.Context, f *Factory, transport http.RoundTripper) doctorReport {
	rep := doctorReport{OK: true}
	cfg, c := doctorConfig(f)
	rep.add(c)
	rep.add(doctorDataDir(f.DataDirectory()))
	if cfg != nil {
		for _, c := range doctorProfiles(ctx, f, cfg, transport) {
			rep.add(c)
		}
		for _, c := range doctorSearch(f, cfg) {
			rep.add(c)
		}
		for _, c := range doctorMCP(ctx, f, cfg) {
			rep.add(c)
		}
	}
	rep.add(doctorCompletions(f.Getenv))
	return rep
}

func doctorConfig(f *Factory) (*config.Config, doctorCheck) {
	c := doctorCheck{Name: "config"}
	path := f.ConfigFile()
	cfg, err := f.Config()
	if err != nil {
		c.Status, c.Detail, c.Fix = doctorFail, err.Error(), "edit "+path+" at the place named, or move it aside and start again with `tavo profile set`"
		return nil, c
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		c.Status, c.Detail = doctorWarn, "no config file at "+path+"; runs use flags and the environment only"
		c.Fix = "create a profile with `tavo profile set NAME --protocol PROTOCOL --model MODEL`"
		return cfg, c
	}
	c.Status, c.Detail = doctorOK, path+" is valid"
	return cfg, c
}

// doctorDataDir creates the data directory if need be and writes and
// removes a file in it, as the store and the file tools will.
func doctorDataDir(dir string) doctorCheck {
	c := doctorCheck{Name: "data_dir"}
	fix := "make " + dir + " writable, or point --data-dir or TAVO_DATA_DIR at a writable folder"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		c.Status, c.Detail, c.Fix = doctorFail, fmt.Sprintf("cannot create %s: %v", dir, errors.Unwrap(err)), fix
		return c
	}
	probe, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		c.Status, c.Detail, c.Fix = doctorFail, fmt.Sprintf("cannot write in %s: %v", dir, errors.Unwrap(err)), fix
		return c
	}
	probe.Close()
	os.Remove(probe.Name())
	c.Status, c.Detail = doctorOK, dir+" is writable"
	return c
}

// doctorProfiles checks each profile, or the provider the environment
// picks when there is none: model, key, and one model-list request.
func doctorProfiles(ctx context.Context, f *Factory, cfg *config.Config, transport http.RoundTripper) []doctorCheck {
	names := cfg.ProfileNames()
	if len(names) == 0 {
		names = []string{""}
	}
	var checks []doctorCheck
	for _, name := range names {
		c := doctorCheck{Name: "profile " + name}
		if name == "" {
			c.Name = "provider"
		}
		fail := func(detail, fix string) { c.Status, c.Detail, c.Fix = doctorFail, detail, fix }
		r, err := cfg.Inspect(config.Overrides{Profile: name}, f.Getenv)
		switch {
		case name == "" && (err != nil || r.Model == ""):
			if err == nil {
				err = errors.New("no profile, and no model named in the environment")
			}
			c.Status, c.Detail, c.Fix = doctorWarn, err.Error(), "create a profile with `tavo profile set NAME --protocol PROTOCOL --model MODEL`"
		case err != nil:
			fail(err.Error(), "`tavo profile set "+name+"` with the missing settings")
		case r.KeyProblem != "":
			fail(r.KeyProblem, "set the variable in your shell profile, or name another with `tavo profile set "+name+" --key-env VAR`")
		default:
			probe := probeEndpoint(ctx, r, transport, diagnoseTimeout)
			switch {
			case !probe.OK:
				fail(probe.Detail, "check the key and base_url with `tavo profile diagnose "+name+"`")
			case r.Model == "":
				c.Status, c.Detail = doctorWarn, probe.Detail+"; no model"
				c.Fix = "pass -m/--model, or `tavo profile set " + name + " --model MODEL`"
			default:
				key := "key from " + r.KeySource
				if r.KeySource == "" {
					key = "no key needed"
				}
				c.Status, c.Detail = doctorOK, fmt.Sprintf("%s %s, %s: %s", r.Protocol, r.Model, key, probe.Detail)
			}
		}
		checks = append(checks, c)
	}
	return checks
}

// doctorSearch checks that each search API has what it needs; no search
// is sent (searches cost money).
func doctorSearch(f *Factory, cfg *config.Config) []doctorCheck {
	names := cfg.SearchNames()
	if len(names) == 0 {
		return []doctorCheck{{Name: "search", Status: doctorWarn, Detail: "no search API: tavo_web_search and `tavo search` are unavailable",
			Fix: "add one with `tavo search-api set NAME --engine tavily|searxng|brave|duckduckgo|bing`"}}
	}
	var checks []doctorCheck
	def := cfg.DefaultSearchName()
	for _, name := range names {
		c := doctorCheck{Name: "search " + name}
		s, err := cfg.ResolveSearch(name, f.Getenv)
		switch {
		case err != nil:
			c.Status, c.Detail = doctorFail, err.Error()
		case s.Problem != "":
			c.Status, c.Detail = doctorFail, s.Problem
			c.Fix = "complete it with `tavo search-api set " + name + "`"
		default:
			c.Status, c.Detail = doctorOK, s.Default.Engine+" at "+httpx.RedactURL(s.Default.BaseURL)+" is complete"
			if name == def {
				c.Detail += " (default)"
			}
		}
		checks = append(checks, c)
	}
	return checks
}

// doctorMCP starts each MCP server, lists its tools and stops it.
func doctorMCP(ctx context.Context, f *Factory, cfg *config.Config) []doctorCheck {
	if len(cfg.MCP) == 0 {
		return nil
	}
	m := extensions.NewMCP(cfg.MCP, f.Getenv, Version)
	defer m.Close()
	var checks []doctorCheck
	for _, name := range m.Names() {
		c := doctorCheck{Name: "mcp " + name}
		tools, err := m.Tools(ctx, name)
		if err != nil {
			c.Status, c.Detail = doctorFail, err.Error()
			c.Fix = "fix [mcp." + name + "] in the config file (see docs/extensions.md), or remove it"
		} else {
			c.Status, c.Detail = doctorOK, fmt.Sprintf("started, %d tools", len(tools))
		}
		checks = append(checks, c)
	}
	return checks
}

// doctorCompletions looks for tavo's completion file where the user's
// shell ($SHELL) loads completions from.
func doctorCompletions(getenv func(string) string) doctorCheck {
	c := doctorCheck{Name: "completions"}
	shell := filepath.Base(getenv("SHELL"))
	home := getenv("HOME")
	dataHome := getenv("XDG_DATA_HOME")
	if dataHome == "" && home != "" {
		dataHome = filepath.Join(home, ".local", "share")
	}
	configHome := getenv("XDG_CONFIG_HOME")
	if configHome == "" && home != "" {
		configHome = filepath.Join(home, ".config")
	}
	var places []string
	var install string
	switch shell {
	case "bash":
		places = []string{filepath.Join(dataHome, "bash-completion", "completions", "tavo"),
			filepath.Join(home, ".bash_completion.d", "tavo"),
			"/usr/share/bash-completion/completions/tavo", "/usr/local/share/bash-completion/completions/tavo",
			"/etc/bash_completion.d/tavo", "/opt/homebrew/etc/bash_completion.d/tavo"}
		install = "tavo completion bash > " + places[0]
	case "zsh":
		for _, d := range strings.Split(getenv("FPATH"), ":") {
			if d != "" {
				places = append(places, filepath.Join(d, "_tavo"))
			}
		}
		places = append(places, filepath.Join(home, ".zfunc", "_tavo"), "/usr/share/zsh/site-functions/_tavo",
			"/usr/local/share/zsh/site-functions/_tavo", "/opt/homebrew/share/zsh/site-functions/_tavo")
		install = "tavo completion zsh > ~/.zfunc/_tavo, with fpath+=(~/.zfunc) before compinit in ~/.zshrc"
	case "fish":
		places = []string{filepath.Join(configHome, "fish", "completions", "tavo.fish"),
			filepath.Join(dataHome, "fish", "vendor_completions.d", "tavo.fish"),
			"/usr/share/fish/vendor_completions.d/tavo.fish", "/usr/local/share/fish/vendor_completions.d/tavo.fish"}
		install = "tavo completion fish > " + places[0]
	default:
		c.Status, c.Detail = doctorWarn, fmt.Sprintf("cannot tell where %q loads completions from", getenv("SHELL"))
		c.Fix = "see `tavo completion --help` for bash, zsh, fish and powershell"
		return c
	}
	for _, p := range places {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			c.Status, c.Detail = doctorOK, shell+": "+p
			return c
		}
	}
	c.Status, c.Detail, c.Fix = doctorWarn, "no tavo completion file for "+shell, install
	return c
}
