package api_test

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/kueueplay/kueueplay"
	"github.com/kueueplay/kueueplay/api"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/ui/sharelink"
	"github.com/kueueplay/kueueplay/ui/view"
)

// profiles are the named limit profiles, in the order of their size.
var profiles = []struct {
	name   string
	limits api.Limits
}{
	{"free", api.FreeLimits},
	{"paid", api.PaidLimits},
}

// cheapestCycle is what a scheduling cycle costs at least in work units:
// a cycle runs only with a queue head, and nominating it costs 100
// (stepWork). TestCheapestCycle checks it on the gallery.
const cheapestCycle = 100

// TestCheapestCycle: no gallery example's run costs less than
// cheapestCycle units per cycle.
func TestCheapestCycle(t *testing.T) {
	files, err := fs.Glob(kueueplay.Examples(), "*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		text := example(t, strings.TrimSuffix(f, ".yaml"))
		work, err := api.Work(f, text)
		if err != nil {
			t.Fatal(err)
		}
		if c := wantTrace(t, f, text, nil).Cycles; int64(c)*cheapestCycle > work {
			t.Errorf("%s: %d cycles in %d units, under %d a cycle", f, c, work, cheapestCycle)
		}
	}
}

// flavors is a scenario of n objects: n ResourceFlavors, the smallest
// object there is, so it is the most objects a body can hold.
func flavors(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: kueueplay/v1alpha1\nkind: Scenario\nmetadata: {name: flavors}\nspec: {}\n")
	for i := range n {
		fmt.Fprintf(&b, "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: f%d}\n", i)
	}
	return b.String()
}

// TestProfiles: each profile sets every field, reads back from its name
// and from its String, and is consistent: the body limit holds a scenario
// at the object limit (so object_limit, not body_too_large, is what a
// scenario with one object more meets), a run of the cheapest cycles
// meets the cycle limit within the work budget, and the paid profile
// allows at least what the free one does.
func TestProfiles(t *testing.T) {
	for i, p := range profiles {
		t.Run(p.name, func(t *testing.T) {
			l := p.limits
			if l.MaxBodyBytes <= 0 || l.MaxObjects <= 0 || l.MaxCycles <= 0 || l.MaxWork <= 0 {
				t.Fatalf("%+v: every field must be set", l)
			}
			if got, err := api.ParseLimits(p.name); err != nil || got != l {
				t.Errorf("ParseLimits(%q) = %+v, %v; want %+v", p.name, got, err, l)
			}
			if got, err := api.ParseLimits(l.String()); err != nil || got != l {
				t.Errorf("ParseLimits(%q) = %+v, %v; want %+v", l.String(), got, err, l)
			}
			if n := len(flavors(l.MaxObjects + 1)); int64(n) > l.MaxBodyBytes {
				t.Errorf("a scenario of %d flavors is %d bytes, over the body limit %d: the object limit cannot be met", l.MaxObjects+1, n, l.MaxBodyBytes)
			}
			if int64(l.MaxCycles)*cheapestCycle > l.MaxWork {
				t.Errorf("%d cycles of %d units each are over the work budget %d: the cycle limit cannot be met", l.MaxCycles, cheapestCycle, l.MaxWork)
			}
			if i > 0 {
				prev := profiles[i-1].limits
				if l.MaxBodyBytes < prev.MaxBodyBytes || l.MaxObjects < prev.MaxObjects || l.MaxCycles < prev.MaxCycles || l.MaxWork < prev.MaxWork {
					t.Errorf("%s %+v allows less than %s %+v", p.name, l, profiles[i-1].name, prev)
				}
			}
		})
	}
	if api.DefaultLimits != api.FreeLimits {
		t.Errorf("DefaultLimits %+v, want the free profile %+v", api.DefaultLimits, api.FreeLimits)
	}
}

