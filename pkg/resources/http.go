package resources

import (
	"context"
	"errors"

	"github.com/tavo-cli/tavo/pkg/fetch"
)

// Fetcher fetches a web page as Markdown; *fetch.Engine is one.
type Fetcher interface {
	Fetch(ctx context.Context, req fetch.Request) (*fetch.Document, error)
}

// HTTP is the http:// or https:// scheme (name) over the fetch engine: the
// page's Markdown is archived as an artifact and its first page returned,
// so the model reads on through artifact:// like any other snapshot.
func HTTP(name string, f Fetcher) Scheme { return httpScheme{name: name, f: f} }

type httpScheme struct {
	name string
	f    Fetcher
}

func (s httpScheme) Name() string { return s.name }

func (s httpScheme) Read(ctx context.Context, c *Centre, req Request) (Result, error) {
	doc, err := s.f.Fetch(ctx, fetch.Request{URL: req.URL})
	if err != nil {
		var fe *fetch.Error
		if errors.As(err, &fe) && fe.Code != fetch.CodeInternalError {
			return nil, &Error{Code: fe.Code, Message: fe.Message}
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, errorf(CodeUpstreamError, "the page could not be fetched")
	}
	name := doc.FinalURL
	if name == "" {
		name = req.URL
	}
	t, err := c.Archive(ctx, req.Scope, name, "text/markdown; charset=utf-8", []byte(doc.Markdown))
	if err != nil {
		return nil, sourceError(err)
	}
	return &Text{Kind: "text", Text: t.Preview, Source: SourcePos{URL: t.Artifact, Line: 1, Column: 1}, Continue: t.Continue}, nil
}
