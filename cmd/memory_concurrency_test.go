package cmd_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/store"
	"github.com/tavo-cli/tavo/pkg/tools"
	"github.com/tavo-cli/tavo/pkg/tools/state"
	_ "modernc.org/sqlite"
)

// TestMemoryAppendLimitAcrossCLIAndTool: `tavo memory append` processes and
// tavo_memory_append calls of a run, all appending to one data directory at
// once, never take memory past its limit together: as many appends as fit
// succeed, and every other one gets the limit error, exit status 2 for the
// command, limit_exceeded for the tool.
//
// To make every writer meet the others, the test holds the database's write
// lock while they all start, as a long transaction of another process
// would: a writer that checked the limit before taking the lock (the old
// `tavo memory append`) would read the same count as the rest and pass the
// limit with them once the lock is released. How long the lock is held
// only decides how many writers meet; the outcome checked is the same.
func TestMemoryAppendLimitAcrossCLIAndTool(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	home := t.TempDir()
	dataDir := filepath.Join(home, "data")
	st, err := store.Open(ctx, dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const room = 6
	seed := make([]string, store.MaxMemoryItems-room)
	for i := range seed {
		seed[i] = fmt.Sprintf("seed note %d", i)
	}
	if _, err := st.SetMemory(ctx, store.MemoryUpdate{Items: &seed}); err != nil {
		t.Fatal(err)
	}
	cat, err := tools.NewCatalog(state.All(func(context.Context) (*store.Store, error) { return st, nil })...)
	if err != nil {
		t.Fatal(err)
	}
	x := &tools.Executor{Catalog: cat, Budget: tools.NewBudget(0, 1<<30)}
	env := &tools.Env{RunID: "run_test"}

	db, err := sql.Open("sqlite", filepath.Join(dataDir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lock, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if _, err := lock.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}

	const processes, calls = 8, 8
	limitMsg := fmt.Sprintf("memory would hold %d notes; it holds at most %d", store.MaxMemoryItems+1, store.MaxMemoryItems)
	var mu sync.Mutex
	var won, lost int
	var wg sync.WaitGroup
	for i := range processes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The test binary runs as tavo when its argv[0] says so (TestMain).
			c := &exec.Cmd{Path: exe, Args: []string{"tavo", "memory", "append", fmt.Sprintf("cli note %d", i)},
				Env: append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "TAVO_DATA_DIR="+dataDir)}
			var stderr bytes.Buffer
			c.Stderr = &stderr
			err := c.Run()
			var exit *exec.ExitError
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won++
			case errors.As(err, &exit) && exit.ExitCode() == 2 && strings.HasPrefix(stderr.String(), "tavo: "+limitMsg):
				lost++
			default:
				t.Errorf("tavo memory append %d: %v: %s", i, err, stderr.String())
			}
		}()
	}
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := x.Execute(ctx, env, providers.ToolCall{ID: fmt.Sprint("c", i), Name: state.MemoryAppendName,
				Arguments: fmt.Sprintf(`{"items":["tool note %d"]}`, i)})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case out.OK:
				won++
			case out.Err != nil && out.Err.Code == tools.CodeLimitExceeded && strings.HasPrefix(out.Err.Message, limitMsg):
				lost++
			default:
				t.Errorf("tool call %d: %s", i, out.Envelope)
			}
		}()
	}
	time.Sleep(500 * time.Millisecond) // well under the store's 5 s busy timeout
	if _, err := lock.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	m, err := st.Memory(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Items) != store.MaxMemoryItems || won != room || lost != processes+calls-room {
		t.Fatalf("%d notes stored (limit %d); %d appends succeeded (room for %d), %d got the limit error",
			len(m.Items), store.MaxMemoryItems, won, room, lost)
	}
}