func TestParseLimits(t *testing.T) {
	free, paid := api.FreeLimits, api.PaidLimits
	withObjects := paid
	withObjects.MaxObjects = 50
	all := api.Limits{MaxBodyBytes: 10, MaxObjects: 20, MaxCycles: 30, MaxWork: 40_000}
	for _, tc := range []struct {
		in   string
		want api.Limits
		err  string
	}{
		{in: "free", want: free},
		{in: " paid ", want: paid},
		{in: "paid,objects=50", want: withObjects},
		{in: "free, body=10, objects=20, cycles=30, work=40_000", want: all},
		{in: "", err: "want free or paid"},
		{in: "enterprise", err: "want free or paid"},
		{in: "objects=5", err: "want free or paid"},
		{in: "free,objects", err: "not field=value"},
		{in: "free,objects=0", err: "positive integer"},
		{in: "free,objects=-3", err: "positive integer"},
		{in: "free,work=1e9", err: "positive integer"},
		{in: "free,cycles=4294967296", err: "at most"},
		{in: "free,memory=5", err: "unknown field"},
		{in: "free,work=5,work=6", err: "set twice"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := api.ParseLimits(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseLimits(%q) = %+v, %v; want an error with %q", tc.in, got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("ParseLimits(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			}
		})
	}
}

