package cmd

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tavo-cli/tavo/pkg/cli"
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/events"
	"github.com/tavo-cli/tavo/pkg/httpx"
	"github.com/tavo-cli/tavo/pkg/providers"
)

// diagnoseTimeout bounds the endpoint probe.
const diagnoseTimeout = 2 * time.Second

// diagnoseCheck is one line of `tavo profile diagnose`.
type diagnoseCheck struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	// HTTPStatus and LatencyMS are set by the endpoint check when the
	// server answered.
	HTTPStatus int   `json:"http_status,omitempty"`
	LatencyMS  int64 `json:"latency_ms,omitempty"`
}

// diagnoseReport is the JSON form of `tavo profile diagnose`.
type diagnoseReport struct {
	Profile string          `json:"profile"`
	OK      bool            `json:"ok"`
	Checks  []diagnoseCheck `json:"checks"`
}

// ProfileDiagnoseOptions are the inputs of `tavo profile diagnose`.
type ProfileDiagnoseOptions struct {
	Factory *Factory
	Ctx     context.Context
	// Name is the profile to check; empty for the one a run would use.
	Name string
	// Transport carries the endpoint probe (the shared HTTP layer's, with
	// the provider timeouts, outside tests).
	Transport http.RoundTripper
}

// NewCmdProfileDiagnose builds `tavo profile diagnose`; runF, when not nil,
// runs instead of profileDiagnoseRun (for tests).
func NewCmdProfileDiagnose(f *Factory, runF func(*ProfileDiagnoseOptions) error) *cobra.Command {
	opts := &ProfileDiagnoseOptions{Factory: f, Transport: httpx.NewTransport(httpx.ProviderTimeouts)}
	return &cobra.Command{
		Use:   "diagnose [NAME]",
		Short: "Check that a profile can reach its model API",
		Long: `Check a profile step by step: the config file parses, the profile resolves,
it has a model and a key (by source, never the value), the base URL parses,
and the API answers: GET the protocol's model list with the key (2s limit),
reporting the HTTP status and latency; 401/403 means the key was rejected.
One line per check; exit 0 when all pass, 1 otherwise.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.Name = cmd.Context(), argOr(args, "")
			return runOr(runF, profileDiagnoseRun, opts)
		},
		ValidArgsFunction: firstArgOnly(completeProfiles(f)),
		Example: `  tavo profile diagnose
  tavo profile diagnose work -o json
  # exit 1 when a check fails (docs/exit-codes.md)`,
	}
}

func profileDiagnoseRun(opts *ProfileDiagnoseOptions) error {
	f := opts.Factory
	out, err := textOutput(f)
	if err != nil {
		return err
	}
	rep := diagnose(opts.Ctx, f, opts.Name, opts.Transport)
	switch {
	case out.Format == cli.FormatNDJSON:
		err = cli.WriteList(out, rep.Checks)
	case out.Structured():
		err = out.WriteValue(rep)
	default:
		for _, c := range rep.Checks {
			status := "ok"
			if !c.OK {
				status = "FAIL"
			}
			if _, err = fmt.Fprintf(f.IO.Out, "%-4s  %-8s  %s\n", status, c.Name, c.Detail); err != nil {
				break
			}
		}
	}
	if err != nil {
		return err
	}
	if !rep.OK {
		return silentExit(events.ExitFailed)
	}
	return nil
}

// diagnose runs the checks in order and stops at the first one the later
// checks depend on.
func diagnose(ctx context.Context, f *Factory, name string, transport http.RoundTripper) diagnoseReport {
	rep := diagnoseReport{Profile: name, OK: true}
	add := func(c diagnoseCheck) {
		rep.Checks = append(rep.Checks, c)
		rep.OK = rep.OK && c.OK
	}

	cfg, err := f.Config()
	if err != nil {
		add(diagnoseCheck{Name: "config", Detail: err.Error()})
		return rep
	}
	detail := "parsed " + cfg.Path()
	if len(cfg.Profiles) == 0 && cfg.DefaultProfile == "" {
		detail = "no profiles in " + cfg.Path()
	}
	add(diagnoseCheck{Name: "config", OK: true, Detail: detail})

	if name != "" && !cfg.HasProfile(name) {
		add(diagnoseCheck{Name: "profile", Detail: unknownProfileError(cfg, name).Error()})
		return rep
	}
	r, err := cfg.Inspect(config.Overrides{Profile: name}, f.Getenv)
	if err != nil {
		add(diagnoseCheck{Name: "profile", Detail: err.Error()})
		return rep
	}
	rep.Profile = r.ProfileName
	who := fmt.Sprintf("%q, protocol %s", r.ProfileName, r.Protocol)
	if r.ProfileName == "" {
		who = fmt.Sprintf("none: protocol %s from flags and environment", r.Protocol)
	}
	add(diagnoseCheck{Name: "profile", OK: true, Detail: who})

	if r.Model != "" {
		add(diagnoseCheck{Name: "model", OK: true, Detail: r.Model})
	} else {
		add(diagnoseCheck{Name: "model", Detail: "none: pass -m/--model or set one with `tavo profile set NAME --model MODEL`"})
	}

	switch {
	case r.APIKey != "":
		add(diagnoseCheck{Name: "key", OK: true, Detail: "set, from " + strings.Replace(r.KeySource, "config", "the config file", 1)})
	case r.KeyProblem != "":
		add(diagnoseCheck{Name: "key", Detail: r.KeyProblem})
	default:
		add(diagnoseCheck{Name: "key", OK: true, Detail: "none needed: local server"})
	}

	if err := config.ValidateBaseURL(r.BaseURL); err != nil {
		add(diagnoseCheck{Name: "base_url", Detail: err.Error()})
		return rep
	}
	add(diagnoseCheck{Name: "base_url", OK: true, Detail: fmt.Sprintf("%s (%s)", r.BaseURL, r.BaseURLSource)})

	add(probeEndpoint(ctx, r, transport, diagnoseTimeout))
	return rep
}

