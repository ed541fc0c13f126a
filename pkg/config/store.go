package config

// Store is the [store] section: which database holds tavo's state.
type Store struct {
	// URL is a postgres:// (or postgresql://) URL for fleet mode; empty
	// keeps the embedded SQLite store in the data directory. libpq's
	// conventions apply (PG* variables, ~/.pgpass, sslmode and friends).
	// TAVO_STORE_URL overrides it.
	URL string `toml:"url,omitempty"`
}

// StoreURLEnv names the variable that overrides [store] url.
const StoreURLEnv = "TAVO_STORE_URL"

// StoreURL is the store URL to use and where it came from ("env
// TAVO_STORE_URL", "config", or "default" for the embedded store, URL
// ""). cfg may be nil.
func StoreURL(cfg *Config, getenv func(string) string) (url, source string) {
	if u := getenv(StoreURLEnv); u != "" {
		return u, "env " + StoreURLEnv
	}
	if cfg != nil && cfg.Store.URL != "" {
		return cfg.Store.URL, "config"
	}
	return "", "default"
}
