package providertest

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
)

// fatalRecorder is a testing.TB whose Fatalf records the failure and ends
// the goroutine, as testing.T's does, so a helper's failures can be seen.
type fatalRecorder struct {
	testing.TB
	failure string
}

func (r *fatalRecorder) Helper() {}

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.failure = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// failure runs f with a fatalRecorder and returns what it failed with.
func failure(f func(tb testing.TB)) string {
	r := &fatalRecorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.failure
}

func TestMustError(t *testing.T) {
	const key = "sk-SECRET"
	rate := &providers.Error{Code: providers.ErrRateLimited, Message: "slow down"}
	for _, tt := range []struct {
		name string
		err  error
		fail bool
	}{
		{"the error", rate, false},
		{"no error", nil, true},
		{"wrapped", fmt.Errorf("call: %w", rate), true},
		{"other code", &providers.Error{Code: providers.ErrOverloaded, Message: "busy"}, true},
		{"key in the message", &providers.Error{Code: providers.ErrRateLimited, Message: "key " + key}, true},
	} {
		var got *providers.Error
		msg := failure(func(tb testing.TB) { got = MustError(tb, tt.err, providers.ErrRateLimited, key) })
		if (msg != "") != tt.fail {
			t.Errorf("%s: failure %q, want failing %v", tt.name, msg, tt.fail)
		}
		if !tt.fail && got != rate {
			t.Errorf("%s: returned %v", tt.name, got)
		}
	}
	if msg := failure(func(tb testing.TB) { MustError(tb, rate, providers.ErrRateLimited, "") }); msg != "" {
		t.Errorf("an empty secret is found everywhere: %q", msg)
	}
}

func TestSinkRecordsInOrder(t *testing.T) {
	retried := 0
	s := &Sink{OnRetry: func() { retried++ }}
	var sink providers.Sink = s
	sink.TextDelta("a")
	sink.ReasoningDelta("r")
	sink.Retry(1, time.Second, "rate_limited")
	sink.TextDelta("b")
	if fmt.Sprint(s.Text, s.Reasoning, s.Retries) != "[a b] [r] [{1 1s rate_limited}]" || retried != 1 {
		t.Fatalf("text %q reasoning %q retries %+v, OnRetry called %d times", s.Text, s.Reasoning, s.Retries, retried)
	}
}

func TestRecordSleeps(t *testing.T) {
	sleep, slept := RecordSleeps()
	if err := sleep(context.Background(), time.Hour); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sleep(ctx, time.Minute); err != context.Canceled {
		t.Fatalf("sleep after cancel = %v", err)
	}
	if fmt.Sprint(*slept) != "[1h0m0s 1m0s]" {
		t.Fatalf("slept %v", *slept)
	}
}

func TestConfig(t *testing.T) {
	cfg := Config("http://127.0.0.1:1", "k", func(c *providers.Config) { c.APIKey += "2" }, func(c *providers.Config) { c.AuthHeader = "Api-Key" })
	if cfg.BaseURL != "http://127.0.0.1:1" || cfg.APIKey != "k2" || cfg.AuthHeader != "Api-Key" {
		t.Fatalf("config %+v", cfg)
	}
}

func TestStandardRequest(t *testing.T) {
	req := UserRequest("m", true)
	if req.Model != "m" || !req.Stream || len(req.Messages) != 1 || req.Messages[0].Text() != "What is the weather in Boston?" {
		t.Fatalf("request %+v", req)
	}
	if tool := WeatherTool("get_weather"); tool.Name != "get_weather" || len(tool.Parameters) == 0 {
		t.Fatalf("tool %+v", tool)
	}
}
