package search

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// bing searches the Bing Web Search API v7: GET {base}/v7.0/search (or
// /v7.0/news/search for the news topic) with the key in
// Ocp-Apim-Subscription-Key.
type bing struct {
	api API
	c   *caller
	// now dates the "year" range; nil means time.Now.
	now func() time.Time
}

func (b *bing) Name() string { return b.api.Name }

const (
	bingWebPath  = "/v7.0/search"
	bingNewsPath = "/v7.0/news/search"
)

// bingFreshness maps time ranges onto Bing's freshness values; a year is
// written as the documented date range "YYYY-MM-DD..YYYY-MM-DD".
var bingFreshness = map[string]string{"day": "Day", "week": "Week", "month": "Month"}

func (b *bing) Search(ctx context.Context, q Query) (*Response, error) {
	q, err := prepare(q)
	if err != nil {
		return nil, err
	}
	q, warns := clampResults(q, EngineBing, "Bing")
	path, params, mw := b.mapQuery(q)
	warns = append(warns, mw...)
	req, err := http.NewRequest(http.MethodGet, endpoint(b.api.BaseURL, BingBaseURL, path)+"?"+params.Encode(), nil)
	if err != nil {
		return nil, b.c.fail(CodeNotConfigured, 0, "base_url cannot be used for a request")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Ocp-Apim-Subscription-Key", b.api.APIKey)
	a, err := b.c.do(ctx, req)
	if err != nil {
		return nil, err
	}
	if a.status != http.StatusOK {
		code, msg := bingErrorText(a.status, a.body)
		return nil, b.c.httpError(a, code, msg)
	}
	rs, dw, err := decodeBing(a.body, path == bingNewsPath)
	if err != nil {
		return nil, b.c.fail(CodeUpstream, a.status, err.Error())
	}
	return finish(rs, append(warns, dw...), q, "Bing"), nil
}

// mapQuery chooses the endpoint and writes q as its documented parameters.
func (b *bing) mapQuery(q Query) (string, url.Values, []Warning) {
	path := bingWebPath
	v := url.Values{}
	text, warns := siteOperators(q, "Bing")
	v.Set("q", text)
	v.Set("count", strconv.Itoa(q.MaxResults))
	v.Set("textDecorations", "false")
	switch q.Topic {
	case TopicNews:
		path = bingNewsPath
	case TopicFinance:
		warns = append(warns, Warning{Code: WarnUnsupported, Message: "Bing has no finance topic; ran a general web search"})
	}
	if path == bingWebPath {
		v.Set("responseFilter", "Webpages")
	}
	switch f := bingFreshness[q.TimeRange]; {
	case f != "":
		v.Set("freshness", f)
	case q.TimeRange == "year":
		now := time.Now
		if b.now != nil {
			now = b.now
		}
		to := now().UTC()
		v.Set("freshness", to.AddDate(-1, 0, 0).Format(time.DateOnly)+".."+to.Format(time.DateOnly))
	}
	if b.api.Language != "" {
		v.Set("setLang", b.api.Language)
	}
	warns = append(warns, ignoredTavilyOptions(q, "Bing")...)
	return path, v, warns
}

// decodeBing reads the web answer {"_type":"SearchResponse","webPages":
// {"value":[{name,url,snippet,datePublished?,dateLastCrawled}]}} or the
// news answer {"_type":"News","value":[{name,url,description,
// datePublished}]}. Bing gives no relevance score; dateLastCrawled is not
// a publication date and is not passed on.
func decodeBing(body []byte, news bool) ([]Result, []Warning, error) {
	var env struct {
		Type     string             `json:"_type"`
		Value    *[]json.RawMessage `json:"value"`
		WebPages *struct {
			Value []json.RawMessage `json:"value"`
		} `json:"webPages"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, nil, errUnreadable
	}
	var items []json.RawMessage
	switch {
	case news && env.Value != nil:
		items = *env.Value
	case !news && env.WebPages != nil:
		items = env.WebPages.Value
	case !news && env.Type == "SearchResponse":
		// No webPages: Bing found nothing.
	default:
		return nil, nil, errUnreadable
	}
	var c collector
	for _, raw := range items {
		var it struct {
			Name          string `json:"name"`
			URL           string `json:"url"`
			Snippet       string `json:"snippet"`
			Description   string `json:"description"`
			DatePublished string `json:"datePublished"`
		}
		if json.Unmarshal(raw, &it) != nil {
			c.bad++
			continue
		}
		snippet := it.Snippet
		if snippet == "" {
			snippet = it.Description
		}
		c.add(it.Name, it.URL, snippet, nil, it.DatePublished)
	}
	return c.results, c.warnings(), nil
}

// bingErrorText reads Bing's {"_type":"ErrorResponse","errors":[{code,
// subCode,message,parameter}]} and the gateway's {"error":{code,message}}
// (a bad key, a rate limit, a used-up quota) into a code and a message.
func bingErrorText(status int, body []byte) (code, msg string) {
	var env struct {
		Errors []struct {
			Code      string `json:"code"`
			SubCode   string `json:"subCode"`
			Message   string `json:"message"`
			Parameter string `json:"parameter"`
		} `json:"errors"`
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &env) != nil {
		return "", ""
	}
	if len(env.Errors) > 0 {
		e := env.Errors[0]
		switch e.Code {
		case "InvalidAuthorization":
			code = CodeAuthFailed
		case "InvalidRequest":
			code = CodeBadRequest
		case "RateLimitExceeded":
			code = CodeRateLimited
		case "InsufficientAuthorization":
			code = CodeAuthFailed
		}
		msg = e.Message
		if e.Parameter != "" {
			msg = strings.TrimSuffix(msg, ".") + " (" + e.Parameter + ")"
		}
		return code, msg
	}
	msg = env.Error.Message
	if status == http.StatusForbidden && strings.Contains(strings.ToLower(msg), "quota") {
		code = CodeQuotaExceeded
	}
	return code, msg
}
