// Package storetest is the store's conformance suite: the behaviour every
// engine must show through *store.Store's methods (sessions, messages,
// runs, journals, cancel, sub-agent trees, audit, memory search, variables,
// todos, artifacts, compactions, retention, goals and loops), written once
// and run against the embedded SQLite engine (package store's tests) and
// PostgreSQL (package store/postgres's tests, when TAVO_TEST_POSTGRES names
// a server).
package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/store"
)

// Opener opens a fresh, empty store for one test; the suite closes it.
// Two calls with the same key (within one test) open two handles on the
// same store, as two processes would.
type Opener func(t *testing.T, key string) *store.Store

// Run runs every conformance test against the stores open makes.
func Run(t *testing.T, open Opener) {
	tests := []struct {
		name string
		fn   func(*testing.T, Opener)
	}{
		{"Sessions", testSessions},
		{"Messages", testMessages},
		{"RunsAndJournal", testRunsAndJournal},
		{"OneRunPerSession", testOneRunPerSession},
		{"CancelAcrossHandles", testCancelAcrossHandles},
		{"FollowAcrossHandles", testFollowAcrossHandles},
		{"Audit", testAudit},
		{"Memory", testMemory},
		{"Variables", testVariables},
		{"Todos", testTodos},
		{"Artifacts", testArtifacts},
		{"Compactions", testCompactions},
		{"ConcurrentWriters", testConcurrentWriters},
		{"PruneAndRetention", testPruneAndRetention},
		{"SessionTree", testSessionTree},
		{"DeleteSessionTree", testDeleteSessionTree},
		{"Goals", testGoals},
		{"Loops", testLoops},
		{"WakeAt", testWakeAt},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open) })
	}
}

func ctx() context.Context { return context.Background() }

func text(role providers.Role, s string) providers.Message {
	return providers.Message{Role: role, Parts: []providers.Part{{Type: providers.PartText, Text: s}}}
}

// get and get2 turn a call's results into a check: get(f())(t) fails t
// on f's error and returns its value.
func get[T any](v T, err error) func(*testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func get2[A, B any](a A, b B, err error) func(*testing.T) (A, B) {
	return func(t *testing.T) (A, B) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return a, b
	}
}

func wantErr(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error %v, want %v", err, target)
	}
}

func testSessions(t *testing.T, open Opener) {
	s := open(t, "a")
	for i := range 5 {
		get(s.CreateSession(ctx(), fmt.Sprintf("ses_%d", i), fmt.Sprintf("title %d", i)))(t)
	}
	_, err := s.CreateSession(ctx(), "ses_1", "again")
	wantErr(t, err, store.ErrInvalid)
	got := get(s.GetSession(ctx(), "ses_3"))(t)
	if got.Title != "title 3" {
		t.Fatalf("title %q", got.Title)
	}
	if err := s.RenameSession(ctx(), "ses_3", "renamed ‘ü’ ?"); err != nil {
		t.Fatal(err)
	}
	if got = get(s.GetSession(ctx(), "ses_3"))(t); got.Title != "renamed ‘ü’ ?" {
		t.Fatalf("renamed title %q", got.Title)
	}
	if err := s.TouchSession(ctx(), "ses_0"); err != nil {
		t.Fatal(err)
	}
	// Pages of 2 cover all five once, most recently used first.
	var ids []string
	cursor := ""
	for {
		page, next, err := s.ListSessions(ctx(), 2, cursor)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range page {
			ids = append(ids, p.ID)
		}
		if next == "" {
			break
		}
		cursor = next
	}
	if len(ids) != 5 || ids[0] != "ses_0" {
		t.Fatalf("listed %v", ids)
	}
	if err := s.DeleteSession(ctx(), "ses_2"); err != nil {
		t.Fatal(err)
	}
	_, err = s.GetSession(ctx(), "ses_2")
	wantErr(t, err, store.ErrNotFound)
	if err := s.SetSessionConfig(ctx(), "ses_1", json.RawMessage(`{"model":"m"}`), true); err != nil {
		t.Fatal(err)
	}
	if cfg := get(s.SessionConfig(ctx(), "ses_1"))(t); !strings.Contains(string(cfg), `"m"`) {
		t.Fatalf("config %s", cfg)
	}
}

