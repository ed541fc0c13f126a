package fetch

import (
	"net/http"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/httpx/httpxtest"

	"github.com/tavo-cli/tavo/pkg/httpx"
)

// tinyEngine bounds the header wait and body silence by a few
// milliseconds and the whole fetch by an hour, so only a phase bound can
// end the stalled fetches below.
func tinyEngine(header time.Duration) *Engine {
	return &Engine{
		Client:  httpx.NewHTTPClient(httpx.Timeouts{Connect: time.Second, ResponseHeader: header, IdleBody: 30 * time.Millisecond}),
		Timeout: time.Hour,
	}
}

func TestFetchServerNeverAnswers(t *testing.T) {
	srv := httpxtest.NewSilent(t)
	fe := fetchErr(t, tinyEngine(30*time.Millisecond), Request{URL: srv.URL + "/page"})
	wantCode(t, fe, CodeUpstreamError)
	wantContains(t, fe.Message, "sent no response within 30ms")
}

func TestFetchServerStallsMidPage(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("the first part"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	fe := fetchErr(t, tinyEngine(time.Hour), Request{URL: srv.URL})
	wantContains(t, fe.Message, "sent nothing for 30ms")
}