// TestProfileEdges: under each profile, a request at a limit is served and
// one just over it is refused with the limit's status and code. The work
// limit is met with the queueing shape at the size whose work is just
// over the budget (by less than one workload's work) for the free profile;
// the paid budget is seconds of engine time, so there the edge is a run's
// exact work, W units served with a budget of W and refused with W-1, and
// the same for the cycles a run needs to settle.
func TestProfileEdges(t *testing.T) {
	def := example(t, "default")
	for _, p := range profiles {
		t.Run(p.name, func(t *testing.T) {
			l := p.limits
			h := newHandler(l)
			check := func(name string, h *api.Handler, req request, status int, code string, limit int64) {
				t.Helper()
				rec := req.do(t, h)
				if rec.Code != status {
					t.Errorf("%s: status %d, want %d: %.300s", name, rec.Code, status, rec.Body.String())
					return
				}
				if status == 200 {
					return
				}
				got := decodeJSON[errorBody](t, rec)
				if got.Error.Code != code || got.Error.Limit != limit {
					t.Errorf("%s: %+v, want code %s, limit %d", name, got.Error, code, limit)
				}
			}

			// The body: padding with a YAML comment keeps the scenario.
			pad := func(n int64) string { return def + "#" + strings.Repeat("x", int(n)-len(def)-2) + "\n" }
			check("body at the limit", h, request{target: "/v1/validate", body: pad(l.MaxBodyBytes)}, 200, "", 0)
			check("body over the limit", h, request{target: "/v1/validate", body: pad(l.MaxBodyBytes + 1)}, 413, "body_too_large", l.MaxBodyBytes)

			// Objects: validate warns, simulate refuses.
			at, over := flavors(l.MaxObjects), flavors(l.MaxObjects+1)
			rec := request{target: "/v1/validate", body: at}.do(t, h)
			if rec.Code != 200 || strings.Contains(rec.Body.String(), "objects") {
				t.Errorf("validate at the object limit: %d %.300s", rec.Code, rec.Body.String())
			}
			rec = request{target: "/v1/validate", body: over}.do(t, h)
			if rec.Code != 200 || !strings.Contains(rec.Body.String(), fmt.Sprintf("at most %d", l.MaxObjects)) {
				t.Errorf("validate over the object limit: %d %.300s; want a warning", rec.Code, rec.Body.String())
			}
			check("simulate at the object limit", h, request{target: "/v1/simulate", body: at}, 200, "", 0)
			check("simulate over the object limit", h, request{target: "/v1/simulate", body: over}, 422, "object_limit", int64(l.MaxObjects))

			// Cycles: an explicit spec.maxCycles is checked before the run.
			maxCycles := func(n int) string {
				text := strings.Replace(def, "\nspec:\n", fmt.Sprintf("\nspec:\n  maxCycles: %d\n", n), 1)
				if sc, err := scenario.Decode("scenario.yaml", []byte(text)); err != nil || sc.MaxCycles != n {
					t.Fatalf("setting spec.maxCycles in the default example: %v", err)
				}
				return text
			}
			check("maxCycles at the limit", h, request{target: "/v1/simulate", body: maxCycles(l.MaxCycles)}, 200, "", 0)
			check("maxCycles over the limit", h, request{target: "/v1/simulate", body: maxCycles(l.MaxCycles + 1)}, 422, "cycle_limit", int64(l.MaxCycles))

			// Work and settling: exact edges of one run.
			work, err := api.Work("scenario.yaml", def)
			if err != nil {
				t.Fatal(err)
			}
			cycles := cyclesOf(t, def)
			for _, e := range []struct {
				name   string
				limits func(api.Limits) api.Limits
				status int
				code   string
				limit  int64
			}{
				{"work at the run's", func(x api.Limits) api.Limits { x.MaxWork = work; return x }, 200, "", 0},
				{"work one under the run's", func(x api.Limits) api.Limits { x.MaxWork = work - 1; return x }, 422, "work_limit", work - 1},
				{"cycles at the run's", func(x api.Limits) api.Limits { x.MaxCycles = cycles; return x }, 200, "", 0},
				{"cycles one under the run's", func(x api.Limits) api.Limits { x.MaxCycles = cycles - 1; return x }, 422, "cycle_limit", int64(cycles - 1)},
			} {
				check(e.name, newHandler(e.limits(l)), request{target: "/v1/simulate", body: def}, e.status, e.code, e.limit)
			}

			if p.name != "free" {
				return
			}
			// The free profile's own work budget: the queueing shape at the
			// size n whose work fits and n+1 whose work does not.
			lo, hi := 1, 2
			size := func(n int) int64 {
				w, err := api.Work("q.yaml", api.QueueingScenario(n, 4))
				if err != nil {
					t.Fatal(err)
				}
				return w
			}
			for size(hi) <= l.MaxWork {
				lo, hi = hi, hi*2
			}
			if size(lo) > l.MaxWork {
				t.Fatalf("the smallest queueing scenario needs %d units, over the free budget %d", size(lo), l.MaxWork)
			}
			for hi-lo > 1 {
				if mid := (lo + hi) / 2; size(mid) <= l.MaxWork {
					lo = mid
				} else {
					hi = mid
				}
			}
			check(fmt.Sprintf("queueing-%d, %d units", lo, size(lo)), h, request{target: "/v1/simulate", body: api.QueueingScenario(lo, 4)}, 200, "", 0)
			check(fmt.Sprintf("queueing-%d, %d units", hi, size(hi)), h, request{target: "/v1/simulate", body: api.QueueingScenario(hi, 4)}, 422, "work_limit", l.MaxWork)
		})
	}
}

// cyclesOf is how many scheduling cycles a scenario's run takes to settle.
func cyclesOf(t *testing.T, text string) int {
	t.Helper()
	tr := wantTrace(t, "scenario.yaml", text, nil)
	if tr.End != "quiescent" {
		t.Fatalf("the run ends %q, not settled", tr.End)
	}
	return tr.Cycles
}

// TestShareWithinLimits: the page's Share makes a short link for any
// gallery example, with its whole text in the fragment as the page sends
// it after an edit, under each profile (POST /v1/share is bounded by the
// body limit only).
func TestShareWithinLimits(t *testing.T) {
	files, err := fs.Glob(kueueplay.Examples(), "*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, p := range profiles {
		h := newHandler(p.limits)
		for _, f := range files {
			frag := sharelink.Encode(view.Shared{Scenario: example(t, strings.TrimSuffix(f, ".yaml")), Step: 3})
			if rec := (request{target: "/v1/share", body: frag}).do(t, h); rec.Code != 201 {
				t.Errorf("%s profile, %s (%d bytes): %d %s", p.name, f, len(frag), rec.Code, rec.Body.String())
			}
		}
	}
}
