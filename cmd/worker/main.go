//go:build js && wasm

// Command worker is kueueplay's HTTP API (package api) as a Cloudflare
// Worker: built to WebAssembly and run by github.com/syumai/workers under
// worker/worker.mjs, which keeps one Go instance per isolate instead of
// starting Go again for every request. Short links go to the Workers KV
// namespace bound as SHARES (worker/wrangler.jsonc). `make worker` builds
// it into build/worker; `make deploy-worker` deploys it with wrangler.
//
// The Worker's variable KUEUEPLAY_LIMITS (wrangler.jsonc "vars") chooses
// the API's limits, as api.ParseLimits reads them: "free" (the default,
// for the Workers Free plan's 10 ms of CPU per request) or "paid" (the
// Paid plan's 30 s), optionally with overrides ("paid,objects=20000").
package main

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"

	"github.com/kueueplay/kueueplay"
	"github.com/kueueplay/kueueplay/api"
)

// limitsVar names the Worker's variable that chooses the limits.
const limitsVar = "KUEUEPLAY_LIMITS"

func main() {
	workers.ServeNonBlock(handler())
	workers.Ready()
	// worker.mjs sends every request of the isolate to this instance.
	select {}
}

// handler is the API with the limits the Worker's variable names. The
// variables are the Worker's, the same for every request, and
// worker.mjs sets them before it starts Go. A setting api.ParseLimits
// refuses makes every request a 500 that says why, rather than serving
// with limits nobody chose.
func handler() http.Handler {
	setting := cloudflare.Getenv(limitsVar)
	if setting == "" {
		setting = "free"
	}
	lim, err := api.ParseLimits(setting)
	if err != nil {
		msg := fmt.Sprintf("the Worker is misconfigured: its variable %s: %v", limitsVar, err)
		fmt.Println(msg) // the Worker's log
		body, _ := json.Marshal(map[string]any{"error": map[string]any{"status": 500, "code": "misconfigured", "message": msg}})
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			w.Write(append(body, '\n'))
		})
	}
	return api.New(api.Config{
		Examples: kueueplay.Examples(),
		Store:    kvStore{binding: "SHARES"},
		Limits:   lim,
	})
}
