package fake

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Bing imitates the Bing Web Search API v7: GET
// https://api.bing.microsoft.com/v7.0/search and /v7.0/news/search with the
// key in Ocp-Apim-Subscription-Key. Answers follow the documented shapes:
// SearchResponse with webPages.value[{id, name, url, displayUrl, snippet,
// dateLastCrawled, datePublished?}], News with value[{name, url,
// description, datePublished, provider}], and errors as ErrorResponse
// {errors:[{code, subCode, message, parameter}]} or, from the gateway, a
// bad key (401) and a rate limit (429 with Retry-After) as {"error":{code,
// message}}.
type Bing struct {
	*server
	key string
}

var bingWebParams = []string{
	"q", "answerCount", "cc", "count", "freshness", "mkt", "offset", "promote", "responseFilter",
	"safeSearch", "setLang", "textDecorations", "textFormat",
}

var bingNewsParams = []string{"q", "cc", "count", "freshness", "mkt", "offset", "safeSearch", "setLang", "sortBy", "textDecorations", "textFormat"}

var bingFreshness = regexp.MustCompile(`^(Day|Week|Month|\d{4}-\d{2}-\d{2}(\.\.\d{4}-\d{2}-\d{2})?)$`)

// NewBing starts a Bing fake that accepts key as its only subscription key.
func NewBing(key string) *Bing {
	b := &Bing{key: key}
	b.server = newServer(b.check, b.answer)
	return b
}

// BingError is Bing's documented ErrorResponse.
func BingError(status int, code, subCode, message, parameter string) Reply {
	e := map[string]any{"code": code, "message": message}
	if subCode != "" {
		e["subCode"] = subCode
	}
	if parameter != "" {
		e["parameter"] = parameter
	}
	return Reply{Status: status, Header: http.Header{"BingAPIs-TraceId": {"76DD2C2549B94F9FB55B4BD6FEB6AC"}},
		Body: string(marshal(map[string]any{"_type": "ErrorResponse", "errors": []any{e}}))}
}

// BingRateLimited is the gateway's 429 for a key over its calls per second.
func BingRateLimited() Reply {
	return Reply{Status: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"1"}},
		Body: `{"error":{"code":"429","message":"Rate limit is exceeded. Try again in 1 seconds."}}`}
}

// BingServerError is a 5xx from Bing.
func BingServerError() Reply {
	return BingError(http.StatusInternalServerError, "ServerError", "UnexpectedError", "An unexpected error occurred.", "")
}

func (b *Bing) check(r *Request) *Reply {
	var allowed []string
	maxCount := 50
	switch r.Path {
	case "/v7.0/search":
		allowed = bingWebParams
	case "/v7.0/news/search":
		allowed, maxCount = bingNewsParams, 100
	default:
		rep := Reply{Status: http.StatusNotFound, Body: `{"error":{"code":"404","message":"Resource not found"}}`}
		return &rep
	}
	if r.Method != http.MethodGet {
		rep := BingError(http.StatusMethodNotAllowed, "InvalidRequest", "HttpNotAllowed", "The HTTP method is not allowed.", "")
		return &rep
	}
	if k := r.Header.Values("Ocp-Apim-Subscription-Key"); len(k) != 1 || k[0] != b.key || b.key == "" {
		return &Reply{Status: http.StatusUnauthorized,
			Body: `{"error":{"code":"401","message":"Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource."}}`}
	}
	param := func(name, msg string) *Reply {
		rep := BingError(http.StatusBadRequest, "InvalidRequest", "ParameterInvalidValue", msg, name)
		return &rep
	}
	for k, vs := range r.Query {
		if !slices.Contains(allowed, k) {
			return param(k, "Parameter has invalid value.")
		}
		if len(vs) != 1 {
			return param(k, "Parameter has invalid value.")
		}
	}
	if strings.TrimSpace(r.Query.Get("q")) == "" {
		rep := BingError(http.StatusBadRequest, "InvalidRequest", "ParameterMissing", "Required parameter is missing.", "q")
		return &rep
	}
	if v, ok := r.Query["count"]; ok {
		if n, err := strconv.Atoi(v[0]); err != nil || n < 0 || n > maxCount {
			return param("count", "Parameter has invalid value.")
		}
	}
	if v, ok := r.Query["freshness"]; ok && !bingFreshness.MatchString(v[0]) {
		return param("freshness", "Parameter has invalid value.")
	}
	for _, name := range []string{"textDecorations"} {
		if v, ok := r.Query[name]; ok {
			if _, err := strconv.ParseBool(v[0]); err != nil {
				return param(name, "Parameter has invalid value.")
			}
		}
	}
	if v, ok := r.Query["responseFilter"]; ok {
		for t := range strings.SplitSeq(v[0], ",") {
			if !slices.Contains([]string{"Computation", "Entities", "Images", "News", "Places", "RelatedSearches", "SpellSuggestions", "TimeZone", "Translations", "Videos", "Webpages"}, strings.TrimPrefix(t, "-")) {
				return param("responseFilter", "Parameter has invalid value.")
			}
		}
	}
	return nil
}

func (b *Bing) answer(r *Request, hits []Hit) Reply {
	count := 10
	if n, err := strconv.Atoi(r.Query.Get("count")); err == nil {
		count = n
	}
	include, exclude := ddgQuery(r.Query.Get("q"))
	hits = filterHits(hits, include, exclude)
	decorate := r.Query.Get("textDecorations") == "true"
	news := r.Path == "/v7.0/news/search"
	values := []map[string]any{}
	for i, h := range hits {
		if len(values) == count {
			break
		}
		text := h.Content
		if decorate {
			if j := strings.IndexByte(text, ' '); j > 0 {
				text = "\ue000" + text[:j] + "\ue001" + text[j:]
			}
		}
		v := map[string]any{"name": h.Title, "url": h.URL}
		if news {
			v["description"] = text
			v["provider"] = []any{map[string]any{"_type": "Organization", "name": hostOf(h.URL)}}
			v["datePublished"] = h.Published.Format("2006-01-02T15:04:05.0000000Z")
		} else {
			v["id"] = fmt.Sprintf("https://api.bing.microsoft.com/api/v7/#WebPages.%d", i)
			v["displayUrl"] = h.URL
			v["snippet"] = text
			v["isFamilyFriendly"] = true
			v["language"] = "en"
			v["dateLastCrawled"] = "2025-03-20T08:00:00.0000000Z"
			if !h.Published.IsZero() {
				v["datePublished"] = h.Published.Format("2006-01-02T15:04:05.0000000")
			}
		}
		values = append(values, v)
	}
	var body map[string]any
	if news {
		body = map[string]any{"_type": "News", "readLink": "https://api.bing.microsoft.com/api/v7/news/search?q=" + r.Query.Get("q"),
			"totalEstimatedMatches": len(hits), "value": values}
	} else {
		body = map[string]any{"_type": "SearchResponse", "queryContext": map[string]any{"originalQuery": r.Query.Get("q")}}
		if len(values) > 0 {
			body["webPages"] = map[string]any{"webSearchUrl": "https://www.bing.com/search?q=" + r.Query.Get("q"),
				"totalEstimatedMatches": len(hits), "value": values}
		}
	}
	return Reply{Status: http.StatusOK, Header: http.Header{"BingAPIs-TraceId": {"76DD2C2549B94F9FB55B4BD6FEB6AC"}}, Body: string(marshal(body))}
}
