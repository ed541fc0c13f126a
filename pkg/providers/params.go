package providers

// ApplyParams sets each of params (a request's --param values) on a request
// body, over what the codec put there; a nil value removes the field, so a
// user can drop one the codec sends and the server rejects.
func ApplyParams(body, params map[string]any) {
	for k, v := range params {
		if v == nil {
			delete(body, k)
			continue
		}
		body[k] = v
	}
}
