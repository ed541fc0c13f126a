package config

import "slices"

// PutSearchAPI creates or replaces a search API. The first one becomes the
// default, so whenever the list is non-empty exactly one is (SPEC §7).
func (c *Config) PutSearchAPI(name string, a *SearchAPI) (becameDefault bool) {
	if c.Search.APIs == nil {
		c.Search.APIs = map[string]*SearchAPI{}
	}
	c.Search.APIs[name] = a
	if c.Search.Default == "" || c.Search.APIs[c.Search.Default] == nil {
		c.Search.Default = name
		return true
	}
	return false
}

// RemoveSearchAPI removes a search API and its fallback entry. When it was
// the default, the first remaining API by name becomes the default, which is
// returned ("" when none remains).
func (c *Config) RemoveSearchAPI(name string) (newDefault string, ok bool) {
	if c.Search.APIs[name] == nil {
		return "", false
	}
	delete(c.Search.APIs, name)
	c.Search.Fallback = slices.DeleteFunc(c.Search.Fallback, func(s string) bool { return s == name })
	if c.Search.Default == name {
		c.Search.Default = ""
		if names := c.SearchNames(); len(names) > 0 {
			c.Search.Default = names[0]
			newDefault = names[0]
			// The default never doubles as its own fallback.
			c.Search.Fallback = slices.DeleteFunc(c.Search.Fallback, func(s string) bool { return s == newDefault })
		}
	}
	if len(c.Search.APIs) == 0 {
		c.Search.APIs = nil
	}
	return newDefault, true
}
