package config

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tavo-cli/tavo/pkg/search"
)

// usualSearchKeyEnv is where an engine's key is looked for when the API
// names no api_key_env and holds no api_key.
var usualSearchKeyEnv = map[string]string{
	search.EngineTavily: "TAVILY_API_KEY",
	search.EngineBrave:  "BRAVE_API_KEY",
	search.EngineBing:   "BING_API_KEY",
}

// Values of search.failover.
const (
	// FailoverAuto: when the default search API fails (any error but a
	// rejected query or the run's own cancellation), the APIs named in
	// search.fallback are tried in order, then every other complete API by
	// name (the order tavo writes them and `tavo search-api ls` shows),
	// each failure adding a fallback warning. Incomplete APIs are not
	// candidates. tavo search --engine NAME still runs NAME alone.
	FailoverAuto = "auto"
	// FailoverOff, like an empty value, tries only search.fallback.
	FailoverOff = "off"
)

// SearchSetup is the [search] section made ready to run.
type SearchSetup struct {
	// Default is the API that runs; its Name is empty when none is configured.
	Default search.API
	// Fallback are the APIs tried in order after the default failed.
	Fallback []search.API
	// Problem says, in one line, why the default cannot run; empty when it
	// can. A non-empty Problem hides tavo_web_search.
	Problem string
}

// DefaultSearchName returns the name of the default search API: search.default,
// or the only API when there is exactly one; "" when there is none to pick.
func (c *Config) DefaultSearchName() string {
	if c.Search.Default != "" {
		return c.Search.Default
	}
	if len(c.Search.APIs) == 1 {
		for name := range c.Search.APIs {
			return name
		}
	}
	return ""
}

// SearchNames returns the configured search API names, sorted.
func (c *Config) SearchNames() []string {
	names := make([]string, 0, len(c.Search.APIs))
	for n := range c.Search.APIs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ResolveSearch resolves the search APIs with their keys. only, when not empty,
// runs that API alone (tavo search --engine NAME), without fallbacks.
func (c *Config) ResolveSearch(only string, getenv func(string) string) (*SearchSetup, error) {
	s := &SearchSetup{}
	name := c.DefaultSearchName()
	if only != "" {
		if c.Search.APIs[only] == nil {
			return nil, &Error{Msg: fmt.Sprintf("unknown search API %q (configured: %s)", only, listOrNone(c.SearchNames()))}
		}
		name = only
	}
	switch {
	case name != "":
	case len(c.Search.APIs) == 0:
		s.Problem = "no search API is configured: add one with `tavo search-api set NAME --engine " + strings.Join(search.EngineNames(), "|") + "`"
		return s, nil
	default:
		s.Problem = "search.default is not set: choose one with `tavo search-api use NAME`"
		return s, nil
	}
	var missing []string
	s.Default, missing = c.searchAPI(name, getenv)
	if len(missing) > 0 {
		s.Problem = fmt.Sprintf("search API %q is incomplete: %s", name, strings.Join(missing, "; "))
	}
	if only == "" {
		for _, fb := range c.Search.Fallback {
			if fb == name {
				continue
			}
			api, _ := c.searchAPI(fb, getenv)
			s.Fallback = append(s.Fallback, api)
		}
		if c.Search.Failover == FailoverAuto {
			for _, other := range c.SearchNames() {
				if other == name || slices.Contains(c.Search.Fallback, other) {
					continue
				}
				if api, missing := c.searchAPI(other, getenv); len(missing) == 0 {
					s.Fallback = append(s.Fallback, api)
				}
			}
		}
	}
	return s, nil
}

// searchAPI builds one API and says what it lacks, in words a person can act on.
func (c *Config) searchAPI(name string, getenv func(string) string) (search.API, []string) {
	a := c.Search.APIs[name]
	api := search.API{Name: name, Engine: a.Engine, BaseURL: a.BaseURL, Language: a.Language}
	if d, err := time.ParseDuration(a.Timeout); err == nil {
		api.Timeout = d
	}
	api.Defaults = search.Query{MaxResults: a.MaxResults, Topic: a.Topic, TimeRange: a.TimeRange, Depth: a.Depth, ChunksPerSource: a.ChunksPerSource}

	var missing []string
	switch {
	case a.APIKeyEnv != "":
		api.APIKey = strings.TrimSpace(getenv(a.APIKeyEnv))
		if api.APIKey == "" && needsKey(a.Engine) {
			missing = append(missing, fmt.Sprintf("set %s (its api_key_env)", a.APIKeyEnv))
		}
	case a.APIKey != "":
		api.APIKey = a.APIKey
	default:
		if env := usualSearchKeyEnv[a.Engine]; env != "" {
			api.APIKey = strings.TrimSpace(getenv(env))
			if api.APIKey == "" {
				missing = append(missing, fmt.Sprintf("set %s or give it --key-env", env))
			}
		}
	}
	if a.Engine == search.EngineSearXNG && a.BaseURL == "" {
		missing = append(missing, "searxng needs --base-url (your instance's URL)")
	}
	return api, missing
}

func needsKey(engine string) bool { return usualSearchKeyEnv[engine] != "" }

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
