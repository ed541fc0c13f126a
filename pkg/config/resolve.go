package config

import (
	"fmt"
	"maps"
	"net"
	"net/url"
	"strings"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// Overrides are the command-line flags that beat a profile.
type Overrides struct {
	// Profile is -p/--profile.
	Profile string
	// Provider is --provider, a protocol name.
	Provider string
	// Model is -m/--model.
	Model string
	// BaseURL is --base-url.
	BaseURL string
}

// Resolved is the provider configuration one run uses, with where each
// part came from. It never prints its key.
type Resolved struct {
	// ProfileName is the profile used, "" when none.
	ProfileName string
	// ProfileSource says how it was picked: "flag", "env TAVO_PROFILE" or
	// "default_profile"; "" when none was.
	ProfileSource string
	Protocol      providers.Protocol
	// ProtocolSource says where Protocol came from: "flag", "profile",
	// "default" (a profile naming none) or "env VAR" (the key found).
	ProtocolSource string
	BaseURL        string
	// BaseURLSource says where BaseURL came from: "flag", "profile",
	// "env OPENAI_BASE_URL" (or the protocol's variable) or "default".
	BaseURLSource string
	Model         string
	// ModelSource says where Model came from: "flag", "profile",
	// "env TAVO_MODEL" or "default" (the protocol's DefaultModel); "" when
	// there is no model.
	ModelSource string
	// APIKey is the key to send; empty for a local server that needs none.
	APIKey string `json:"-"`
	// KeySource says where the key came from ("env OPENAI_API_KEY",
	// "config"), "" when there is none. Never the key.
	KeySource string
	// KeyEnv is the environment variable the key is read from, or the one
	// to set when it is missing; "" when the key comes from the file.
	KeyEnv string
	// KeyProblem explains a missing key in one line; set only by Inspect
	// (Resolve fails instead).
	KeyProblem string
	AuthHeader string
	Headers    map[string]string
	Query      map[string]string
	// Profile is a copy of the profile with tavo's defaults filled in for
	// every run option, and the effective protocol, base URL and model. Its
	// APIKey is always empty.
	Profile Profile
	// Sources say where the profile, provider, model and base URL came
	// from (keys "profile", "provider", "model", "base_url"): "flag",
	// "profile", "env VAR", "default_profile" or "default"; "" for a
	// profile when none is used.
	Sources map[string]string
	// raw is the profile as written (no defaults filled, no key), so
	// ResolveRun can tell a profile's setting from tavo's default.
	raw    Profile
	rawSet bool
	// Notes are choices made without being asked, worth a line in verbose
	// output (e.g. which of several provider keys was picked).
	Notes []string
}

// String describes r without its key.
func (r *Resolved) String() string {
	return fmt.Sprintf("{profile:%q protocol:%s base_url:%s model:%s key:%s}", r.ProfileName, r.Protocol, r.BaseURL, r.Model, r.KeySource)
}

// GoString is String, so %#v cannot show the key either.
func (r *Resolved) GoString() string { return r.String() }

// ProviderConfig returns what a codec needs to reach the API, with the
// default retry policy.
func (r *Resolved) ProviderConfig() providers.Config {
	return providers.Config{
		BaseURL:    r.BaseURL,
		APIKey:     r.APIKey,
		AuthHeader: r.AuthHeader,
		Headers:    maps.Clone(r.Headers),
		Query:      maps.Clone(r.Query),
		Retry:      providers.DefaultRetryPolicy,
		Timeouts:   r.Profile.HTTPTimeouts(),
	}
}

// inferOrder is the preference among protocols when no profile or
// --provider says, and several keys are in the environment. Responses is
// left out: it shares OpenAI's variables, and Chat Completions is what
// every OpenAI-compatible server speaks. The variables themselves are in
// the protocol table (providers.Lookup).
var inferOrder = [...]providers.Protocol{providers.ProtocolOpenAI, providers.ProtocolAnthropic, providers.ProtocolGemini}

// protocolInfo returns the table entry of a protocol that validation has
// already accepted.
func protocolInfo(p providers.Protocol) providers.ProtocolInfo {
	info, _ := providers.Lookup(p)
	return info
}

// Resolve combines the profile (o.Profile, else TAVO_PROFILE, else the
// default profile), the flags in o and the environment into the provider
// configuration of one run. Flags beat the profile; what the profile leaves
// empty comes from the environment, then tavo's defaults (the protocol's
// DefaultModel on its own API). A missing model,
// or a missing key for a server that is not on this machine, is an *Error.
func (c *Config) Resolve(o Overrides, getenv func(string) string) (*Resolved, error) {
	r, err := c.Inspect(o, getenv)
	if err != nil {
		return nil, err
	}
	if r.Model == "" {
		if r.ProfileName != "" {
			return nil, errorf("profile %q has no model: pass -m/--model or run `tavo profile set %s --model MODEL`", r.ProfileName, r.ProfileName)
		}
		return nil, errorf("no model for %s: pass -m/--model, set TAVO_MODEL, or set one in a profile (tavo picks a default model only for the protocol's own API)", r.BaseURL)
	}
	if r.KeyProblem != "" {
		return nil, &Error{Msg: r.KeyProblem}
	}
	return r, nil
}

// Inspect resolves like Resolve but reports a missing model (Model "") or
// key (KeyProblem) in the result instead of failing, for `profile show` and
// `profile diagnose`. It still fails on an unknown profile, a bad flag, or
// when nothing at all says which provider to use.
func (c *Config) Inspect(o Overrides, getenv func(string) string) (*Resolved, error) {
	r := &Resolved{}
	var p Profile

	name, from := o.Profile, "--profile"
	if name == "" {
		name, from = getenv("TAVO_PROFILE"), "TAVO_PROFILE"
	}
	if name == "" {
		name, from = c.DefaultProfile, "default_profile"
	}
	if name != "" {
		pp, ok := c.Profiles[name]
		if !ok || pp == nil {
			return nil, c.unknownProfile(name, from)
		}
		p = *pp
		r.ProfileName = name
		r.ProfileSource = map[string]string{"--profile": "flag", "TAVO_PROFILE": "env TAVO_PROFILE"}[from]
		if r.ProfileSource == "" {
			r.ProfileSource = from
		}
	}
	r.Sources = map[string]string{"profile": ""}
	if name != "" {
		r.Sources["profile"] = map[string]string{"--profile": "flag", "TAVO_PROFILE": "env TAVO_PROFILE", "default_profile": "default_profile"}[from]
	}

	proto, err := c.pickProtocol(r, p, o, getenv)
	if err != nil {
		return nil, err
	}
	r.Protocol = proto
	info := protocolInfo(proto)
	switch {
	case o.Provider != "":
		r.Sources["provider"] = "flag"
	case p.Protocol != "" || r.ProfileName != "":
		r.Sources["provider"] = "profile"
	default:
		r.Sources["provider"] = "env"
	}

	switch {
	case o.BaseURL != "":
		r.BaseURL, r.BaseURLSource = o.BaseURL, "flag"
		if err := ValidateBaseURL(o.BaseURL); err != nil {
			return nil, errorf("--base-url %v", err)
		}
	case p.BaseURL != "":
		r.BaseURL, r.BaseURLSource = p.BaseURL, "profile"
	case getenv(info.BaseURLEnv) != "":
		r.BaseURL, r.BaseURLSource = getenv(info.BaseURLEnv), "env "+info.BaseURLEnv
		if err := ValidateBaseURL(r.BaseURL); err != nil {
			return nil, errorf("%s %v", info.BaseURLEnv, err)
		}
	default:
		r.BaseURL, r.BaseURLSource = info.DefaultBaseURL, "default"
	}
	r.BaseURL = strings.TrimRight(r.BaseURL, "/")

	r.Model, r.ModelSource = pickModel(o, p, info, r.BaseURLSource, getenv)
	r.Sources["model"] = r.ModelSource
	r.Sources["base_url"] = r.BaseURLSource

	r.resolveKey(p, info, getenv)

	r.AuthHeader = p.AuthHeader
	r.Headers = maps.Clone(p.Headers)
	r.Query = maps.Clone(p.Query)
	r.raw, r.rawSet = p.clone(), true
	r.raw.APIKey = ""
	r.Profile = p.Defaults()
	r.Profile.Protocol = string(proto)
	r.Profile.BaseURL = r.BaseURL
	r.Profile.Model = r.Model
	r.Profile.APIKey = ""
	return r, nil
}

// pickModel chooses the model: -m, the profile's, TAVO_MODEL, else the
// protocol's default model. The default applies only where the run goes to
// the protocol's own API, or the proxy of it that the protocol's base-URL
// variable names: a --base-url or a profile's base_url names another
// server (Ollama, OpenRouter, Azure), whose models tavo cannot guess.
func pickModel(o Overrides, p Profile, info providers.ProtocolInfo, baseURLSource string, getenv func(string) string) (model, source string) {
	switch {
	case o.Model != "":
		return o.Model, "flag"
	case p.Model != "":
		return p.Model, "profile"
	case getenv("TAVO_MODEL") != "":
		return getenv("TAVO_MODEL"), "env TAVO_MODEL"
	case baseURLSource == "default" || baseURLSource == "env "+info.BaseURLEnv:
		return info.DefaultModel, "default"
	}
	return "", ""
}

func (c *Config) unknownProfile(name, from string) *Error {
	known := "none yet"
	if names := c.ProfileNames(); len(names) > 0 {
		known = "known: " + strings.Join(names, ", ")
	}
	if from == "default_profile" {
		return errorf("default_profile %q names no profile (%s): pick one with `tavo profile use NAME`", name, known)
	}
	via := ""
	if from == "TAVO_PROFILE" {
		via = " from TAVO_PROFILE"
	}
	return errorf("unknown profile %q%s (%s); add one with `tavo profile set %s --protocol … --model …`", name, via, known, name)
}

// pickProtocol chooses the protocol: --provider, the profile's, openai for a
// profile that names none, else the first of the usual key variables found.
func (c *Config) pickProtocol(r *Resolved, p Profile, o Overrides, getenv func(string) string) (providers.Protocol, error) {
	switch {
	case o.Provider != "":
		if _, ok := providers.Lookup(providers.Protocol(o.Provider)); !ok {
			return "", errorf("unknown provider %q: use %s", o.Provider, strings.Join(providers.ProtocolNames(), ", "))
		}
		r.ProtocolSource = "flag"
		return providers.Protocol(o.Provider), nil
	case p.Protocol != "":
		r.ProtocolSource = "profile"
		return providers.Protocol(p.Protocol), nil
	case r.ProfileName != "":
		r.ProtocolSource = "default"
		return DefaultProtocol, nil
	}
	var found []providers.Protocol
	var vars, usual []string
	for _, proto := range inferOrder {
		usual = append(usual, protocolInfo(proto).KeyEnvs[0])
		for _, k := range protocolInfo(proto).KeyEnvs {
			if getenv(k) != "" {
				found = append(found, proto)
				vars = append(vars, k)
				break
			}
		}
	}
	if len(found) > 1 {
		r.Notes = append(r.Notes, fmt.Sprintf("several provider keys are set (%s); using %s: pass --provider to choose", strings.Join(vars, ", "), found[0]))
	}
	if len(found) > 0 {
		r.ProtocolSource = "env " + vars[0]
		return found[0], nil
	}
	// A base URL alone means an OpenAI-compatible server, typically a local
	// one that needs no key.
	if o.BaseURL != "" || getenv(protocolInfo(providers.ProtocolOpenAI).BaseURLEnv) != "" {
		r.ProtocolSource = "base URL"
		return providers.ProtocolOpenAI, nil
	}
	for _, proto := range inferOrder[1:] {
		if getenv(protocolInfo(proto).BaseURLEnv) != "" {
			r.ProtocolSource = "env " + protocolInfo(proto).BaseURLEnv
			return proto, nil
		}
	}
	return "", errorf("no provider configured: set %s (or %s), pass --provider/--base-url/-m, or create a profile with `tavo profile set`", usual[0], strings.Join(usual[1:], ", "))
}

// resolveKey finds the key: the variable the profile names, the key in the
// profile, else the protocol's usual variables. A server on this machine
// needs none.
func (r *Resolved) resolveKey(p Profile, info providers.ProtocolInfo, getenv func(string) string) {
	local := IsLoopback(r.BaseURL)
	inProfile := ""
	if r.ProfileName != "" {
		inProfile = fmt.Sprintf(" (profile %q)", r.ProfileName)
	}
	switch {
	case p.APIKeyEnv != "":
		r.KeyEnv = p.APIKeyEnv
		if v := getenv(p.APIKeyEnv); v != "" {
			r.APIKey, r.KeySource = v, "env "+p.APIKeyEnv
		} else if !local {
			r.KeyProblem = fmt.Sprintf("no API key: set %s, which api_key_env names%s", p.APIKeyEnv, inProfile)
		}
		return
	case p.APIKey != "":
		r.APIKey, r.KeySource = p.APIKey, "config"
		return
	}
	r.KeyEnv = info.KeyEnvs[0]
	// The usual variables hold a key for the official API. A profile that
	// points elsewhere must name its own key, or the OpenAI key would go to
	// a third party by accident.
	if r.BaseURLSource == "profile" && !local && !sameHost(r.BaseURL, info.DefaultBaseURL) {
		r.KeyEnv = ""
		r.KeyProblem = fmt.Sprintf("no API key for %s%s: run `tavo profile set %s --key-env VAR` (tavo sends %s only to %s)",
			hostOf(r.BaseURL), inProfile, r.ProfileName, info.KeyEnvs[0], hostOf(info.DefaultBaseURL))
		return
	}
	for _, k := range info.KeyEnvs {
		if v := getenv(k); v != "" {
			r.APIKey, r.KeySource, r.KeyEnv = v, "env "+k, k
			return
		}
	}
	if !local {
		r.KeyProblem = fmt.Sprintf("no API key: set %s%s", strings.Join(info.KeyEnvs, " or "), inProfile)
	}
}

// IsLoopback reports whether rawURL's host is this machine (localhost,
// 127.0.0.0/8, ::1), where local servers such as Ollama need no key.
func IsLoopback(rawURL string) bool {
	h := hostOf(rawURL)
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

func hostOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

func sameHost(a, b string) bool { return strings.EqualFold(hostOf(a), hostOf(b)) }
