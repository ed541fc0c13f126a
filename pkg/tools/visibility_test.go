package tools

import (
	"slices"
	"sync"
	"testing"
)

func TestVisibility(t *testing.T) {
	v := NewVisibility("tavo_tool_search", "tavo_ask_user", "tavo_tool_search", "")
	if got := v.Visible(); !slices.Equal(got, []string{"tavo_tool_search", "tavo_ask_user"}) {
		t.Fatalf("initial %v", got)
	}
	v.Reveal("tavo_file_list", "tavo_ask_user", "tavo_file_load", "tavo_file_list")
	if v.IsVisible("tavo_file_list") {
		t.Fatal("a revealed tool is visible before Advance")
	}
	added := v.Advance()
	if !slices.Equal(added, []string{"tavo_file_list", "tavo_file_load"}) {
		t.Fatalf("Advance added %v", added)
	}
	if !v.IsVisible("tavo_file_load") {
		t.Fatal("not visible after Advance")
	}
	if added := v.Advance(); len(added) != 0 {
		t.Fatalf("second Advance added %v", added)
	}
	v.Reveal("tavo_file_list", "tavo_var_get")
	v.Advance()
	want := []string{"tavo_tool_search", "tavo_ask_user", "tavo_file_list", "tavo_file_load", "tavo_var_get"}
	if got := v.Visible(); !slices.Equal(got, want) {
		t.Fatalf("Visible %v, want %v", got, want)
	}
}

func TestVisibilityConcurrent(t *testing.T) {
	v := NewVisibility("a")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 100 {
				v.Reveal(string(rune('b' + (i+j)%20)))
				v.IsVisible("a")
				v.Visible()
				v.Advance()
			}
		}()
	}
	wg.Wait()
	v.Advance()
	if got := len(v.Visible()); got != 21 {
		t.Fatalf("%d visible, want 21 distinct", got)
	}
}