// probeEndpoint asks the API for its model list and reads the answer. The
// request is providers.ModelsRequest: the URL and headers a run would send
// (overrides included), with the model-list path. Redirects are not
// followed: a key must not travel to another host, and
// a redirect usually means a wrong base URL anyway.
func probeEndpoint(ctx context.Context, r *config.Resolved, transport http.RoundTripper, timeout time.Duration) diagnoseCheck {
	c := diagnoseCheck{Name: "endpoint"}
	target, header, err := providers.ModelsRequest(r.Protocol, r.ProviderConfig())
	if err != nil {
		c.Detail = "cannot build the request URL: " + err.Error()
		return c
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Sent once through the shared HTTP layer, as a run's request is, with
	// no retry: diagnose reports what one attempt meets.
	client := &httpx.Client{HTTP: &http.Client{
		Transport:     transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
	var resp *http.Response
	var sendErr error
	start := time.Now()
	_, err = client.Do(ctx, &httpx.Exchange{
		Method: http.MethodGet, URL: target, Header: header,
		Handle: func(r *http.Response, rerr error) httpx.Verdict {
			resp, sendErr = r, rerr
			return httpx.Verdict{}
		},
	})
	if err == nil {
		err = sendErr
	}
	elapsed := time.Since(start)
	// The URL is shown without its query, which a profile may use for
	// credentials.
	shown := strings.SplitN(target, "?", 2)[0]
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if errors.Is(err, context.DeadlineExceeded) {
			c.Detail = fmt.Sprintf("GET %s: no answer within %s", shown, timeout)
		} else {
			c.Detail = fmt.Sprintf("GET %s: %v", shown, err)
		}
		return c
	}
	c.HTTPStatus = resp.StatusCode
	c.LatencyMS = elapsed.Milliseconds()
	took := fmt.Sprintf("HTTP %d in %dms", resp.StatusCode, c.LatencyMS)
	switch code := resp.StatusCode; {
	case code >= 200 && code < 300:
		c.OK = true
		c.Detail = fmt.Sprintf("GET %s: %s", shown, took)
	case (code == 401 || code == 403) && r.APIKey == "" && r.KeyProblem != "":
		// The key check has already failed; this check is about reaching
		// the server, which answered.
		c.OK = true
		c.Detail = fmt.Sprintf("GET %s: %s (reachable; it wants a key)", shown, took)
	case (code == 401 || code == 403) && r.APIKey == "":
		want := "name a key with `tavo profile set NAME --key-env VAR`"
		if r.KeyEnv != "" {
			want = "set " + r.KeyEnv
		}
		c.Detail = fmt.Sprintf("the server wants a key: GET %s: %s; %s", shown, took, want)
	case code == 401 || code == 403:
		c.Detail = fmt.Sprintf("key rejected: GET %s: %s", shown, took)
	case code == 429:
		c.OK = true
		c.Detail = fmt.Sprintf("GET %s: %s (rate limited, but the key was accepted)", shown, took)
	case code >= 300 && code < 400:
		c.Detail = fmt.Sprintf("GET %s: %s, redirected to %s: check base_url", shown, took, resp.Header.Get("Location"))
	case code == 404:
		c.Detail = fmt.Sprintf("GET %s: %s: no model list there, check base_url", shown, took)
	default:
		c.Detail = fmt.Sprintf("GET %s: %s", shown, took)
	}
	return c
}
