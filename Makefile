# kueueplay build and test entry points. `make test` is what CI runs (see
# .ci/run); it needs only Go (the version in go.mod) and Node 20 on PATH.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := test
# Steps run in the order listed, even under make -j.
.NOTPARALLEL:

GO ?= go
FUZZTIME ?= 30s
# How long the fuzzer may spend minimising each new input; Go's default of
# 60s can eat a short FUZZTIME whole.
FUZZMINIMIZETIME ?= 5s
# Where `make run` serves the playground.
ADDR ?= localhost:8080

# REQUIRE_BROWSER=1 makes browser tests fail instead of skipping when no
# browser is available. CI sets it; tests read it from the environment.
REQUIRE_BROWSER ?= 0
export REQUIRE_BROWSER

WASM_ENV := GOOS=js GOARCH=wasm
# go_js_wasm_exec runs a js/wasm test binary under node (Go 1.24+ keeps it
# in lib/wasm).
WASM_EXEC = $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec

.PHONY: test deps vet wasm-vet wasm-build test-native test-wasm check-node \
	worker worker-deps deploy-worker \
	check-imports site run golden bench bench-scale bench-kueue fuzz test-fuzz help test-e2e test-conformance \
	conformance-long conformance-kueue

# The conformance harness is built against a copy of Kueue v0.16.1 whose
# flavor assigner visits requested resources in name order rather than Go's
# map order (conformance/cmd/patchkueue says why), through this Go
# workspace. Every go command in conformance/ that compiles the harness
# runs with GOWORK pointing at it.
CONFORMANCE_WORK := $(CURDIR)/build/conformance/workspace/go.work
CONFORMANCE_GO := cd conformance && GOWORK=$(CONFORMANCE_WORK) $(GO)

## test: everything CI checks: vet and build for both targets, native tests, core tests under Node
test: deps vet wasm-vet wasm-build test-native test-fuzz test-wasm test-conformance test-e2e

## deps: download the modules go.mod and conformance/go.mod need (the latter brings Kueue v0.16.1, about 90 MB)
deps: conformance-kueue
	$(GO) mod download

## conformance-kueue: download conformance/'s modules and write the patched copy of Kueue v0.16.1 and its workspace (build/conformance/workspace)
conformance-kueue:
	cd conformance && GOWORK=off $(GO) mod download
	cd conformance && GOWORK=off $(GO) run ./cmd/patchkueue \
		-kueue "$$(GOWORK=off $(GO) list -m -f '{{.Dir}}' sigs.k8s.io/kueue)" \
		-out $(dir $(CONFORMANCE_WORK))

## vet: go vet for the native target, the main module and conformance/
vet: conformance-kueue
	$(GO) vet ./...
	$(CONFORMANCE_GO) vet ./...

## wasm-vet: go vet for GOOS=js GOARCH=wasm (keeps the wasm side compiling)
wasm-vet:
	$(WASM_ENV) $(GO) vet ./...

## wasm-build: compile every package for GOOS=js GOARCH=wasm
wasm-build:
	$(WASM_ENV) $(GO) build ./...

## test-native: go test ./... natively (with workerd installed, api/workerd_test.go runs the Worker build under it), and the patched yaml.v3's own test (third_party)
test-native: worker-deps
	$(GO) test -count=1 ./...
	cd third_party/go.yaml.in/yaml/v3 && $(GO) test -count=1 .

## test-fuzz: every fuzz target for a few seconds (FUZZSMOKE each), beyond its seed corpus
FUZZSMOKE ?= 4s
test-fuzz:
	GO="$(GO)" FUZZTIME="$(FUZZSMOKE)" FUZZMINIMIZETIME=2s bash scripts/fuzz.sh

## test-wasm: core's tests compiled to WebAssembly and run under Node
# core/scenario's tests take several minutes under Node on a quiet 2-core
# machine and passed Go's default 10-minute timeout on a loaded one (11 to
# 17 minutes at a load average of 15 to 30), so the bound is set here.
test-wasm: check-node
	$(WASM_ENV) $(GO) test -count=1 -timeout 30m ./core/... -exec="$(WASM_EXEC)"

check-node:
	@command -v node >/dev/null || bash scripts/install-node.sh
	@test -x "$(WASM_EXEC)" || { echo "make: $(WASM_EXEC) not found; is Go 1.24 or newer installed?" >&2; exit 1; }

## test-conformance: the engine against Kueue v0.16.1's real scheduler: every testdata scenario and seeds 0-59 of the generator (conformance/)
test-conformance: conformance-kueue
	$(CONFORMANCE_GO) test -count=1 ./...

SEEDS ?= 1000
SEED_START ?= 0
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
## conformance-long: SEEDS random scenarios from SEED_START against Kueue, split over JOBS processes (make conformance-long SEEDS=10000); minimized failures go to build/conformance/failures
conformance-long: conformance-kueue
	$(CONFORMANCE_GO) test -c -o $(CURDIR)/build/conformance/conformance.test .
	bash scripts/conformance-long.sh $(CURDIR)/build/conformance/conformance.test $(SEEDS) $(SEED_START) $(JOBS)

