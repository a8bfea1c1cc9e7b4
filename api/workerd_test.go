package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay"
	"github.com/kueueplay/kueueplay/api"
	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/ui/sharelink"
	"github.com/kueueplay/kueueplay/ui/view"
)

// The Worker build (cmd/worker, worker/worker.mjs) under a local workerd,
// the runtime Cloudflare Workers run on: the tests build it, start workerd
// on a loopback port with a KV namespace kept in a directory (workerd's
// local storage), send every endpoint the same requests as the native
// handler and compare the answers byte for byte.
//
// workerd comes from worker/package-lock.json (make worker-deps: npm ci
// --omit=dev in worker/). Without it the tests skip, or fail when
// REQUIRE_BROWSER=1 (CI).

// workerdBinary finds the platform's workerd binary in worker/node_modules.
// (Not node_modules/.bin/workerd: that is a Node wrapper, and stopping it
// would leave the binary running.)
func workerdBinary(t testing.TB) string {
	t.Helper()
	found, _ := filepath.Glob(filepath.Join("..", "worker", "node_modules", "@cloudflare", "workerd-*", "bin", "workerd"))
	if len(found) == 0 {
		msg := "workerd is not installed: run make worker-deps (npm ci --omit=dev in worker/)"
		if os.Getenv("REQUIRE_BROWSER") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return found[0]
}

// workerd is a running workerd serving the Worker build.
type workerd struct {
	url  string
	dir  string // build and config
	kv   string // the KV namespace's directory
	cmd  *exec.Cmd
	logs *bytes.Buffer
}

// buildWorker builds the Worker into a temporary folder
// (scripts/build-worker.sh).
func buildWorker(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("bash", "scripts/build-worker.sh", dir)
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the Worker: %v\n%s", err, out)
	}
	return dir
}

