package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/providers"
)

// newHelpTopicEnvironment is `tavo help environment`: a help topic (a
// command with no Run and no subcommands), listing every variable tavo
// reads. The provider variables come from the protocol table, so a new
// protocol appears here by itself.
func newHelpTopicEnvironment() *cobra.Command {
	return &cobra.Command{
		Use:   "environment",
		Short: "Environment variables tavo reads",
		Long:  environmentHelp(),
	}
}

func environmentHelp() string {
	var b strings.Builder
	b.WriteString(`Environment variables tavo reads. Flags beat them; they beat the config file
only where a line says so (see docs/config.md for the whole order).

tavo's own:
  TAVO_CONFIG            config file (like --config); default $XDG_CONFIG_HOME/tavo/config.toml
  TAVO_DATA_DIR          data directory (like --data-dir); default $XDG_DATA_HOME/tavo
  TAVO_STORE_URL         store URL (beats [store] url): postgres://… for fleet mode;
                         unset: the embedded SQLite store in the data directory
                         (PostgreSQL also reads libpq's PG* variables, ~/.pgpass)
  TAVO_PROFILE           profile to use when -p/--profile is not given (beats default_profile)
  TAVO_MODEL             model when neither -m/--model nor the profile names one
                         (else the protocol's default model, below)

Providers (read when no profile names its own key variable or base URL;
with no profile at all, the first key set picks the protocol, in this order):
`)
	writeProviderVariables(&b)
	b.WriteString(`  openai-responses shares OPENAI_API_KEY with openai, so no key picks it: use
  --provider openai-responses or a profile's protocol.

Default models, used when nothing names one on the protocol's own API (or the
proxy its base-URL variable names):
`)
	for _, p := range providers.AllProtocols() {
		info, _ := providers.Lookup(p)
		fmt.Fprintf(&b, "  %-22s %s\n", p, info.DefaultModel)
	}
	b.WriteString(`
Search APIs (when the API names no api_key_env or api_key):
  TAVILY_API_KEY         key of a tavily search API
  BRAVE_API_KEY          key of a brave search API
  BING_API_KEY           key of a bing search API

Paths and terminal:
  XDG_CONFIG_HOME        base of the default config path (absolute paths only)
  XDG_DATA_HOME          base of the default data directory (absolute paths only)
  HOME                   home directory, when the XDG variables are unset
  SHELL, FPATH           tavo doctor looks for the completion file of $SHELL
                         (zsh: in the directories of $FPATH)
  NO_COLOR               any value turns colour off
  TERM                   dumb turns off colour and the spinner
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY
                         proxies for every HTTP request (providers, search, fetch, MCP)

Passed to the processes of command tools and MCP servers (nothing else is
inherited, provider keys included, unless the server's env table names it):
  PATH, HOME, USER, LOGNAME, SHELL, LANG, LC_ALL, LC_CTYPE, LC_MESSAGES, TZ, TMPDIR
  TAVO_RUN_ID, TAVO_SESSION_ID, TAVO_CALL_ID   set by tavo for each command tool call`)
	return b.String()
}

// writeProviderVariables lists the key and base-URL variables of the
// protocol table, each once with the protocols that read it.
func writeProviderVariables(b *strings.Builder) {
	type variable struct {
		name, what string
		protos     []string
	}
	var vars []*variable
	seen := map[string]*variable{}
	add := func(name, what string, p providers.Protocol) {
		if v := seen[name]; v != nil {
			v.protos = append(v.protos, string(p))
			return
		}
		v := &variable{name: name, what: what, protos: []string{string(p)}}
		seen[name] = v
		vars = append(vars, v)
	}
	for _, p := range providers.AllProtocols() {
		info, _ := providers.Lookup(p)
		for i, k := range info.KeyEnvs {
			what := "key of"
			if i > 0 {
				what = fmt.Sprintf("key, when %s is unset, of", info.KeyEnvs[i-1])
			}
			add(k, what, p)
		}
		add(info.BaseURLEnv, "base URL (default "+info.DefaultBaseURL+") of", p)
	}
	for _, v := range vars {
		fmt.Fprintf(b, "  %-22s %s %s\n", v.name, v.what, strings.Join(v.protos, " and "))
	}
}
