package fake

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
)

// Main runs the fake provider as a process: it loads the script, prints the
// base URL on stdout, serves until SIGINT or SIGTERM, and returns the exit
// status. It is what cmd/fakeprovider runs, and can be registered as a
// testscript command.
//
//	fakeprovider -script replies.json [-requests requests.ndjson] [-url-file url.txt] [-lax]
//
// The server is strict like NewServer's; -lax turns every check off and
// -validate=false only the body schema check.
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, args, stdout, stderr)
}

// run is Main until ctx ends.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fakeprovider", flag.ContinueOnError)
	fs.SetOutput(stderr)
	script := fs.String("script", "", "JSON file with the list of replies (required)")
	requests := fs.String("requests", "", "append every request to this file as NDJSON")
	urlFile := fs.String("url-file", "", "also write the base URL to this file, once the server is listening")
	validate := fs.Bool("validate", true, "answer 400 to request bodies that break the official schema")
	lax := fs.Bool("lax", false, "check nothing: no schema, path, method or key checks")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *script == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "fakeprovider: usage: fakeprovider -script FILE [-requests FILE] [-url-file FILE] [-validate=false] [-lax]")
		return 2
	}
	replies, err := LoadScript(*script)
	if err != nil {
		fmt.Fprintln(stderr, "fakeprovider:", err)
		return 1
	}
	srv := NewServer(nil)
	defer srv.Close()
	srv.Enqueue(replies...)
	srv.ValidateRequests(*validate)
	if *lax {
		srv.Lax()
	}
	if *requests != "" {
		f, err := os.OpenFile(*requests, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintln(stderr, "fakeprovider:", err)
			return 1
		}
		defer f.Close()
		srv.RecordTo(f)
	}
	if *urlFile != "" {
		// Written whole under a temporary name, so a reader polling for the
		// file never sees half a URL.
		tmp := filepath.Join(filepath.Dir(*urlFile), "."+filepath.Base(*urlFile)+".tmp")
		if err := os.WriteFile(tmp, []byte(srv.URL+"\n"), 0o644); err == nil {
			err = os.Rename(tmp, *urlFile)
		}
		if err != nil {
			fmt.Fprintln(stderr, "fakeprovider:", err)
			return 1
		}
	}
	fmt.Fprintln(stdout, srv.URL)
	<-ctx.Done()
	return 0
}
