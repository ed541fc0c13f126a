package search_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/httpx/httpxtest"

	"github.com/tavo-cli/tavo/pkg/httpx"
	"github.com/tavo-cli/tavo/pkg/search"
)

// tinyClient bounds the header wait and body silence by a few
// milliseconds; the servers below stall for good, so nothing here is timed.
func tinyClient(header time.Duration) *http.Client {
	return httpx.NewHTTPClient(httpx.Timeouts{Connect: time.Second, ResponseHeader: header, IdleBody: 30 * time.Millisecond})
}

func TestSearchServerNeverAnswers(t *testing.T) {
	checkTimeout(t, tinyClient(30*time.Millisecond), httpxtest.NewSilent(t).URL, "sent no response within 30ms")
}

func TestSearchServerStallsMidAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"results": [`)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	checkTimeout(t, tinyClient(time.Hour), srv.URL, "sent nothing for 30ms")
}

// checkTimeout searches a SearXNG at url, whose API timeout is an hour, and
// wants a timeout error naming the phase.
func checkTimeout(t *testing.T, client *http.Client, url, want string) {
	t.Helper()
	eng, err := search.New(search.API{Name: "local", Engine: "searxng", BaseURL: url, Timeout: time.Hour}, client)
	if err != nil {
		t.Fatal(err)
	}
	_, err = eng.Search(context.Background(), search.Query{Text: "q"})
	var se *search.Error
	if !errors.As(err, &se) || se.Code != search.CodeTimeout || !strings.Contains(se.Message, want) {
		t.Fatalf("err = %v, want a timeout saying %q", err, want)
	}
}
