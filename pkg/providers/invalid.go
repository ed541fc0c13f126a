package providers

import "errors"

// ErrInvalidRequest marks request settings the provider is certain to refuse
// (an Anthropic output limit at or below the thinking budget). It is the
// user's to fix, not the provider's: commands report it as a usage error
// (exit 2) and the Transport never sends or retries such a request.
var ErrInvalidRequest = errors.New("invalid request settings")

// RequestChecker is implemented by codecs that can tell before a run that
// its settings cannot be sent. CheckRequest looks only at what a command's
// flags set (model, output limit, --param values), not at the messages;
// errors wrap ErrInvalidRequest and read as one line naming the flag.
type RequestChecker interface {
	CheckRequest(req *Request) error
}

// CheckRequest runs p's RequestChecker, if it has one, on req.
func CheckRequest(p Provider, req *Request) error {
	if c, ok := p.(RequestChecker); ok {
		return c.CheckRequest(req)
	}
	return nil
}
