package postgres

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tavo-cli/tavo/pkg/store"
)

// Channels of LISTEN/NOTIFY, one per topic; the payload is the run id.
func channel(t store.Topic) string { return "tavo_" + string(t) }

// Notify sends NOTIFY on the topic's channel with key as payload; every
// process listening there, on any machine, hears it once the sender's
// transaction (here: the statement) commits.
func (e *Engine) Notify(ctx context.Context, topic store.Topic, key string) {
	_, _ = e.db.ExecContext(ctx, `SELECT pg_notify(?, ?)`, channel(topic), key)
}

// Watch subscribes to topic for key. The first Watch of an Engine opens its
// listening connection (one per process) and waits until it listens, so a
// notification sent after Watch returns is not missed. If listening fails
// the channel simply stays quiet and the caller's own polling takes over.
func (e *Engine) Watch(topic store.Topic, key string) (<-chan struct{}, func()) {
	e.notifyOnce.Do(func() {
		e.listener = newListener(e.cfg)
	})
	return e.listener.subscribe(channel(topic), key)
}

// listener holds one connection in LISTEN on every topic's channel and
// hands each notification to the subscribers of its (channel, payload).
// A dropped connection is reopened; what was sent meanwhile is caught by
// the subscribers' polling.
type listener struct {
	cfg    *pgx.ConnConfig
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}

	mu   sync.Mutex
	subs map[subKey]map[chan struct{}]struct{}
}

type subKey struct{ channel, payload string }

func newListener(cfg *pgx.ConnConfig) *listener {
	ctx, cancel := context.WithCancel(context.Background())
	l := &listener{cfg: cfg, ctx: ctx, cancel: cancel, done: make(chan struct{}), subs: map[subKey]map[chan struct{}]struct{}{}}
	ready := make(chan struct{})
	go l.run(ready)
	select {
	case <-ready:
	case <-time.After(3 * time.Second):
	}
	return l
}

func (l *listener) subscribe(ch, key string) (<-chan struct{}, func()) {
	c := make(chan struct{}, 1)
	k := subKey{ch, key}
	l.mu.Lock()
	if l.subs[k] == nil {
		l.subs[k] = map[chan struct{}]struct{}{}
	}
	l.subs[k][c] = struct{}{}
	l.mu.Unlock()
	return c, func() {
		l.mu.Lock()
		delete(l.subs[k], c)
		if len(l.subs[k]) == 0 {
			delete(l.subs, k)
		}
		l.mu.Unlock()
	}
}

func (l *listener) run(ready chan struct{}) {
	defer close(l.done)
	first := true
	for l.ctx.Err() == nil {
		l.listen(func() {
			if first {
				first = false
				close(ready)
			}
		})
		select {
		case <-l.ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// listen connects, LISTENs and dispatches until the connection fails or
// the listener closes; listening is called once the LISTENs are in place.
func (l *listener) listen(listening func()) {
	conn, err := pgx.ConnectConfig(l.ctx, l.cfg)
	if err != nil {
		return
	}
	defer conn.Close(context.Background())
	for _, t := range []store.Topic{store.TopicCancel, store.TopicJournal} {
		if _, err := conn.Exec(l.ctx, "LISTEN "+channel(t)); err != nil {
			return
		}
	}
	listening()
	for {
		n, err := conn.WaitForNotification(l.ctx)
		if err != nil {
			return
		}
		l.mu.Lock()
		for c := range l.subs[subKey{n.Channel, n.Payload}] {
			select {
			case c <- struct{}{}:
			default:
			}
		}
		l.mu.Unlock()
	}
}

func (l *listener) close() {
	l.cancel()
	<-l.done
}
