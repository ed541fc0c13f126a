package search

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// brave searches the Brave Search API: GET {base}/res/v1/web/search (or
// /res/v1/news/search for the news topic) with the key in
// X-Subscription-Token.
type brave struct {
	api API
	c   *caller
}

func (b *brave) Name() string { return b.api.Name }

// braveFreshness maps time ranges onto Brave's freshness values.
var braveFreshness = map[string]string{"day": "pd", "week": "pw", "month": "pm", "year": "py"}

func (b *brave) Search(ctx context.Context, q Query) (*Response, error) {
	q, err := prepare(q)
	if err != nil {
		return nil, err
	}
	q, clamped := clampResults(q, EngineBrave, "Brave's web search")
	path, params, warns := b.mapQuery(q)
	warns = append(clamped, warns...)
	req, err := http.NewRequest(http.MethodGet, endpoint(b.api.BaseURL, BraveBaseURL, path)+"?"+params.Encode(), nil)
	if err != nil {
		return nil, b.c.fail(CodeNotConfigured, 0, "base_url cannot be used for a request")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Subscription-Token", b.api.APIKey)
	a, err := b.c.do(ctx, req)
	if err != nil {
		return nil, err
	}
	if a.status != http.StatusOK {
		code, msg := braveErrorText(a.body)
		return nil, b.c.httpError(a, code, msg)
	}
	rs, dw, err := decodeBrave(a.body, path == braveNewsPath)
	if err != nil {
		return nil, b.c.fail(CodeUpstream, a.status, err.Error())
	}
	return finish(rs, append(warns, dw...), q, "Brave"), nil
}

const (
	braveWebPath  = "/res/v1/web/search"
	braveNewsPath = "/res/v1/news/search"
)

// mapQuery chooses the endpoint and writes q as its documented parameters.
func (b *brave) mapQuery(q Query) (string, url.Values, []Warning) {
	path := braveWebPath
	v := url.Values{}
	v.Set("q", q.Text)
	v.Set("count", strconv.Itoa(q.MaxResults))
	var warns []Warning
	switch q.Topic {
	case TopicNews:
		path = braveNewsPath
	case TopicFinance:
		warns = append(warns, Warning{Code: WarnUnsupported, Message: "Brave has no finance topic; ran a general web search"})
	}
	if path == braveWebPath {
		// Only web results, without <strong> match markers.
		v.Set("result_filter", "web")
		v.Set("text_decorations", "false")
	}
	if f := braveFreshness[q.TimeRange]; f != "" {
		v.Set("freshness", f)
	}
	if g := braveGoggle(q.IncludeDomains, q.ExcludeDomains); g != "" {
		v.Set("goggles", g)
	}
	warns = append(warns, ignoredTavilyOptions(q, "Brave")...)
	return path, v, warns
}

// braveGoggle writes the domain filters as an inline Goggle, Brave's
// documented way to keep only some sites ("$discard" then "$site=…") or drop
// some ("$discard,site=…"). Results are still checked locally.
func braveGoggle(include, exclude []string) string {
	if len(include) == 0 && len(exclude) == 0 {
		return ""
	}
	var rules []string
	if len(include) > 0 {
		rules = append(rules, "$discard")
		for _, d := range include {
			rules = append(rules, "$site="+d)
		}
	}
	for _, d := range exclude {
		rules = append(rules, "$discard,site="+d)
	}
	return strings.Join(rules, "\n")
}

// decodeBrave reads the web answer {"web":{"results":[…]}} or the news
// answer {"results":[…]}; each result has title, url, description and
// page_age. Brave gives no relevance score.
func decodeBrave(body []byte, news bool) ([]Result, []Warning, error) {
	var env struct {
		Type    string             `json:"type"`
		Results *[]json.RawMessage `json:"results"`
		Web     *struct {
			Results []json.RawMessage `json:"results"`
		} `json:"web"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, nil, errUnreadable
	}
	var items []json.RawMessage
	switch {
	case news && env.Results != nil:
		items = *env.Results
	case !news && env.Web != nil:
		items = env.Web.Results
	case !news && env.Type == "search":
		// No web section: Brave found nothing.
	default:
		return nil, nil, errUnreadable
	}
	var c collector
	for _, raw := range items {
		var it struct {
			Title       string `json:"title"`
			URL         string `json:"url"`
			Description string `json:"description"`
			PageAge     string `json:"page_age"`
		}
		if json.Unmarshal(raw, &it) != nil {
			c.bad++
			continue
		}
		c.add(it.Title, it.URL, it.Description, nil, it.PageAge)
	}
	return c.results, c.warnings(), nil
}

// braveErrorText reads {"type":"ErrorResponse","error":{"code","detail",
// "meta":{"errors":[{"loc","msg"}]}}} into a code and a message. Brave
// reports a bad key as 422 SUBSCRIPTION_TOKEN_INVALID, hence the code wins
// over the status.
func braveErrorText(body []byte) (code, msg string) {
	var env struct {
		Error struct {
			Code   string `json:"code"`
			Detail string `json:"detail"`
			Meta   struct {
				Errors []struct {
					Loc []any  `json:"loc"`
					Msg string `json:"msg"`
				} `json:"errors"`
			} `json:"meta"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &env) != nil {
		return "", ""
	}
	switch env.Error.Code {
	case "SUBSCRIPTION_TOKEN_INVALID", "SUBSCRIPTION_NOT_FOUND", "RESOURCE_NOT_ALLOWED":
		code = CodeAuthFailed
	case "RATE_LIMITED":
		code = CodeRateLimited
	case "QUOTA_LIMITED":
		code = CodeQuotaExceeded
	case "VALIDATION", "OPTION_NOT_IN_PLAN":
		code = CodeBadRequest
	}
	msg = env.Error.Detail
	if errs := env.Error.Meta.Errors; len(errs) > 0 && errs[0].Msg != "" {
		field := ""
		if n := len(errs[0].Loc); n > 0 {
			field = fmt.Sprint(errs[0].Loc[n-1]) + ": "
		}
		msg = strings.TrimSuffix(msg, ".") + " (" + field + errs[0].Msg + ")"
	}
	return code, msg
}
