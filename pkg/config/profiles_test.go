package config

import (
	"slices"
	"testing"
)

func TestPutAndRemoveProfile(t *testing.T) {
	c := &Config{}
	if !c.PutProfile("a", &Profile{}) || c.DefaultProfile != "a" {
		t.Fatal("first profile did not become the default")
	}
	if c.PutProfile("b", &Profile{}) || c.DefaultProfile != "a" {
		t.Fatal("second profile changed the default")
	}
	c.PutProfile("c", &Profile{})
	if !slices.Equal(c.ProfileNames(), []string{"a", "b", "c"}) || !c.HasProfile("b") || c.HasProfile("z") {
		t.Fatal(c.ProfileNames())
	}
	if c.RemoveProfile("z") {
		t.Fatal("removed a missing profile")
	}
	// Removing the default with two left leaves no default.
	if !c.RemoveProfile("a") || c.DefaultProfile != "" {
		t.Fatalf("default %q", c.DefaultProfile)
	}
	c.DefaultProfile = "b"
	// Removing the default with one left makes that one the default.
	if !c.RemoveProfile("b") || c.DefaultProfile != "c" {
		t.Fatalf("default %q", c.DefaultProfile)
	}
	// Removing a non-default keeps the default.
	c.PutProfile("d", &Profile{})
	c.RemoveProfile("d")
	if c.DefaultProfile != "c" {
		t.Fatalf("default %q", c.DefaultProfile)
	}
	c.RemoveProfile("c")
	if c.DefaultProfile != "" || len(c.ProfileNames()) != 0 {
		t.Fatal("last removal")
	}
}

func TestValidateProfileName(t *testing.T) {
	for name, ok := range map[string]bool{"work": true, "a.b_c-1": true, "9x": true, "": false, "-x": false, "a b": false, "é": false} {
		if err := ValidateProfileName(name); (err == nil) != ok {
			t.Errorf("%q: %v", name, err)
		}
	}
}

func TestSuggestKey(t *testing.T) {
	for _, tc := range []struct {
		key  []string
		want string
	}{
		{[]string{"profiles", "w", "modle"}, "profiles.w.model"},
		{[]string{"profiles", "w", "api_key_evn"}, "profiles.w.api_key_env"},
		{[]string{"profile", "w"}, "profiles.w"},
		{[]string{"search", "apis", "t", "engin"}, "search.apis.t.engine"},
		{[]string{"profiles", "w", "completely_else"}, ""},
		{[]string{"profiles", "w", "prices", "input"}, ""},
	} {
		if got := suggestKey(tc.key); got != tc.want {
			t.Errorf("suggestKey(%v) = %q, want %q", tc.key, got, tc.want)
		}
	}
}
