package api_test

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay"
	"github.com/kueueplay/kueueplay/api"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/internal/scalability"
)

// sizeCase is one request of BenchmarkWorkerdSizes.
type sizeCase struct {
	name, path, body string
}

// sizeCases are simulations and validations of increasing size: Kueue's
// scalability test (internal/scalability) at a few sizes, BenchmarkWork's
// shapes small and as BenchmarkWork runs them, the gallery's default and
// heaviest examples, and the examples FreeLimits admits that should cost
// it the most ("free-<name>": the four with the most work, and those that
// place pods, whose cost stepWork counts least well).
func sizeCases(b *testing.B) []sizeCase {
	scal := func(n int) string {
		var buf bytes.Buffer
		if _, err := scalability.Write(&buf, n, 100*time.Millisecond); err != nil {
			b.Fatal(err)
		}
		return buf.String()
	}
	heaviest, most := "", int64(-1)
	type admitted struct {
		name   string
		work   int64
		places bool
	}
	var free []admitted
	files, _ := fs.Glob(kueueplay.Examples(), "*.yaml")
	for _, f := range files {
		text := example(b, strings.TrimSuffix(f, ".yaml"))
		w, err := api.Work(f, text)
		if err != nil {
			b.Fatal(err)
		}
		if w > most {
			heaviest, most = strings.TrimSuffix(f, ".yaml"), w
		}
		objects, err := api.Objects(f, text)
		if err != nil {
			b.Fatal(err)
		}
		if l := api.FreeLimits; int64(len(text)) <= l.MaxBodyBytes && objects <= l.MaxObjects && w <= l.MaxWork {
			sc, err := scenario.Decode(f, []byte(text))
			if err != nil {
				b.Fatal(err)
			}
			free = append(free, admitted{strings.TrimSuffix(f, ".yaml"), w, len(sc.Nodes) > 0})
		}
	}
	slices.SortStableFunc(free, func(x, y admitted) int { return cmp.Compare(y.work, x.work) })
	tiny := "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: f}\n---\n" +
		"apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors: [{name: f, resources: [{name: cpu, nominalQuota: \"1\"}]}]\n---\n" +
		"apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq, namespace: ns}\nspec: {clusterQueue: cq}\n---\n" +
		"apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: w, namespace: ns}\nspec:\n  queueName: lq\n  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]}}}]\n"
	cases := []sizeCase{
		{name: "simulate/tiny", body: tiny},
		{name: "validate/default", path: "/v1/validate", body: example(b, "default")},
		{name: "simulate/default", body: example(b, "default")},
		{name: "simulate-text/default", path: "/v1/simulate?format=text", body: example(b, "default")},
		{name: "simulate/example-" + heaviest, body: example(b, heaviest)},
		{name: "simulate/queueing-40", body: api.QueueingScenario(40, 4)},
		{name: "simulate/preemption-30", body: api.PreemptionScenario(30)},
		{name: "simulate/placement-20x6", body: api.PlacementScenario(20, 6)},
	}
	for i, a := range free {
		if i < 4 || a.places {
			cases = append(cases, sizeCase{name: "simulate/free-" + a.name, body: example(b, a.name)})
		}
	}
	for _, name := range []string{"queueing", "preemption", "placement"} {
		cases = append(cases, sizeCase{name: "simulate/" + name, body: api.WorkScenarios()[name]})
	}
	for _, n := range []int{50, 200, 1000, 3000} {
		text := scal(n)
		cases = append(cases,
			sizeCase{name: fmt.Sprintf("validate/scalability-%d", n), path: "/v1/validate", body: text},
			sizeCase{name: fmt.Sprintf("simulate/scalability-%d", n), body: text},
			sizeCase{name: fmt.Sprintf("simulate-text/scalability-%d", n), path: "/v1/simulate?format=text", body: text})
	}
	for i := range cases {
		if cases[i].path == "" {
			cases[i].path = "/v1/simulate"
		}
	}
	return cases
}

// unbounded is a KUEUEPLAY_LIMITS setting no measured request reaches, so
// BenchmarkWorkerdSizes measures past both profiles.
const unbounded = "paid,body=268435456,objects=10000000,cycles=10000000,work=1000000000000"

