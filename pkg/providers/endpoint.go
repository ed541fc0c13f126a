package providers

import (
	"fmt"
	"net/url"
	"strings"
)

// BaseURL parses a profile's base URL, or defaultBase when base is empty,
// and drops the trailing slashes of its path so that a codec can append its
// own. A URL that is not absolute (no scheme or host) is an error naming
// the protocol and showing defaultBase as an example.
func BaseURL(proto Protocol, base, defaultBase string) (*url.URL, error) {
	if base == "" {
		base = defaultBase
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		// The parse error is left out: it would repeat the whole URL,
		// which may carry a secret in its query.
		return nil, fmt.Errorf("the %s base URL must be an absolute URL such as %s", proto, defaultBase)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// JoinURL returns base with path added to the end of its path and each of
// query set over base's own query parameters. base is not changed. Base's
// query is kept as written when query is empty.
func JoinURL(base *url.URL, path string, query map[string]string) string {
	u := *base
	u.Path += path
	u.RawPath = ""
	if len(query) > 0 {
		q := u.Query()
		for k, v := range query {
			q.Set(k, v)
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}