## check-imports: the core purity test (no JS, I/O, wall clock in core/) and the wasm vet
check-imports:
	$(GO) test -count=1 -run '^TestCoreImports' ./core/
	$(WASM_ENV) $(GO) vet ./...

## site: build the browser playground into build/site (installs Node and the editor's npm packages from the lockfile when missing)
site:
	GO="$(GO)" bash scripts/build-site.sh

## test-e2e: the playground in headless Chromium (e2e/run.mjs): screenshots and budgets.json in build/e2e; skips without a browser unless REQUIRE_BROWSER=1
# install-browser.sh prints the browser's path, or nothing (skip). npm ci
# runs when e2e/node_modules is missing or older than the lockfile.
test-e2e: site
	@browser=$$(bash scripts/install-browser.sh); \
	if [[ -z $$browser ]]; then echo "make test-e2e: no browser, skipped"; exit 0; fi; \
	stamp=e2e/node_modules/.package-lock.json; \
	if [[ ! -f $$stamp || e2e/package-lock.json -nt $$stamp || e2e/package.json -nt $$stamp ]]; then \
		echo "+ (cd e2e && npm ci --ignore-scripts --no-audit --no-fund)"; \
		(cd e2e && npm ci --ignore-scripts --no-audit --no-fund); \
	fi; \
	echo "+ $(GO) build -o build/e2e/kueueplay ./cmd/kueueplay"; \
	$(GO) build -o build/e2e/kueueplay ./cmd/kueueplay; \
	echo "+ $(GO) run ./internal/hostile/dump -out build/e2e/hostile"; \
	$(GO) run ./internal/hostile/dump -out build/e2e/hostile; \
	echo "+ node e2e/run.mjs"; \
	CHROMIUM="$$browser" node e2e/run.mjs --bin build/e2e/kueueplay --site build/site --out build/e2e

## run: build the playground and serve it at http://localhost:8080/ (make run ADDR=host:port to change)
run: site
	$(GO) run ./cmd/kueueplay serve -addr $(ADDR) -dir build/site

## worker-deps: workerd from worker/package-lock.json, for the Worker tests (npm ci --omit=dev in worker/ when missing or stale)
worker-deps:
	@bash scripts/install-node.sh
	@stamp=worker/node_modules/.package-lock.json; \
	if [[ ! -f $$stamp || worker/package-lock.json -nt $$stamp || worker/package.json -nt $$stamp ]]; then \
		echo "+ (cd worker && npm ci --omit=dev --ignore-scripts --no-audit --no-fund)"; \
		(cd worker && npm ci --omit=dev --ignore-scripts --no-audit --no-fund); \
	fi

## worker: build the Cloudflare Worker (the HTTP API, cmd/worker) into build/worker
worker:
	GO="$(GO)" bash scripts/build-worker.sh build/worker

## deploy-worker: build the playground and the Worker and deploy both to Cloudflare with wrangler (wrangler login, or CLOUDFLARE_API_TOKEN, first)
deploy-worker: site worker check-node
	cd worker && npm ci --ignore-scripts --no-audit --no-fund
	printf '*.br\n*.gz\n' >build/site/.assetsignore
	cd worker && WRANGLER_SEND_METRICS=false npx wrangler deploy

## golden: rewrite testdata/golden/*.trace from the current engine; review the diff before committing
golden:
	$(GO) test -count=1 ./core/sim -run '^TestGolden$$' -update

## bench: core benchmarks (BenchmarkCycle: 30 queues, 15,000 workloads, ns per cycle; BenchmarkPreemption: Kueue's scalability shape with its summary)
bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x -benchmem ./core/...

## bench-scale: the CLI on Kueue's scalability shape at SIZES workloads (validate, run, run -o json: median wall, CPU, peak RSS, output size)
SIZES ?= 1500,15000,50000
bench-scale:
	$(GO) build -o build/scale/kueueplay ./cmd/kueueplay
	$(GO) run ./scripts/scalebench -bin build/scale/kueueplay -sizes $(SIZES) -dir build/scale

## bench-kueue: the engine against Kueue v0.16.1's real scheduler on Kueue's scalability shape at SIZES workloads (default 1500), ns per cycle each and the ratio, medians of KUEUE_BENCHTIME runs, compared over at most KUEUE_MAX_CYCLES cycles if set (conformance/bench_test.go)
KUEUE_BENCHTIME ?= 3x
KUEUE_MAX_CYCLES ?= 0
bench-kueue: SIZES = 1500
bench-kueue: conformance-kueue
	$(CONFORMANCE_GO) test -run '^$$' -bench '^BenchmarkKueueScalability$$' -benchtime $(KUEUE_BENCHTIME) -timeout 0 . -kueue-sizes $(SIZES) -kueue-max-cycles $(KUEUE_MAX_CYCLES)

## fuzz: run every fuzz target in the module in turn, FUZZTIME each (make fuzz FUZZTIME=30s)
fuzz:
	GO="$(GO)" FUZZTIME="$(FUZZTIME)" FUZZMINIMIZETIME="$(FUZZMINIMIZETIME)" bash scripts/fuzz.sh

## help: list the targets
help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)
