package cli

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

const spinnerInterval = 100 * time.Millisecond

// StartSpinner shows label with an animation on stderr while long work runs
// and returns the function that removes it. Only a terminal stderr gets a
// spinner (never a pipe, never TERM=dumb); elsewhere it does nothing. stop
// waits for the animation to end, so no goroutine outlives it, and may be
// called more than once.
func (s *IOStreams) StartSpinner(label string) (stop func()) {
	if !s.stderrTTY || s.dumb {
		return func() {}
	}
	w := s.ErrOut
	// The first frame is drawn before returning so that even instant work
	// shows what it was doing, and so tests see a frame without waiting.
	line := func(i int) string { return "\r" + spinnerFrames[i%len(spinnerFrames)] + " " + label }
	fmt.Fprint(w, line(0))

	quit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(spinnerInterval)
		defer t.Stop()
		for i := 1; ; i++ {
			select {
			case <-quit:
				return
			case <-t.C:
				fmt.Fprint(w, line(i))
			}
		}
	}()

	var once sync.Once
	return func() {
		once.Do(func() {
			close(quit)
			<-done
			// Blank the line with spaces rather than an escape sequence so
			// any terminal understands it.
			width := len([]rune(label)) + 2
			fmt.Fprint(w, "\r"+strings.Repeat(" ", width)+"\r")
		})
	}
}
