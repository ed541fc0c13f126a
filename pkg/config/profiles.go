package config

import "slices"

// ProfileNames returns the names of the profiles in order.
func (c *Config) ProfileNames() []string { return sortedKeys(c.Profiles) }

// PutProfile stores p under name, replacing any profile of that name. The
// first profile of a config becomes its default; PutProfile reports whether
// that happened.
func (c *Config) PutProfile(name string, p *Profile) (becameDefault bool) {
	if c.Profiles == nil {
		c.Profiles = map[string]*Profile{}
	}
	c.Profiles[name] = p
	if c.DefaultProfile == "" && len(c.Profiles) == 1 {
		c.DefaultProfile = name
		return true
	}
	return false
}

// RemoveProfile deletes the profile name and reports whether it existed.
// When it was the default, the one remaining profile becomes the default;
// with several remaining there is no default until one is chosen.
func (c *Config) RemoveProfile(name string) bool {
	if _, ok := c.Profiles[name]; !ok {
		return false
	}
	delete(c.Profiles, name)
	if c.DefaultProfile == name {
		c.DefaultProfile = ""
		if len(c.Profiles) == 1 {
			c.DefaultProfile = c.ProfileNames()[0]
		}
	}
	return true
}

// HasProfile reports whether a profile called name exists.
func (c *Config) HasProfile(name string) bool {
	return slices.Contains(c.ProfileNames(), name)
}
