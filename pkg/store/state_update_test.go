package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
)

func TestUpdateMemoryLosesNothing(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := st.UpdateMemory(ctx, func(m *Memory) error { m.Items = append(m.Items, fmt.Sprint("note ", i)); return nil }); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := st.UpdateMemory(ctx, func(m *Memory) error { m.Enabled = !m.Enabled; return nil }); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	m, err := st.Memory(ctx)
	if err != nil || len(m.Items) != 20 || m.Enabled {
		t.Fatalf("items %d (want 20), enabled %v after an even number of toggles, err %v", len(m.Items), m.Enabled, err)
	}
	stop := errors.New("refused")
	if _, err := st.UpdateMemory(ctx, func(m *Memory) error { m.Items = nil; return stop }); !errors.Is(err, stop) {
		t.Fatalf("the change's error was not returned: %v", err)
	}
	if m2, _ := st.Memory(ctx); len(m2.Items) != 20 {
		t.Fatal("a refused change was written")
	}
}
