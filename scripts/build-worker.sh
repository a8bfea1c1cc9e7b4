#!/usr/bin/env bash
# Builds the Cloudflare Worker into a folder (default build/worker):
# app.wasm (cmd/worker: the HTTP API, GOOS=js GOARCH=wasm), worker.mjs
# (worker/worker.mjs: one Go instance per isolate) and wasm_exec.js (Go's,
# with github.com/syumai/workers' patch, from that module). Called by
# `make worker` and by the workerd tests (api/workerd_test.go).
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
out=${1:-build/worker}
mkdir -p "$out"
workers=$("$GO" list -m -f '{{.Dir}}' github.com/syumai/workers)
cp worker/worker.mjs "$out/worker.mjs"
cp "$workers/cmd/workers-assets-gen/assets/wasm_exec_go.js" "$out/wasm_exec.js"
chmod u+w "$out/wasm_exec.js"
GOOS=js GOARCH=wasm "$GO" build -trimpath -ldflags='-s -w' -o "$out/app.wasm" ./cmd/worker