func testMessages(t *testing.T, open Opener) {
	s := open(t, "a")
	get(s.CreateSession(ctx(), "ses_m", "m"))(t)
	img := providers.Message{Role: providers.RoleUser, Parts: []providers.Part{
		{Type: providers.PartText, Text: "look ?"},
		{Type: providers.PartImage, Image: &providers.Image{MIMEType: "image/png", Data: []byte{0, 1, 2, 255}}},
	}}
	last := get(s.AppendMessages(ctx(), "ses_m", "run_1", 1, []providers.Message{img, text(providers.RoleAssistant, "ok")}))(t)
	if last != 2 {
		t.Fatalf("last seq %d", last)
	}
	for i := range 20 {
		get(s.AppendMessages(ctx(), "ses_m", "", 0, []providers.Message{text(providers.RoleUser, fmt.Sprint("n", i))}))(t)
	}
	h := get(s.History(ctx(), "ses_m", 1))(t)
	if len(h) != 22 || h[0].Seq != 1 || h[21].Seq != 22 {
		t.Fatalf("history of %d", len(h))
	}
	if !bytes.Equal(h[0].Message.Parts[1].Image.Data, []byte{0, 1, 2, 255}) || h[0].RunID != "run_1" {
		t.Fatalf("first message %+v", h[0])
	}
	page := get(s.ReadMessages(ctx(), "ses_m", 0, 5))(t)
	if len(page) != 5 || page[4].Seq != 22 {
		t.Fatalf("last page %v", len(page))
	}
	if ses := get(s.GetSession(ctx(), "ses_m"))(t); ses.Messages != 22 {
		t.Fatalf("session counts %d messages", ses.Messages)
	}
}

func testRunsAndJournal(t *testing.T, open Opener) {
	s := open(t, "a")
	get(s.CreateSession(ctx(), "ses_r", "r"))(t)
	l := get(s.BeginRun(ctx(), "run_r", "ses_r", store.RunMeta{Profile: "p", Provider: "openai", Model: "m"}))(t)
	for i := int64(1); i <= 700; i++ {
		l.Journal(i, "x", fmt.Appendf(nil, `{"seq":%d,"b":"\u00fc?"}`+"\n", i))
	}
	get(l.AppendMessages(ctx(), 1, []providers.Message{text(providers.RoleUser, "hi")}))(t)
	if err := l.Finish(ctx(), "completed", 0, json.RawMessage(`{"status":"completed"}`)); err != nil {
		t.Fatal(err)
	}
	r := get(s.GetRun(ctx(), "run_r"))(t)
	if r.Status != "completed" || r.Events != 700 || r.ExitCode == nil || *r.ExitCode != 0 || string(r.Summary) != `{"status":"completed"}` {
		t.Fatalf("run %+v", r)
	}
	lines := get(s.Events(ctx(), "run_r", 0, 0, 0))(t)
	if len(lines) != 500 || string(lines[0]) != `{"seq":1,"b":"\u00fc?"}` {
		t.Fatalf("events page of %d, first %s", len(lines), lines[0])
	}
	var n int
	last := get(s.ScanEvents(ctx(), "run_r", 650, 0, func(store.EventRow) error { n++; return nil }))(t)
	if n != 50 || last != 700 {
		t.Fatalf("scanned %d up to %d", n, last)
	}
	runs, next := get2(s.ListRuns(ctx(), "ses_r", 0, ""))(t)
	if len(runs) != 1 || next != "" {
		t.Fatalf("runs %v next %q", runs, next)
	}
	_, err := s.GetRun(ctx(), "run_none")
	wantErr(t, err, store.ErrNotFound)
	wantErr(t, s.RequestCancel(ctx(), "run_r"), store.ErrNotRunning)
}

