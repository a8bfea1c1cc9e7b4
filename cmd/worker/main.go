//go:build js && wasm

// Command worker is kueueplay's HTTP API (package api) as a Cloudflare
// Worker: built to WebAssembly and run by github.com/syumai/workers under
// worker/worker.mjs, which keeps one Go instance per isolate instead of
// starting Go again for every request. Short links go to the Workers KV
// namespace bound as SHARES (worker/wrangler.jsonc). `make worker` builds
// it into build/worker; `make deploy-worker` deploys it with wrangler.
package main

import (
	"github.com/syumai/workers"

	"github.com/kueueplay/kueueplay"
	"github.com/kueueplay/kueueplay/api"
)

func main() {
	workers.ServeNonBlock(api.New(api.Config{
		Examples: kueueplay.Examples(),
		Store:    kvStore{binding: "SHARES"},
	}))
	workers.Ready()
	// worker.mjs sends every request of the isolate to this instance.
	select {}
}