// BenchmarkWorkerdSizes measures, on workerd, what the API's limits are
// derived from (api/limits.go): for each request of sizeCases, the CPU
// time of workerd's threads per request (least, median and largest: on a
// machine shared with other work, contention only adds to CPU time, so
// the least is the nearest to the request's own cost), the work
// units the simulation counts (stepWork, computed natively), the CPU per
// unit, and workerd's memory: its resident set after warming up and its
// peak (VmRSS and VmHWM of /proc/<pid>/status). Each case gets a workerd
// of its own, warmed up by 200 simulations of the default scenario and up
// to 20 (3 s) of the case itself, so the peak is that case's:
//
//	make worker-deps && go test ./api -run '^$' -bench WorkerdSizes -benchtime 5x -timeout 60m
//
// The Worker runs with limits no case reaches (unbounded), so cases past
// a profile's limits are measured too, at nice -20 (favour).
func BenchmarkWorkerdSizes(b *testing.B) {
	bin := workerdBinary(b)
	if _, err := os.Stat("/proc/self/task"); err != nil {
		b.Skip("needs Linux's /proc")
	}
	dir := buildWorker(b)
	def := example(b, "default")
	for _, c := range sizeCases(b) {
		b.Run(c.name, func(b *testing.B) {
			units, err := api.Work("scenario.yaml", c.body)
			if err != nil {
				b.Fatal(err)
			}
			objects, err := api.Objects("scenario.yaml", c.body)
			if err != nil {
				b.Fatal(err)
			}
			w := startWorkerd(b, bin, dir, b.TempDir(), unbounded)
			pid := w.cmd.Process.Pid
			favour(pid)
			client := &http.Client{Timeout: 10 * time.Minute}
			do := func(path, body string) int {
				res, err := client.Post(w.url+path, "text/plain", strings.NewReader(body))
				if err != nil {
					// workerd may close a kept-alive connection as the
					// client reuses it; once more on a new one.
					client.CloseIdleConnections()
					res, err = client.Post(w.url+path, "text/plain", strings.NewReader(body))
				}
				if err != nil {
					b.Fatalf("%v; workerd's output:\n%s", err, w.logs)
				}
				n, _ := io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					b.Fatalf("status %d (%s)", res.StatusCode, w.logs)
				}
				return int(n)
			}
			// V8 compiles hot WebAssembly functions again with its
			// optimizing tier, on background threads whose CPU time counts
			// here: warm up until that is done, as it is in an isolate
			// that has served for a while.
			for range 200 {
				do("/v1/simulate", def)
			}
			rss := memStatus(b, pid, "VmRSS")
			size := 0
			for i, start := 0, time.Now(); i < 20 && (i == 0 || time.Since(start) < 3*time.Second); i++ {
				size = do(c.path, c.body)
			}
			var cpu []time.Duration
			for b.Loop() {
				before := cpuTime(b, pid)
				do(c.path, c.body)
				cpu = append(cpu, cpuTime(b, pid)-before)
			}
			peak := memStatus(b, pid, "VmHWM")
			slices.Sort(cpu)
			median := cpu[len(cpu)/2]
			b.ReportMetric(float64(cpu[0].Microseconds())/1000, "cpu-ms-min")
			b.ReportMetric(float64(median.Microseconds())/1000, "cpu-ms-median")
			b.ReportMetric(float64(cpu[len(cpu)-1].Microseconds())/1000, "cpu-ms-max")
			b.ReportMetric(float64(objects), "objects")
			b.ReportMetric(float64(len(c.body)), "body-bytes")
			b.ReportMetric(float64(size), "answer-bytes")
			if strings.HasPrefix(c.path, "/v1/simulate") {
				b.ReportMetric(float64(units), "units")
				b.ReportMetric(float64(median.Nanoseconds())/float64(units), "cpu-ns/unit")
			}
			b.ReportMetric(float64(rss)/(1<<20), "rss-warm-MB")
			b.ReportMetric(float64(peak)/(1<<20), "rss-peak-MB")
		})
	}
}

// memStatus is a memory field of /proc/<pid>/status (VmRSS, VmHWM), in
// bytes.
func memStatus(b *testing.B, pid int, field string) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				b.Fatalf("%s: %v", field, err)
			}
			return kb << 10
		}
	}
	b.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}