func testOneRunPerSession(t *testing.T, open Opener) {
	a, b := open(t, "a"), open(t, "a")
	get(a.CreateSession(ctx(), "ses_1", "one"))(t)
	l := get(a.BeginRun(ctx(), "run_1", "ses_1", store.RunMeta{}))(t)
	_, err := b.BeginRun(ctx(), "run_2", "ses_1", store.RunMeta{})
	wantErr(t, err, store.ErrSessionBusy)
	if !strings.Contains(err.Error(), "run_1") {
		t.Fatalf("busy error does not name the running run: %v", err)
	}
	wantErr(t, b.DeleteSession(ctx(), "ses_1"), store.ErrSessionBusy)
	if err := l.Finish(ctx(), "completed", 0, nil); err != nil {
		t.Fatal(err)
	}
	l2 := get(b.BeginRun(ctx(), "run_2", "ses_1", store.RunMeta{}))(t)
	if err := l2.Finish(ctx(), "failed", 1, nil); err != nil {
		t.Fatal(err)
	}
	_, err = a.BeginRun(ctx(), "run_2", "ses_1", store.RunMeta{})
	wantErr(t, err, store.ErrInvalid)
}

func testCancelAcrossHandles(t *testing.T, open Opener) {
	a, b := open(t, "a"), open(t, "a")
	get(a.CreateSession(ctx(), "ses_c", "c"))(t)
	l := get(a.BeginRun(ctx(), "run_c", "ses_c", store.RunMeta{}))(t)
	if err := b.RequestCancel(ctx(), "run_c"); err != nil {
		t.Fatal(err)
	}
	<-l.Cancelled() // the test's deadline bounds the wait
	if err := l.Finish(ctx(), "cancelled", 130, nil); err != nil {
		t.Fatal(err)
	}
	if r := get(b.GetRun(ctx(), "run_c"))(t); r.Status != "cancelled" || !r.CancelRequested {
		t.Fatalf("run %+v", r)
	}
}

func testFollowAcrossHandles(t *testing.T, open Opener) {
	a, b := open(t, "a"), open(t, "a")
	get(a.CreateSession(ctx(), "ses_f", "f"))(t)
	l := get(a.BeginRun(ctx(), "run_f", "ses_f", store.RunMeta{}))(t)
	l.Journal(1, "run.started", []byte(`{"seq":1}`))
	got := make(chan []string, 1)
	go func() {
		var seen []string
		err := b.FollowEvents(ctx(), "run_f", 0, 0, func(e store.EventRow) error {
			seen = append(seen, e.Type)
			return nil
		})
		if err != nil {
			seen = append(seen, err.Error())
		}
		got <- seen
	}()
	for i := int64(2); i <= 30; i++ {
		l.Journal(i, "x", []byte(`{}`))
	}
	l.Journal(31, "run.completed", []byte(`{}`))
	if err := l.Finish(ctx(), "completed", 0, nil); err != nil {
		t.Fatal(err)
	}
	seen := <-got
	if len(seen) != 31 || seen[0] != "run.started" || seen[30] != "run.completed" {
		t.Fatalf("followed %d events: %v", len(seen), seen)
	}
}

