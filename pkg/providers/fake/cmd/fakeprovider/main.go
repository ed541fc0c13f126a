// Command fakeprovider serves a scripted fake LLM provider on 127.0.0.1 for
// end-to-end tests. See package fake for the script format.
//
//	fakeprovider -script replies.json [-requests requests.ndjson] [-url-file url.txt] [-validate]
package main

import (
	"os"

	"github.com/tavo-cli/tavo/pkg/providers/fake"
)

func main() {
	os.Exit(fake.Main(os.Args[1:], os.Stdout, os.Stderr))
}
