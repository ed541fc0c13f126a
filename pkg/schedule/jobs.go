package schedule

import (
	"time"

	"github.com/riverqueue/river"
)

// Job kinds, as River stores them.
const (
	KindLoopFire = "tavo_loop_fire"
	KindWake     = "tavo_wake"
	KindGoalRun  = "tavo_goal_run"
)

// QueueName is the one queue tavo's jobs go to.
const QueueName = river.QueueDefault

// LoopFire is one firing of a loop, due at Due. A job whose Due is no
// longer the loop's next_run_at is stale (the loop was resumed, or the
// firing was already coalesced) and does nothing.
type LoopFire struct {
	LoopID string    `json:"loop_id" river:"unique"`
	Due    time.Time `json:"due" river:"unique"`
}

// Kind implements river.JobArgs.
func (LoopFire) Kind() string { return KindLoopFire }

// Wake wakes a session that a run ended waiting (tavo_wait): a run of the
// wake-up prompt in it, with its stored settings.
type Wake struct {
	SessionID string `json:"session_id" river:"unique"`
	// RunID is the run that declared the wake-up.
	RunID string `json:"run_id" river:"unique"`
}

// Kind implements river.JobArgs.
func (Wake) Kind() string { return KindWake }

// GoalRun runs a session's active goal (`tavo run --goal … --detach`):
// a run of Prompt whose turns go on until the goal ends.
type GoalRun struct {
	SessionID string `json:"session_id" river:"unique"`
	GoalID    string `json:"goal_id" river:"unique"`
	Prompt    string `json:"prompt"`
}

// Kind implements river.JobArgs.
func (GoalRun) Kind() string { return KindGoalRun }

// WakePrompt is the user message of a wake-up run.
const WakePrompt = "It is the time you asked to be woken up (tavo_wait). Continue where you left off."
