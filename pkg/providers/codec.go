package providers

import (
	"context"
	"errors"
	"io"
	"net/http"
)

// Exchange is what Transport.Complete needs from a codec for one request:
// where it goes, its headers, and the protocol's own encoder, error
// classifier and decoders. Everything else about sending it is the same for
// every protocol.
type Exchange struct {
	// URL is the full endpoint, query included. It is not read when Err is
	// set.
	URL string
	// Err is a configuration problem found before anything is sent (a base
	// URL that is not absolute, a missing model). Complete returns it as a
	// provider_error that is never retried.
	Err error
	// Header holds every request header, auth included (see RequestHeader).
	Header http.Header
	// Secret is the API key; it is removed from every error message.
	Secret string
	// Encode renders the request body.
	Encode func(req *Request) ([]byte, error)
	// Classify turns a non-2xx answer into an *Error with the provider's
	// own message. hadTools says whether the request offered tools, so that
	// a rejection of them can be named. Nil classifies by status alone.
	Classify func(f *HTTPFailure, hadTools bool) *Error
	// DecodeStream reads a text/event-stream answer to a streamed request,
	// handing text and reasoning to sink as they come.
	DecodeStream func(r io.Reader, sink Sink, hadTools bool) (*Response, error)
	// DecodeJSON reads any other 2xx answer: that of a non-streamed request,
	// of a server that ignored "stream", or an error sent as JSON with 200.
	DecodeJSON func(r io.Reader, hadTools bool) (*Response, error)
}

// Complete is the body of every codec's Provider.Complete: it encodes req
// with x, sends it by Do (retries included) and decodes the answer as a
// stream when req.Stream is set and the server answered with
// text/event-stream, as one JSON document otherwise. Errors are *Error.
func (t *Transport) Complete(ctx context.Context, x *Exchange, req *Request, sink Sink) (*Response, error) {
	if x.Err != nil {
		return nil, &Error{Code: ErrProviderError, Message: x.Err.Error(), Err: ErrPermanent}
	}
	body, err := x.Encode(req)
	if errors.Is(err, ErrInvalidRequest) {
		return nil, &Error{Code: ErrProviderError, Message: err.Error(), Err: errors.Join(ErrPermanent, err)}
	}
	if err != nil {
		return nil, &Error{Code: ErrProviderError, Message: "cannot encode the request: " + err.Error(), Err: err}
	}
	hadTools := len(req.Tools) > 0
	call := &Call{
		URL:    x.URL,
		Header: x.Header,
		Body:   body,
		Decode: func(resp *http.Response, sink Sink) (*Response, error) {
			if req.Stream && IsEventStream(resp.Header) {
				return x.DecodeStream(resp.Body, sink, hadTools)
			}
			return x.DecodeJSON(resp.Body, hadTools)
		},
		Secrets: []string{x.Secret},
	}
	if x.Classify != nil {
		call.Classify = func(f *HTTPFailure) *Error { return x.Classify(f, hadTools) }
	}
	return t.Do(ctx, call, sink)
}