func testAudit(t *testing.T, open Opener) {
	s := open(t, "a")
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := range 7 {
		if err := s.RecordAudit(ctx(), "fetch", base.Add(time.Duration(i)*time.Hour), json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.RecordAudit(ctx(), "search", base, json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	rows, next := get2(s.ListAudit(ctx(), "fetch", 5, ""))(t)
	if len(rows) != 5 || next == "" {
		t.Fatalf("audit page %d next %q", len(rows), next)
	}
	rows2, _ := get2(s.ListAudit(ctx(), "fetch", 5, next))(t)
	if len(rows2) != 2 {
		t.Fatalf("second page %d", len(rows2))
	}
	n := get(s.ClearAudit(ctx(), "fetch", base.Add(3*time.Hour)))(t)
	if n != 3 {
		t.Fatalf("cleared %d", n)
	}
}

func testMemory(t *testing.T, open Opener) {
	s := open(t, "a")
	for _, note := range []string{"The deploy key lives in vault", "Prefer PostgreSQL for fleets", "Lunch is at noon", "deployment windows: Tuesday"} {
		get(s.SaveMemoryItem(ctx(), note))(t)
	}
	hits := get(s.SearchMemory(ctx(), "deploy", 0))(t)
	if len(hits) != 2 {
		t.Fatalf("deploy: %d hits %+v", len(hits), hits)
	}
	hits = get(s.SearchMemory(ctx(), "postgresql fleets", 0))(t)
	if len(hits) != 1 || !strings.Contains(hits[0].Content, "PostgreSQL") {
		t.Fatalf("postgresql: %+v", hits)
	}
	// The note matching more words ranks first.
	hits = get(s.SearchMemory(ctx(), "lunch noon deploy", 0))(t)
	if len(hits) != 3 || !strings.HasPrefix(hits[0].Content, "Lunch") {
		t.Fatalf("ranking: %+v", hits)
	}
	_, err := s.SearchMemory(ctx(), "?! --", 0)
	wantErr(t, err, store.ErrInvalid)
	items, _ := get2(s.ListMemoryItems(ctx(), 0, ""))(t)
	if len(items) != 4 {
		t.Fatalf("items %d", len(items))
	}
	get(s.EditMemoryItem(ctx(), items[2].ID, "Dinner is at eight"))(t)
	if hits = get(s.SearchMemory(ctx(), "lunch", 0))(t); len(hits) != 0 {
		t.Fatalf("edited note still found: %+v", hits)
	}
	if err := s.DeleteMemoryItem(ctx(), items[0].ID); err != nil {
		t.Fatal(err)
	}
	m := get(s.Memory(ctx()))(t)
	if len(m.Items) != 3 {
		t.Fatalf("memory %+v", m)
	}
	// Accents and case never matter, either way round.
	get(s.SaveMemoryItem(ctx(), "Café au lait at the Ştefan Hôtel"))(t)
	get(s.SaveMemoryItem(ctx(), "The cafe downstairs opens at seven"))(t)
	for q, want := range map[string]int{"cafe": 2, "CAFÉ": 2, "stefan": 1, "ŞTEFAN hotel": 1, "hôtel": 1} {
		if hits := get(s.SearchMemory(ctx(), q, 0))(t); len(hits) != want {
			t.Errorf("%q: %d hits, want %d: %+v", q, len(hits), want, hits)
		}
	}
}

func testVariables(t *testing.T, open Opener) {
	s := open(t, "a")
	get(s.CreateSession(ctx(), "ses_v", "v"))(t)
	if err := s.SetVar(ctx(), store.ScopeGlobal, "", "region", json.RawMessage(`"eu"`)); err != nil {
		t.Fatal(err)
	}
	if err := s.SetVar(ctx(), store.ScopeGlobal, "", "region", json.RawMessage(`"us"`)); err != nil {
		t.Fatal(err)
	}
	if err := s.SetVar(ctx(), store.ScopeChat, "ses_v", "count", json.RawMessage(`3`)); err != nil {
		t.Fatal(err)
	}
	if v := get(s.GetVar(ctx(), store.ScopeGlobal, "", "region"))(t); string(v) != `"us"` {
		t.Fatalf("region %s", v)
	}
	vars := get(s.ListVars(ctx(), store.ScopeChat, "ses_v", ""))(t)
	if len(vars) != 1 || string(vars[0].Value) != "3" {
		t.Fatalf("chat vars %+v", vars)
	}
	if err := s.DeleteVar(ctx(), store.ScopeGlobal, "", "region"); err != nil {
		t.Fatal(err)
	}
	_, err := s.GetVar(ctx(), store.ScopeGlobal, "", "region")
	wantErr(t, err, store.ErrNotFound)
}

func testTodos(t *testing.T, open Opener) {
	s := open(t, "a")
	get(s.CreateSession(ctx(), "ses_t", "t"))(t)
	todos := []store.Todo{{Content: "a", Status: "pending"}, {Content: "b", Status: "completed"}}
	if err := s.SetTodos(ctx(), "ses_t", todos); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTodos(ctx(), "ses_t", todos[:1]); err != nil {
		t.Fatal(err)
	}
	got := get(s.Todos(ctx(), "ses_t"))(t)
	if len(got) != 1 || got[0].Content != "a" {
		t.Fatalf("todos %+v", got)
	}
}

func testArtifacts(t *testing.T, open Opener) {
	s := open(t, "a")
	get(s.CreateSession(ctx(), "ses_a", "a"))(t)
	data := bytes.Repeat([]byte{0, 0xff, '?', '\n'}, 1<<16)
	a := get(s.CreateArtifact(ctx(), store.Artifact{Kind: store.ArtifactKindArtifact, SessionID: "ses_a", Name: "blob", MediaType: "application/octet-stream"}, data))(t)
	meta, got := get2(s.ArtifactData(ctx(), a.ID))(t)
	if !bytes.Equal(got, data) || meta.Size != int64(len(data)) {
		t.Fatalf("artifact bytes differ (%d of %d)", len(got), len(data))
	}
	list := get(s.ListArtifacts(ctx(), store.ArtifactFilter{SessionID: "ses_a"}))(t)
	if len(list) != 1 {
		t.Fatalf("artifacts %+v", list)
	}
	// Deleting the session takes its artifacts with it.
	if err := s.DeleteSession(ctx(), "ses_a"); err != nil {
		t.Fatal(err)
	}
	_, err := s.GetArtifact(ctx(), a.ID)
	wantErr(t, err, store.ErrNotFound)
}

func testCompactions(t *testing.T, open Opener) {
	s := open(t, "a")
	get(s.CreateSession(ctx(), "ses_k", "k"))(t)
	get(s.AppendMessages(ctx(), "ses_k", "", 0, []providers.Message{text(providers.RoleUser, "1"), text(providers.RoleUser, "2")}))(t)
	if err := s.AddCompaction(ctx(), store.Compaction{SessionID: "ses_k", KeptFromSeq: 2, Summary: "sum", TokensBefore: 10, TokensAfter: 2}); err != nil {
		t.Fatal(err)
	}
	c := get(s.LatestCompaction(ctx(), "ses_k"))(t)
	if c == nil || c.Summary != "sum" || c.KeptFromSeq != 2 {
		t.Fatalf("compaction %+v", c)
	}
}

// testConcurrentWriters: many writers on two handles append to one session;
// every message gets its own seq, with no gap and no error.
func testConcurrentWriters(t *testing.T, open Opener) {
	a, b := open(t, "a"), open(t, "a")
	get(a.CreateSession(ctx(), "ses_w", "w"))(t)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.AppendMessages(ctx(), "ses_w", "", 0, []providers.Message{text(providers.RoleUser, fmt.Sprint(i))})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	h := get(a.History(ctx(), "ses_w", 1))(t)
	for i, m := range h {
		if m.Seq != int64(i+1) {
			t.Fatalf("seq %d at %d", m.Seq, i)
		}
	}
	if len(h) != 40 {
		t.Fatalf("%d messages", len(h))
	}
}

// testPruneAndRetention: a prune removes old runs and journals as planned;
// retention drops the journals beyond keep_full.
func testPruneAndRetention(t *testing.T, open Opener) {
	s := open(t, "a")
	get(s.CreateSession(ctx(), "ses_p", "p"))(t)
	for i := range 6 {
		l := get(s.BeginRun(ctx(), fmt.Sprint("run_p", i), "ses_p", store.RunMeta{}))(t)
		for j := int64(1); j <= 3; j++ {
			l.Journal(j, "x", []byte(`{}`))
		}
		if err := l.Finish(ctx(), "completed", 0, nil); err != nil {
			t.Fatal(err)
		}
	}
	plan := get(s.PlanPrune(ctx(), 4, 2))(t)
	if len(plan.DeleteRuns) != 2 || len(plan.DropEvents) != 2 || plan.FreedEvents != 12 {
		t.Fatalf("plan %+v", plan)
	}
	if err := s.ApplyPrune(ctx(), plan); err != nil {
		t.Fatal(err)
	}
	runs, _ := get2(s.ListRuns(ctx(), "ses_p", 0, ""))(t)
	if len(runs) != 4 || runs[0].Events != 3 || runs[3].Events != 0 {
		t.Fatalf("after the prune: %+v", runs)
	}
	rep := get(s.ApplyRetention(ctx(), store.Retention{KeepFull: 1}, true))(t)
	if rep.DroppedEvents != 1 {
		t.Fatalf("retention %+v", rep)
	}
}
