package cli

import "testing"

func TestTablePipe(t *testing.T) {
	ios, _, out, _ := Test()
	tb := NewTable(ios, "NAME", "MODEL", "DEFAULT")
	tb.AddRow("work", "gpt-4o", "*")
	tb.AddRow("local", "llama3\tq4", "")
	tb.AddRow("x")
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	want := "work\tgpt-4o\t*\nlocal\tllama3 q4\t\nx\t\t\n"
	if out.String() != want {
		t.Fatalf("pipe table:\n%q\nwant\n%q", out.String(), want)
	}
	if tb.Len() != 3 {
		t.Fatalf("Len = %d", tb.Len())
	}
}

func TestTableTerminal(t *testing.T) {
	ios, _, out, _ := Test()
	ios.SetStdoutTTY(true)
	tb := NewTable(ios, "NAME", "MODEL", "DEFAULT")
	tb.AddRow("work", "gpt-4o", "*")
	tb.AddRow("local-llama", "llama3\nq4", "")
	tb.AddRow("z", "m", "*")
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"NAME         MODEL      DEFAULT\n" +
		"work         gpt-4o     *\n" +
		"local-llama  llama3 q4\n" +
		"z            m          *\n"
	if out.String() != want {
		t.Fatalf("terminal table:\n%s\nwant\n%s", out.String(), want)
	}
}

func TestTableEmpty(t *testing.T) {
	ios, _, out, _ := Test()
	if err := NewTable(ios, "A").Render(); err != nil || out.Len() != 0 {
		t.Fatalf("empty pipe table wrote %q, %v", out, err)
	}
	ios.SetStdoutTTY(true)
	if err := NewTable(ios, "A", "B").Render(); err != nil || out.String() != "A  B\n" {
		t.Fatalf("empty terminal table wrote %q, %v", out, err)
	}
}
