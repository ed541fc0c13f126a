// Package httpxtest has the misbehaving servers that tests of every HTTP
// user (providers, search, fetch) need: one that accepts connections and
// never answers. They listen on 127.0.0.1 only and stop with the test.
package httpxtest

import (
	"net"
	"sync/atomic"
	"testing"
)

// Silent is a server that accepts connections and never writes a byte, like
// a model server that hangs before its first response header.
type Silent struct {
	// URL is http://127.0.0.1:PORT, without a path.
	URL      string
	accepted atomic.Int64
}

// Accepted is the number of connections accepted so far.
func (s *Silent) Accepted() int { return int(s.accepted.Load()) }

// NewSilent starts a Silent server, closed (with its connections) when the
// test ends.
func NewSilent(tb testing.TB) *Silent {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	s := &Silent{URL: "http://" + ln.Addr().String()}
	done := make(chan struct{})
	tb.Cleanup(func() { close(done); ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.accepted.Add(1)
			go func() { <-done; c.Close() }()
		}
	}()
	return s
}
