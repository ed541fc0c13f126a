package search

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Official endpoints; API.BaseURL overrides them (tests point them at the
// fakes in pkg/search/fake).
const (
	TavilyBaseURL = "https://api.tavily.com"
	BraveBaseURL  = "https://api.search.brave.com"
	// DuckDuckGoBaseURL serves the HTML result page at /html/.
	DuckDuckGoBaseURL = "https://html.duckduckgo.com"
	BingBaseURL       = "https://api.bing.microsoft.com"
)

// DefaultTimeout bounds one request to a search API.
const DefaultTimeout = 20 * time.Second

// API is one configured search API. The config layer fills it; the key comes
// from the config or an environment variable and is used only in the request
// header.
type API struct {
	// Name is the user's name for this API (the config table's key).
	Name string
	// Engine is tavily, searxng, brave, duckduckgo or bing.
	Engine string
	// BaseURL is required for SearXNG (the instance's root, e.g.
	// http://127.0.0.1:8888); empty means the official URL for the others.
	BaseURL string
	// APIKey is required for Tavily, Brave and Bing; DuckDuckGo needs none.
	APIKey string
	// Language is SearXNG's language parameter (e.g. "en", "de-CH"); empty
	// leaves the instance's default.
	Language string
	// Timeout bounds each request; 0 means DefaultTimeout.
	Timeout time.Duration
	// Defaults fill the options a query leaves unset (Text is ignored).
	Defaults Query
}

// Missing names the fields an API needs and lacks, in config spelling
// ("engine", "api_key", "base_url"); empty when the API is complete.
func (a API) Missing() []string {
	var m []string
	switch a.Engine {
	case "":
		m = append(m, "engine")
	case EngineTavily, EngineBrave, EngineBing:
		if strings.TrimSpace(a.APIKey) == "" {
			m = append(m, "api_key")
		}
	case EngineSearXNG:
		if strings.TrimSpace(a.BaseURL) == "" {
			m = append(m, "base_url")
		}
	}
	return m
}

// Check reports why the API cannot be used: a missing field, an unknown
// engine, a malformed base_url or invalid defaults. The text never repeats
// the key or the base URL.
func (a API) Check() error {
	if m := a.Missing(); len(m) > 0 {
		return a.configError("missing %s", strings.Join(m, " and "))
	}
	if !slices.Contains(EngineNames(), a.Engine) {
		return a.configError("unknown engine %q; use one of %s", truncateBytes(a.Engine, 40), strings.Join(EngineNames(), ", "))
	}
	if a.BaseURL != "" {
		u, err := url.Parse(a.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return a.configError("base_url must be an absolute http(s) URL without query or fragment")
		}
	}
	if strings.ContainsAny(a.APIKey, "\r\n") {
		return a.configError("api_key contains a line break")
	}
	if a.Timeout < 0 {
		return a.configError("timeout must not be negative")
	}
	d := a.Defaults
	d.Text = "defaults"
	if err := d.Validate(); err != nil {
		return a.configError("default %v", err)
	}
	return nil
}

func (a API) configError(format string, args ...any) error {
	return &Error{Code: CodeNotConfigured, Engine: a.Engine, API: a.Name, Message: fmt.Sprintf(format, args...)}
}

// New returns the Engine for api, or a *Error with code not_configured when
// api is incomplete or invalid. A nil client means http.DefaultClient; the
// client is copied, never modified.
func New(api API, client *http.Client) (Engine, error) {
	if err := api.Check(); err != nil {
		return nil, err
	}
	c := newCaller(api, client)
	switch api.Engine {
	case EngineTavily:
		return &tavily{api: api, c: c}, nil
	case EngineSearXNG:
		return &searxng{api: api, c: c}, nil
	case EngineDuckDuckGo:
		c.userAgent = DuckDuckGoUserAgent
		return &duckduckgo{api: api, c: c}, nil
	case EngineBing:
		return &bing{api: api, c: c}, nil
	default:
		return &brave{api: api, c: c}, nil
	}
}

// endpoint joins the API's base URL (or the official one) with path,
// keeping a base path such as /searxng.
func endpoint(base, official, path string) string {
	if base == "" {
		base = official
	}
	return strings.TrimRight(base, "/") + path
}