const workerdConfig = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "kv", disk = (path = %q, writable = true)),
  ],
  sockets = [(name = "http", address = %q, http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "wasm_exec.js", esModule = embed "wasm_exec.js"),
    (name = "app.wasm", wasm = embed "app.wasm"),
  ],
  compatibilityDate = "2025-01-01",
  bindings = [(name = "SHARES", kvNamespace = "kv")%s],
);
`

// limitsBinding is the Worker's KUEUEPLAY_LIMITS variable in workerd's
// config (a text binding, what wrangler makes of a "vars" entry).
func limitsBinding(setting string) string {
	if setting == "" {
		return ""
	}
	return fmt.Sprintf(", (name = \"KUEUEPLAY_LIMITS\", text = %q)", setting)
}

// startWorkerd starts workerd on a free loopback port over the build in
// dir, with the KV namespace in kvDir and the Worker's KUEUEPLAY_LIMITS
// variable set to limits ("": unset), and waits until it answers.
func startWorkerd(t testing.TB, bin, dir, kvDir, limits string) *workerd {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	conf := filepath.Join(dir, "config.capnp")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf(workerdConfig, kvDir, addr, limitsBinding(limits))), 0o644); err != nil {
		t.Fatal(err)
	}
	w := &workerd{url: "http://" + addr, dir: dir, kv: kvDir, logs: &bytes.Buffer{}}
	w.cmd = exec.Command(bin, "serve", conf)
	w.cmd.Stdout, w.cmd.Stderr = w.logs, w.logs
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.stop)
	deadline := time.Now().Add(30 * time.Second)
	for {
		// The Worker answers JSON, an error too (a misconfigured
		// KUEUEPLAY_LIMITS makes every answer a 500).
		res, err := http.Get(w.url + "/v1/examples")
		if err == nil {
			res.Body.Close()
			if res.Header.Get("Content-Type") == "application/json" {
				return w
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("workerd did not answer within 30s (last error %v); its output:\n%s", err, w.logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (w *workerd) stop() {
	if w.cmd.ProcessState == nil {
		w.cmd.Process.Kill()
		w.cmd.Wait()
	}
}

// call is a request sent to both servers.
type call struct {
	name, method, path, body, contentType string
}

// answer is what a server said.
type answer struct {
	status  int
	headers map[string]string
	body    string
}

// compared are the headers that must be equal too.
var compared = []string{"Content-Type", "Access-Control-Allow-Origin", "Access-Control-Allow-Methods", "Cache-Control", "Location", "Allow"}

func send(t *testing.T, base string, c call) answer {
	t.Helper()
	req, err := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
	if err != nil {
		t.Fatal(err)
	}
	if c.contentType != "" {
		req.Header.Set("Content-Type", c.contentType)
	}
	req.Header.Set("Origin", "https://docs.example")
	client := &http.Client{Timeout: 60 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", c.method, c.path, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	a := answer{status: res.StatusCode, headers: map[string]string{}, body: string(body)}
	for _, h := range compared {
		a.headers[h] = res.Header.Get(h)
	}
	return a
}

func TestWorkerd(t *testing.T) {
	bin := workerdBinary(t)
	if testing.Short() {
		t.Skip("builds the Worker and starts workerd")
	}
	dir := buildWorker(t)
	kvDir := filepath.Join(t.TempDir(), "kv")
	if err := os.MkdirAll(kvDir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The paid profile, so that every gallery example's simulation is
	// compared (the free one refuses most); testWorkerdLimits checks the
	// variable itself.
	w := startWorkerd(t, bin, dir, kvDir, "paid")
	native := httptest.NewServer(api.New(api.Config{Examples: kueueplay.Examples(), Store: &api.MemStore{}, Limits: api.PaidLimits}))
	defer native.Close()

	def := example(t, "default")
	frag := sharelink.Encode(view.Shared{Scenario: def, Step: 4, Gates: map[string]bool{core.GateLendingLimit: true}})
	calls := []call{
		{name: "validate", method: "POST", path: "/v1/validate", body: def},
		{name: "validate an invalid scenario", method: "POST", path: "/v1/validate?file=x.yaml", body: "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: q}\nspec:\n  nominalQouta: 3\n"},
		{name: "simulate a range as text", method: "POST", path: "/v1/simulate?from=2&to=5&format=text", body: def},
		{name: "simulate with gates and settings", method: "POST", path: "/v1/simulate?gates=RefreshAssignmentsDuringSchedulingCycle=true&settings=whenCanBorrow=TryNextFlavor", body: example(t, "kep4378-claims-gate-off")},
		{name: "simulate a JSON envelope", method: "POST", path: "/v1/simulate", contentType: "application/json", body: `{"scenario": ` + strconv.Quote(def) + `, "from": 1, "to": 3}`},
		{name: "simulate an invalid scenario", method: "POST", path: "/v1/simulate", body: "kind: Nope\n"},
		{name: "simulate a body over the limit", method: "POST", path: "/v1/simulate", body: def + strings.Repeat("#", int(api.PaidLimits.MaxBodyBytes))},
		{name: "simulate preflight", method: "OPTIONS", path: "/v1/simulate"},
		{name: "render an example", method: "GET", path: "/v1/render.svg?example=default&step=4&theme=dark"},
		{name: "render a fragment", method: "GET", path: "/v1/render.svg?s=" + frag},
		{name: "render past the end", method: "GET", path: "/v1/render.svg?example=default&step=99"},
		{name: "examples", method: "GET", path: "/v1/examples"},
		{name: "an example", method: "GET", path: "/v1/examples/default"},
		{name: "an example as YAML", method: "GET", path: "/v1/examples/placement-seed-static-then-spot?format=yaml"},
		{name: "no such example", method: "GET", path: "/v1/examples/nope"},
		{name: "share", method: "POST", path: "/v1/share", body: frag},
		{name: "share again", method: "POST", path: "/v1/share", body: frag},
		{name: "share garbage", method: "POST", path: "/v1/share", body: "nope"},
		{name: "unknown short link", method: "GET", path: "/s/AAAAAAAAAAAAAAAA"},
		{name: "unknown path", method: "GET", path: "/v2/anything"},
		{name: "wrong method", method: "GET", path: "/v1/simulate"},
	}
	files, _ := fs.Glob(kueueplay.Examples(), "*.yaml")
	for _, f := range files {
		calls = append(calls, call{name: "simulate " + f, method: "POST", path: "/v1/simulate", body: example(t, strings.TrimSuffix(f, ".yaml"))})
	}
	var shareID string
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			want := send(t, native.URL, c)
			got := send(t, w.url, c)
			// Only the host differs, in short links' URLs.
			got.body = strings.ReplaceAll(got.body, w.url, native.URL)
			if got.status != want.status {
				t.Errorf("status %d on workerd, %d natively; workerd said %.300s", got.status, want.status, got.body)
			}
			for _, h := range compared {
				if got.headers[h] != want.headers[h] {
					t.Errorf("%s: %q on workerd, %q natively", h, got.headers[h], want.headers[h])
				}
			}
			if got.body != want.body {
				i := 0
				for i < min(len(got.body), len(want.body)) && got.body[i] == want.body[i] {
					i++
				}
				t.Errorf("bodies differ from byte %d (%d bytes on workerd, %d natively):\nworkerd: %.200q\nnative:  %.200q",
					i, len(got.body), len(want.body), got.body[max(0, i-40):], want.body[max(0, i-40):])
			}
			if c.name == "share" {
				if got.status != 201 {
					t.Fatalf("share: %d %s", got.status, got.body)
				}
				shareID = between(got.body, `"id":"`, `"`)
			}
		})
	}

	t.Run("KUEUEPLAY_LIMITS", func(t *testing.T) { testWorkerdLimits(t, bin, dir) })

	// The short link is in workerd's KV directory, and survives a restart
	// of workerd over the same directory.
	t.Run("KV", func(t *testing.T) {
		if shareID == "" {
			t.Fatal("no short link was made")
		}
		stored, err := os.ReadFile(filepath.Join(kvDir, "share-"+shareID))
		if err != nil || string(stored) != frag {
			t.Fatalf("KV file: %q, %v; want the fragment", stored, err)
		}
		w.stop()
		w2 := startWorkerd(t, bin, dir, kvDir, "paid")
		for _, c := range []call{{method: "GET", path: "/s/" + shareID}, {method: "GET", path: "/s/" + shareID + "?embed=1"}, {method: "GET", path: "/v1/share/" + shareID}} {
			got := send(t, w2.url, c)
			got.body = strings.ReplaceAll(got.body, w2.url, native.URL)
			want := send(t, native.URL, c)
			if got.status != want.status || got.headers["Location"] != want.headers["Location"] || got.body != want.body {
				t.Errorf("%s after a restart: %d %q %.100q; natively %d %q %.100q", c.path, got.status, got.headers["Location"], got.body,
					want.status, want.headers["Location"], want.body)
			}
		}
	})
}

// testWorkerdLimits: the Worker takes its limits from its variable
// KUEUEPLAY_LIMITS (cmd/worker), the free profile when it is unset, and a
// setting api.ParseLimits refuses makes every answer a 500 that says so.
func testWorkerdLimits(t *testing.T, bin, dir string) {
	free := api.FreeLimits
	over := flavors(free.MaxObjects + 1)
	for _, tc := range []struct {
		setting string
		status  int
		code    string
		limit   int64
	}{
		{"", 422, "object_limit", int64(free.MaxObjects)},
		{"free", 422, "object_limit", int64(free.MaxObjects)},
		{"paid", 200, "", 0},
		{"paid,objects=20", 422, "object_limit", 20},
		{"enterprise", 500, "misconfigured", 0},
	} {
		name := tc.setting
		if name == "" {
			name = "unset"
		}
		t.Run(name, func(t *testing.T) {
			w := startWorkerd(t, bin, dir, t.TempDir(), tc.setting)
			defer w.stop()
			got := send(t, w.url, call{method: "POST", path: "/v1/simulate", body: over})
			if got.status != tc.status {
				t.Fatalf("simulate %d objects: status %d, want %d: %.300s", free.MaxObjects+1, got.status, tc.status, got.body)
			}
			if tc.status == 200 {
				return
			}
			var e errorBody
			if err := json.Unmarshal([]byte(got.body), &e); err != nil {
				t.Fatalf("%v: %s", err, got.body)
			}
			if e.Error.Code != tc.code || e.Error.Limit != tc.limit {
				t.Errorf("error %+v, want code %s, limit %d", e.Error, tc.code, tc.limit)
			}
			if tc.code == "misconfigured" && !strings.Contains(e.Error.Message, "KUEUEPLAY_LIMITS") {
				t.Errorf("message %q does not name the variable", e.Error.Message)
			}
		})
	}
}

func between(s, start, end string) string {
	_, after, ok := strings.Cut(s, start)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(after, end)
	return v
}

// BenchmarkWorkerd measures the CPU time workerd spends per request, with
// the Worker warmed up (V8 compiles hot WebAssembly functions again with
// its optimizing tier after the first calls), and reports the median and
// the 90th percentile over the requests:
//
//	make worker-deps && go test ./api -run '^$' -bench Workerd -benchtime 200x
//
// CPU time is read from /proc/<pid>/task/*/schedstat (Linux), summed over
// workerd's threads, before and after each request.
func BenchmarkWorkerd(b *testing.B) {
	bin := workerdBinary(b)
	if _, err := os.Stat("/proc/self/task"); err != nil {
		b.Skip("needs Linux's /proc")
	}
	dir := buildWorker(b)
	w := startWorkerd(b, bin, dir, b.TempDir(), "")
	def, err := fs.ReadFile(kueueplay.Examples(), "default.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []call{
		{name: "simulate-default", method: "POST", path: "/v1/simulate", body: string(def)},
		{name: "validate-default", method: "POST", path: "/v1/validate", body: string(def)},
		{name: "render-default", method: "GET", path: "/v1/render.svg?example=default&step=4"},
		{name: "examples", method: "GET", path: "/v1/examples"},
	} {
		b.Run(c.name, func(b *testing.B) {
			do := func() {
				req, _ := http.NewRequestWithContext(context.Background(), c.method, w.url+c.path, strings.NewReader(c.body))
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					b.Fatalf("status %d", res.StatusCode)
				}
			}
			for range 50 { // warm up
				do()
			}
			var cpu []time.Duration
			for b.Loop() {
				before := cpuTime(b, w.cmd.Process.Pid)
				do()
				cpu = append(cpu, cpuTime(b, w.cmd.Process.Pid)-before)
			}
			slices.Sort(cpu)
			b.ReportMetric(float64(cpu[len(cpu)/2].Microseconds())/1000, "cpu-ms-median")
			b.ReportMetric(float64(cpu[len(cpu)*9/10].Microseconds())/1000, "cpu-ms-p90")
		})
	}
}

// cpuTime is the CPU time all of pid's threads have used.
func cpuTime(b *testing.B, pid int) time.Duration {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		b.Fatalf("no schedstat for %d: %v", pid, err)
	}
	var total time.Duration
	for _, f := range tasks {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // the thread ended
		}
		field, _, _ := strings.Cut(string(data), " ")
		ns, _ := strconv.ParseInt(field, 10, 64)
		total += time.Duration(ns)
	}
	return total
}
