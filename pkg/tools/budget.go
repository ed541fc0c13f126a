package tools

import (
	"sync"

	"github.com/tavo-cli/tavo/pkg/resources"
)

// Result budgets of SPEC §4, in bytes of result JSON.
const (
	// MaxResultBytes is the byte cap of one page of the text budget (SPEC
	// §11); a larger result is archived, never cut.
	MaxResultBytes = resources.MaxBytes
	// MaxRunResultBytes caps all results of one run together.
	MaxRunResultBytes = 256 << 10
)

// Budget tracks how many result bytes a run has delivered to the model. It
// is safe for concurrent use; a run uses one Budget for all its calls.
type Budget struct {
	mu        sync.Mutex
	perResult int
	perRun    int
	used      int
}

// NewBudget returns a budget allowing perResult bytes per result and perRun
// bytes per run; a value ≤ 0 takes the default (MaxResultBytes,
// MaxRunResultBytes).
func NewBudget(perResult, perRun int) *Budget {
	if perResult <= 0 {
		perResult = MaxResultBytes
	}
	if perRun <= 0 {
		perRun = MaxRunResultBytes
	}
	return &Budget{perResult: perResult, perRun: perRun}
}

// PerResult is the cap on one result; MaxResultBytes for a nil Budget.
func (b *Budget) PerResult() int {
	if b == nil {
		return MaxResultBytes
	}
	return b.perResult
}

// PerRun is the cap on all results of the run.
func (b *Budget) PerRun() int {
	if b == nil {
		return MaxRunResultBytes
	}
	return b.perRun
}

// Used is the number of result bytes delivered so far.
func (b *Budget) Used() int {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Remaining is the number of result bytes the run may still deliver.
func (b *Budget) Remaining() int {
	if b == nil {
		return MaxRunResultBytes
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.perRun - b.used
}

// take reserves n bytes; it takes nothing and reports false when fewer than
// n remain. A nil Budget accepts everything.
func (b *Budget) take(n int) bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.perRun {
		return false
	}
	b.used += n
	return true
}
