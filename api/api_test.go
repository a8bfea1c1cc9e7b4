package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kueueplay/kueueplay"
	"github.com/kueueplay/kueueplay/api"
	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/ui/sharelink"
	"github.com/kueueplay/kueueplay/ui/view"
)

// request is one call to the handler.
type request struct {
	method, target, body string
	header               map[string]string
}

func (rq request) do(t *testing.T, h http.Handler) *httptest.ResponseRecorder {
	t.Helper()
	method := rq.method
	if method == "" {
		method = http.MethodGet
		if rq.body != "" {
			method = http.MethodPost
		}
	}
	r := httptest.NewRequest(method, rq.target, strings.NewReader(rq.body))
	for k, v := range rq.header {
		r.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

// errorBody is the shape of every error response.
type errorBody struct {
	Error struct {
		Status      int               `json:"status"`
		Code        string            `json:"code"`
		Message     string            `json:"message"`
		Limit       int64             `json:"limit"`
		Diagnostics []core.Diagnostic `json:"diagnostics"`
	} `json:"error"`
}

func example(t testing.TB, name string) string {
	t.Helper()
	data, err := fs.ReadFile(kueueplay.Examples(), name+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func newHandler(lim api.Limits) *api.Handler {
	return api.New(api.Config{Examples: kueueplay.Examples(), Store: &api.MemStore{}, Limits: lim})
}

// wantTrace is what sim.Run gives for a file, as the API would encode it.
func wantTrace(t *testing.T, file, text string, gates core.FeatureGates) *trace.Trace {
	t.Helper()
	sc, err := scenario.Decode(file, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	tr := sim.Run(sc, sim.Options{Gates: gates})
	// As the JSON reader gives them back: the engine keeps its queue
	// changes packed (trace.QueueDelta), the reader as QueueChanges.
	for i := range tr.Steps {
		st := &tr.Steps[i]
		st.QueueChanges, st.QueueDelta = st.QueueChangeList(), nil
	}
	return tr
}

type simulateBody struct {
	Warnings []core.Diagnostic `json:"warnings"`
	From     int               `json:"from"`
	To       int               `json:"to"`
	Total    int               `json:"total"`
	Trace    *trace.Trace      `json:"trace"`
}

func decodeJSON[T any](t *testing.T, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("response is not JSON: %v\n%s", err, rec.Body.String())
	}
	return v
}

// TestErrors: every refusal is a JSON error with the right status and
// code, a message, and the bound for limit errors.
func TestErrors(t *testing.T) {
	def := example(t, "default")
	big := func(n int) string {
		var b strings.Builder
		b.WriteString(def)
		for i := range n {
			fmt.Fprintf(&b, "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: extra-%d}\n", i)
		}
		return b.String()
	}
	// slow needs more than a few cycles to settle: one workload fills the
	// queue for 2s at a time, and ten more wait their turn. Its
	// spec.maxCycles is filled in by the cases.
	slow := "apiVersion: kueueplay/v1alpha1\nkind: Scenario\nmetadata: {name: slow}\nspec: {maxCycles: %d}\n---\n" +
		"apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: f}\n---\n" +
		"apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors: [{name: f, resources: [{name: cpu, nominalQuota: \"1\"}]}]\n---\n" +
		"apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq, namespace: ns}\nspec: {clusterQueue: cq}\n---\n" +
		"apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: a, namespace: ns, annotations: {kueueplay/runtime: 2s}}\nspec:\n  queueName: lq\n  podSets: [{name: main, count: 10, template: {spec: {containers: [{name: c, resources: {requests: {cpu: \"100m\"}}}]}}}]\n"
	for i := range 10 {
		slow += fmt.Sprintf("---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: w%d, namespace: ns, annotations: {kueueplay/runtime: 2s}}\n"+
			"spec:\n  queueName: lq\n  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]}}}]\n", i)
	}
	for _, tc := range []struct {
		name   string
		limits api.Limits
		req    request
		status int
		code   string
		limit  int64
		// inMessage must appear in the message.
		inMessage string
	}{
		{"unknown path", api.Limits{}, request{target: "/v1/nothing"}, 404, "not_found", 0, "/v1/nothing"},
		{"validate by GET", api.Limits{}, request{target: "/v1/validate"}, 405, "method_not_allowed", 0, "use POST"},
		{"simulate by GET", api.Limits{}, request{target: "/v1/simulate"}, 405, "method_not_allowed", 0, "use POST"},
		{"render by POST", api.Limits{}, request{method: "POST", target: "/v1/render.svg"}, 405, "method_not_allowed", 0, "use GET"},
		{"share by GET", api.Limits{}, request{target: "/v1/share"}, 405, "method_not_allowed", 0, "use POST"},
		{"body over the limit", api.Limits{MaxBodyBytes: 100}, request{target: "/v1/simulate", body: def}, 413, "body_too_large", 100, "at most 100 bytes"},
		{"validate body over the limit", api.Limits{MaxBodyBytes: 100}, request{target: "/v1/validate", body: def}, 413, "body_too_large", 100, "at most 100 bytes"},
		{"share body over the limit", api.Limits{MaxBodyBytes: 10}, request{target: "/v1/share", body: sharelink.Encode(view.Shared{Scenario: def})}, 413, "body_too_large", 10, "at most 10 bytes"},
		{"default body limit", api.Limits{}, request{target: "/v1/simulate", body: def + strings.Repeat("#", int(api.DefaultLimits.MaxBodyBytes))}, 413, "body_too_large", api.DefaultLimits.MaxBodyBytes, fmt.Sprint(api.DefaultLimits.MaxBodyBytes)},
		{"too many objects", api.Limits{MaxObjects: 20, MaxBodyBytes: 1 << 20}, request{target: "/v1/simulate", body: big(30)}, 422, "object_limit", 20, "at most 20"},
		{"default object limit", api.Limits{}, request{target: "/v1/simulate", body: flavors(api.DefaultLimits.MaxObjects + 1)}, 422, "object_limit", int64(api.DefaultLimits.MaxObjects), fmt.Sprintf("at most %d", api.DefaultLimits.MaxObjects)},
		{"maxCycles above the limit", api.Limits{MaxCycles: 50}, request{target: "/v1/simulate", body: fmt.Sprintf(slow, 51)}, 422, "cycle_limit", 50, "spec.maxCycles is 51"},
		{"does not settle within the limit", api.Limits{MaxCycles: 5}, request{target: "/v1/simulate", body: strings.Replace(fmt.Sprintf(slow, 1), "spec: {maxCycles: 1}", "spec: {}", 1)}, 422, "cycle_limit", 5, "did not settle"},
		{"work budget", api.Limits{MaxWork: 50}, request{target: "/v1/simulate", body: def}, 422, "work_limit", 50, "more work"},
		{"work budget on render", api.Limits{MaxWork: 50}, request{target: "/v1/render.svg?example=default"}, 422, "work_limit", 50, "more work"},
		{"invalid scenario", api.Limits{}, request{target: "/v1/simulate", body: "kind: ClusterQueue\n"}, 422, "invalid_scenario", 0, "error"},
		{"empty scenario", api.Limits{}, request{target: "/v1/simulate", body: " \n"}, 400, "empty_scenario", 0, "no scenario"},
		{"unknown gate", api.Limits{}, request{target: "/v1/simulate?gates=NoSuchGate=true", body: def}, 400, "bad_parameter", 0, "NoSuchGate"},
		{"bad gate value", api.Limits{}, request{target: "/v1/simulate?gates=LendingLimit=maybe", body: def}, 400, "bad_parameter", 0, "maybe"},
		{"unknown setting", api.Limits{}, request{target: "/v1/simulate?settings=colour=red", body: def}, 400, "bad_parameter", 0, "colour"},
		{"settings Kueue would reject", api.Limits{}, request{target: "/v1/simulate?settings=reclaimWithinCohort=Never,borrowWithinCohort=LowerPriority", body: def}, 400, "bad_parameter", 0, "borrowWithinCohort"},
		{"negative from", api.Limits{}, request{target: "/v1/simulate?from=-1", body: def}, 400, "bad_parameter", 0, "from"},
		{"from after to", api.Limits{}, request{target: "/v1/simulate?from=3&to=2", body: def}, 400, "bad_range", 0, "from <= to"},
		{"from past the end", api.Limits{}, request{target: "/v1/simulate?from=500", body: def}, 400, "bad_range", 0, "the run has"},
		{"bad format", api.Limits{}, request{target: "/v1/simulate?format=xml", body: def}, 400, "bad_parameter", 0, "xml"},
		{"bad JSON envelope", api.Limits{}, request{target: "/v1/simulate", body: `{"scenario": 3}`, header: map[string]string{"Content-Type": "application/json"}}, 400, "bad_json", 0, "envelope"},
		{"unknown envelope field", api.Limits{}, request{target: "/v1/simulate", body: `{"yaml": "x"}`, header: map[string]string{"Content-Type": "application/json"}}, 400, "bad_json", 0, "yaml"},
		{"envelope gate unknown", api.Limits{}, request{target: "/v1/simulate", body: `{"scenario": "x", "gates": {"Nope": true}}`, header: map[string]string{"Content-Type": "application/json"}}, 400, "bad_parameter", 0, "Nope"},
		{"render without scenario", api.Limits{}, request{target: "/v1/render.svg"}, 400, "bad_parameter", 0, "no scenario"},
		{"render with both", api.Limits{}, request{target: "/v1/render.svg?example=default&s=v1.x"}, 400, "bad_parameter", 0, "not both"},
		{"render bad fragment", api.Limits{}, request{target: "/v1/render.svg?s=v1.!!!"}, 400, "bad_fragment", 0, "share"},
		{"render future fragment version", api.Limits{}, request{target: "/v1/render.svg?s=v9.abc"}, 400, "bad_fragment", 0, "version"},
		{"render unknown example", api.Limits{}, request{target: "/v1/render.svg?example=no-such-thing"}, 404, "no_such_example", 0, "no-such-thing"},
		{"render bad example name", api.Limits{}, request{target: "/v1/render.svg?example=../etc/passwd"}, 400, "bad_parameter", 0, "not an example name"},
		{"render step past the end", api.Limits{}, request{target: "/v1/render.svg?example=default&step=999"}, 400, "bad_range", 0, "step 999"},
		{"render bad step", api.Limits{}, request{target: "/v1/render.svg?example=default&step=two"}, 400, "bad_parameter", 0, "two"},
		{"render bad theme", api.Limits{}, request{target: "/v1/render.svg?example=default&theme=neon"}, 400, "bad_parameter", 0, "neon"},
		{"render bad width", api.Limits{}, request{target: "/v1/render.svg?example=default&width=5"}, 400, "bad_parameter", 0, "600 to 2000"},
		{"render invalid shared scenario", api.Limits{}, request{target: "/v1/render.svg?s=" + sharelink.Encode(view.Shared{Scenario: "kind: Nope\n"})}, 422, "invalid_scenario", 0, "error"},
		{"share garbage", api.Limits{}, request{target: "/v1/share", body: "hello"}, 400, "bad_fragment", 0, "v1."},
		{"share a bad gate", api.Limits{}, request{target: "/v1/share", body: sharelink.Encode(view.Shared{Scenario: def, Gates: map[string]bool{"Nope": true}})}, 400, "bad_fragment", 0, "Nope"},
		{"unknown short link", api.Limits{}, request{target: "/s/AAAAAAAAAAAAAAAA"}, 404, "no_such_link", 0, "AAAAAAAAAAAAAAAA"},
		{"malformed short link", api.Limits{}, request{target: "/s/../../etc"}, 404, "no_such_link", 0, "16 characters"},
		{"unknown short link as JSON", api.Limits{}, request{target: "/v1/share/AAAAAAAAAAAAAAAA"}, 404, "no_such_link", 0, "no short link"},
		{"unknown example", api.Limits{}, request{target: "/v1/examples/no-such-thing"}, 404, "no_such_example", 0, "no-such-thing"},
		{"example name with a slash", api.Limits{}, request{target: "/v1/examples/a/b"}, 404, "no_such_example", 0, "not an example name"},
		{"example bad format", api.Limits{}, request{target: "/v1/examples/default?format=toml"}, 400, "bad_parameter", 0, "toml"},
		{"validate bad file name", api.Limits{}, request{target: "/v1/validate?file=a%0Ab", body: def}, 400, "bad_parameter", 0, "printable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := tc.req.do(t, newHandler(tc.limits))
			if rec.Code != tc.status {
				t.Errorf("status %d, want %d; body %s", rec.Code, tc.status, rec.Body.String())
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			got := decodeJSON[errorBody](t, rec)
			if got.Error.Code != tc.code || got.Error.Status != tc.status || got.Error.Limit != tc.limit {
				t.Errorf("error = %+v, want status %d, code %q, limit %d", got.Error, tc.status, tc.code, tc.limit)
			}
			if !strings.Contains(got.Error.Message, tc.inMessage) {
				t.Errorf("message %q does not mention %q", got.Error.Message, tc.inMessage)
			}
			if tc.code == "invalid_scenario" && len(got.Error.Diagnostics) == 0 {
				t.Error("invalid_scenario without diagnostics")
			}
		})
	}
	t.Run("no store", func(t *testing.T) {
		h := api.New(api.Config{Examples: kueueplay.Examples()})
		for _, rq := range []request{
			{target: "/v1/share", body: sharelink.Encode(view.Shared{Scenario: def})},
			{target: "/s/AAAAAAAAAAAAAAAA"},
		} {
			rec := rq.do(t, h)
			if got := decodeJSON[errorBody](t, rec); rec.Code != 501 || got.Error.Code != "no_share_store" {
				t.Errorf("%s: status %d, error %+v; want 501 no_share_store", rq.target, rec.Code, got.Error)
			}
		}
	})
}

func TestValidate(t *testing.T) {
	h := newHandler(api.Limits{})
	for _, tc := range []struct {
		name  string
		req   request
		valid bool
		// want are the diagnostics expected, by "line:col field: message
		// start".
		want []string
	}{
		{"valid", request{target: "/v1/validate", body: example(t, "default")}, true, nil},
		{"unknown field", request{target: "/v1/validate?file=cq.yaml", body: "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: q}\nspec:\n  nominalQouta: 3\n"}, false,
			[]string{"cq.yaml 5:3 spec.nominalQouta"}},
		{"bad quantity", request{target: "/v1/validate", body: "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: q}\nspec:\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors: [{name: f, resources: [{name: cpu, nominalQuota: lots}]}]\n"}, false,
			[]string{"scenario.yaml 8:63 spec.resourceGroups[0].flavors[0].resources[0].nominalQuota"}},
		{"syntax error", request{target: "/v1/validate", body: "kind: [\n"}, false, []string{"scenario.yaml 2:1 "}},
		{"too big for the API is a warning", request{target: "/v1/validate", body: example(t, "default")}, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := tc.req.do(t, h)
			if rec.Code != 200 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
			}
			if got := rec.Header().Get("Access-Control-Allow-Origin"); got != "*" {
				t.Errorf("Access-Control-Allow-Origin %q, want *", got)
			}
			got := decodeJSON[struct {
				Valid       bool              `json:"valid"`
				Diagnostics []core.Diagnostic `json:"diagnostics"`
			}](t, rec)
			if got.Valid != tc.valid {
				t.Errorf("valid = %v, want %v (%+v)", got.Valid, tc.valid, got.Diagnostics)
			}
			for _, w := range tc.want {
				found := false
				for _, d := range got.Diagnostics {
					s := fmt.Sprintf("%s %d:%d %s", d.Pos.File, d.Pos.Line, d.Pos.Col, d.Field)
					if strings.HasPrefix(s, w) && d.Message != "" {
						found = true
					}
				}
				if !found {
					t.Errorf("no diagnostic %q in %+v", w, got.Diagnostics)
				}
			}
		})
	}
	t.Run("object limit is a warning", func(t *testing.T) {
		rec := request{target: "/v1/validate", body: example(t, "default")}.do(t, newHandler(api.Limits{MaxObjects: 2}))
		got := decodeJSON[struct {
			Valid       bool              `json:"valid"`
			Diagnostics []core.Diagnostic `json:"diagnostics"`
		}](t, rec)
		if !got.Valid || len(got.Diagnostics) != 1 || !strings.Contains(got.Diagnostics[0].Message, "at most 2") {
			t.Errorf("got %+v, want valid with one warning naming the limit", got)
		}
	})
}

func TestSimulate(t *testing.T) {
	h := newHandler(api.PaidLimits)
	def := example(t, "default")
	full := wantTrace(t, "scenario.yaml", def, nil)
	gated := wantTrace(t, "scenario.yaml", example(t, "kep4378-claims-gate-off"), core.FeatureGates{core.GateRefreshAssignmentsDuringSchedulingCycle: true})
	// A range's first step carries the whole state at that step; the
	// others stay as the trace keeps them.
	sliced := *full
	sliced.Steps = slices.Clone(full.Steps[2:5])
	sliced.Steps[0].Full = true
	sliced.Steps[0].Usage, sliced.Steps[0].Queues = full.StateAt(2)
	sliced.Steps[0].UsageChanges, sliced.Steps[0].QueueChanges = nil, nil
	if full.Steps[2].Full || full.Steps[3].Full {
		t.Fatal("steps 2 and 3 of the default example are full: the range test no longer checks that a range's first step is made full")
	}
	envelope, _ := json.Marshal(map[string]any{"scenario": example(t, "kep4378-claims-gate-off"),
		"gates": map[string]bool{core.GateRefreshAssignmentsDuringSchedulingCycle: true}})
	for _, tc := range []struct {
		name string
		req  request
		want simulateBody
	}{
		{"whole run", request{target: "/v1/simulate", body: def}, simulateBody{Warnings: []core.Diagnostic{}, From: 0, To: len(full.Steps) - 1, Total: len(full.Steps), Trace: full}},
		{"step range", request{target: "/v1/simulate?from=2&to=4", body: def}, simulateBody{Warnings: []core.Diagnostic{}, From: 2, To: 4, Total: len(full.Steps), Trace: &sliced}},
		{"to past the end is clamped", request{target: "/v1/simulate?to=900", body: def}, simulateBody{Warnings: []core.Diagnostic{}, From: 0, To: len(full.Steps) - 1, Total: len(full.Steps), Trace: full}},
		{"gates as a parameter", request{target: "/v1/simulate?gates=RefreshAssignmentsDuringSchedulingCycle=true", body: example(t, "kep4378-claims-gate-off")},
			simulateBody{Warnings: []core.Diagnostic{}, To: len(gated.Steps) - 1, Total: len(gated.Steps), Trace: gated}},
		{"JSON envelope", request{target: "/v1/simulate", body: string(envelope), header: map[string]string{"Content-Type": "application/json; charset=utf-8"}},
			simulateBody{Warnings: []core.Diagnostic{}, To: len(gated.Steps) - 1, Total: len(gated.Steps), Trace: gated}},
		{"a gate the engine does not simulate is a warning", request{target: "/v1/simulate?gates=PartialAdmission=true,TopologyAwareScheduling=false", body: def},
			simulateBody{Warnings: []core.Diagnostic{{Severity: core.SeverityWarning, Field: "gates[PartialAdmission]",
				Message: "feature gate PartialAdmission=true is not simulated: the playground runs as Kueue does with it off (admits a pod set with fewer pods (minCount))"}},
				To: len(full.Steps) - 1, Total: len(full.Steps), Trace: full}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := tc.req.do(t, h)
			if rec.Code != 200 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
			}
			if got := rec.Header().Get("Access-Control-Allow-Origin"); got != "*" {
				t.Errorf("Access-Control-Allow-Origin %q, want *", got)
			}
			got := decodeJSON[simulateBody](t, rec)
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("response (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("text", func(t *testing.T) {
		rec := request{target: "/v1/simulate?format=text", body: def}.do(t, h)
		var want bytes.Buffer
		if err := trace.Format(&want, full); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.String(), rec.Body.String()); diff != "" {
			t.Errorf("text trace (-want +got):\n%s", diff)
		}
	})
	t.Run("a range of a placement run starts with every node", func(t *testing.T) {
		text := example(t, "placement-seed-static-then-spot")
		all := wantTrace(t, "scenario.yaml", text, nil)
		rec := request{target: "/v1/simulate?from=3", body: text}.do(t, h)
		got := decodeJSON[simulateBody](t, rec)
		if len(got.Trace.Steps) == 0 {
			t.Fatalf("no steps: %s", rec.Body.String())
		}
		// The view of the sliced trace's first step shows the nodes as the
		// full trace's step 3 does.
		want, sliced := view.Build(all, 3).Cluster, view.Build(got.Trace, 0).Cluster
		// (A first step marks no node as changed.)
		if diff := cmp.Diff(want.Policies, sliced.Policies, cmpopts.IgnoreFields(view.NodeView{}, "Changed")); diff != "" {
			t.Errorf("nodes at step 3 (-full +sliced):\n%s", diff)
		}
		if len(got.Trace.Steps[0].Nodes) != len(all.Steps[0].Nodes) {
			t.Errorf("first step has %d node rows, want all %d", len(got.Trace.Steps[0].Nodes), len(all.Steps[0].Nodes))
		}
	})
	t.Run("explicit maxCycles within the limit truncates", func(t *testing.T) {
		text := strings.Replace(def, "spec:\n", "spec:\n  maxCycles: 1\n", 1)
		if text == def {
			t.Fatal("the default scenario has no spec: line to extend")
		}
		rec := request{target: "/v1/simulate", body: text}.do(t, h)
		got := decodeJSON[simulateBody](t, rec)
		if rec.Code != 200 || got.Trace.End != "maxCycles" {
			t.Errorf("status %d, end %q; want 200 and a trace truncated at maxCycles", rec.Code, got.Trace.End)
		}
	})
}

// TestExamplesWithinLimits: every gallery example runs through the API
// with the paid profile (what `kueueplay serve` uses by default), and the
// API's trace is the engine's, byte for byte. The free profile serves the
// default example the same way and refuses the larger ones by a limit
// (413 or 422 with a limit's code), never otherwise.
func TestExamplesWithinLimits(t *testing.T) {
	files, err := fs.Glob(kueueplay.Examples(), "*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, p := range profiles {
		h := newHandler(p.limits)
		t.Run(p.name, func(t *testing.T) {
			served := 0
			for _, f := range files {
				t.Run(f, func(t *testing.T) {
					if exampleWithin(t, h, p.name == "free" && f != "default.yaml", f) {
						served++
					}
				})
			}
			t.Logf("%s profile: %d of %d examples served", p.name, served, len(files))
		})
	}
}

// exampleWithin simulates a gallery example through h and reports whether
// it was served; refusals fail the test unless mayRefuse, and then they
// must be a limit's.
func exampleWithin(t *testing.T, h *api.Handler, mayRefuse bool, f string) bool {
	text := example(t, strings.TrimSuffix(f, ".yaml"))
	rec := request{target: "/v1/simulate", body: text}.do(t, h)
	if rec.Code != 200 && mayRefuse {
		if e := decodeJSON[errorBody](t, rec); !limitCodes[e.Error.Code] || e.Error.Status != rec.Code {
			t.Errorf("refused otherwise than by a limit: %d %s", rec.Code, rec.Body.String())
		}
		return false
	}
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	want, err := json.Marshal(wantTrace(t, "scenario.yaml", text, nil))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Trace json.RawMessage `json:"trace"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, got.Trace) {
		t.Errorf("the API's trace differs from sim.Run's")
	}
	return true
}

func TestRender(t *testing.T) {
	h := newHandler(api.PaidLimits)
	def := example(t, "default")
	tr := wantTrace(t, "default.yaml", def, nil)
	want := view.SVG(view.Build(tr, 3), view.SVGOptions{Heading: "default", Theme: "dark"}).String()
	frag := sharelink.Encode(view.Shared{Scenario: def, Step: 3})
	for _, tc := range []struct {
		name, target string
		// want is the exact SVG, or "" to only check its shape.
		want string
	}{
		{"example", "/v1/render.svg?example=default&step=3&theme=dark", want},
		{"example with .yaml", "/v1/render.svg?example=default.yaml&step=3&theme=dark", want},
		{"fragment carries the step", "/v1/render.svg?s=" + frag + "&theme=dark", want},
		{"step overrides the fragment's", "/v1/render.svg?s=" + sharelink.Encode(view.Shared{Scenario: def, Step: 1}) + "&step=3&theme=dark", want},
		{"fragment naming an example", "/v1/render.svg?s=" + sharelink.Encode(view.Shared{Example: "default", Step: 3}) + "&theme=dark", want},
		{"gates and settings", "/v1/render.svg?s=" + sharelink.Encode(view.Shared{Example: "kep4378-claims-gate-off", Step: 4,
			Gates: map[string]bool{core.GateRefreshAssignmentsDuringSchedulingCycle: true}}), ""},
		{"width", "/v1/render.svg?example=default&width=1200", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := request{target: tc.target}.do(t, h)
			if rec.Code != 200 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
			}
			if ct := rec.Header().Get("Content-Type"); ct != "image/svg+xml" {
				t.Errorf("Content-Type %q", ct)
			}
			if got := rec.Header().Get("Access-Control-Allow-Origin"); got != "*" {
				t.Errorf("Access-Control-Allow-Origin %q, want *", got)
			}
			body := rec.Body.String()
			if tc.want != "" {
				if diff := cmp.Diff(tc.want, body); diff != "" {
					t.Errorf("SVG (-want +got):\n%s", diff)
				}
			}
			if !strings.HasPrefix(body, "<svg") || strings.Contains(body, "<script") || strings.Contains(body, "href=\"http") {
				t.Errorf("not a self-contained SVG: %.200s", body)
			}
		})
	}
	t.Run("gates change the picture", func(t *testing.T) {
		off := request{target: "/v1/render.svg?example=kep4378-claims-gate-off&step=4"}.do(t, h).Body.String()
		gated := request{target: "/v1/render.svg?s=" + sharelink.Encode(view.Shared{Example: "kep4378-claims-gate-off", Step: 4,
			Gates: map[string]bool{core.GateRefreshAssignmentsDuringSchedulingCycle: true}})}.do(t, h).Body.String()
		if off == gated {
			t.Error("the gate in the fragment did not change the step's picture")
		}
	})
}

func TestShare(t *testing.T) {
	store := &api.MemStore{}
	h := api.New(api.Config{Examples: kueueplay.Examples(), Store: store})
	sh := view.Shared{Scenario: example(t, "default"), Step: 4, Gates: map[string]bool{core.GateLendingLimit: false}}
	frag := sharelink.Encode(sh)
	type shareBody struct {
		ID       string       `json:"id"`
		URL      string       `json:"url"`
		Fragment string       `json:"fragment"`
		Shared   *view.Shared `json:"shared"`
	}
	first := request{target: "/v1/share", body: frag}.do(t, h)
	if first.Code != 201 {
		t.Fatalf("first share: status %d: %s", first.Code, first.Body.String())
	}
	created := decodeJSON[shareBody](t, first)
	if len(created.ID) != 16 || created.URL != "http://example.com/s/"+created.ID || created.Fragment != frag {
		t.Errorf("share = %+v", created)
	}
	if first.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Error("share allows other origins")
	}
	// The same state again, even written as a whole link: same id, 200.
	again := request{target: "/v1/share", body: "https://play.example/#" + frag + "\n"}.do(t, h)
	if again.Code != 200 || decodeJSON[shareBody](t, again).ID != created.ID {
		t.Errorf("sharing again: status %d, %s; want 200 and id %s", again.Code, again.Body.String(), created.ID)
	}
	// Another state: another id.
	other := request{target: "/v1/share", body: sharelink.Encode(view.Shared{Scenario: sh.Scenario, Step: 5})}.do(t, h)
	if decodeJSON[shareBody](t, other).ID == created.ID {
		t.Error("two states got one id")
	}
	// A stored id is never overwritten, even if someone tries.
	store.Put(t.Context(), created.ID, []byte(frag))
	got := request{target: "/v1/share/" + created.ID}.do(t, h)
	if got.Code != 200 {
		t.Fatalf("GET /v1/share/id: %d %s", got.Code, got.Body.String())
	}
	if diff := cmp.Diff(shareBody{ID: created.ID, URL: created.URL, Fragment: frag, Shared: &sh}, decodeJSON[shareBody](t, got)); diff != "" {
		t.Errorf("stored link (-want +got):\n%s", diff)
	}
	for _, tc := range []struct{ target, location string }{
		{"/s/" + created.ID, "../#" + frag},
		{"/s/" + created.ID + "?embed=1", "../?embed=1#" + frag},
	} {
		rec := request{target: tc.target}.do(t, h)
		if rec.Code != http.StatusFound || rec.Header().Get("Location") != tc.location {
			t.Errorf("%s: status %d, Location %q; want 302 to %q", tc.target, rec.Code, rec.Header().Get("Location"), tc.location)
		}
		if !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
			t.Errorf("%s: Cache-Control %q, want immutable", tc.target, rec.Header().Get("Cache-Control"))
		}
	}
}

func TestDirStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shares")
	frag := sharelink.Encode(view.Shared{Example: "default", Step: 2})
	rec := request{target: "/v1/share", body: frag}.do(t, api.New(api.Config{Store: api.DirStore{Dir: dir}}))
	if rec.Code != 201 {
		t.Fatalf("share: %d %s", rec.Code, rec.Body.String())
	}
	id := decodeJSON[struct {
		ID string `json:"id"`
	}](t, rec).ID
	data, err := os.ReadFile(filepath.Join(dir, id))
	if err != nil || string(data) != frag {
		t.Fatalf("the file holds %q (%v), want the fragment", data, err)
	}
	// A new server over the same directory (a restart) serves the link.
	rec = request{target: "/s/" + id}.do(t, api.New(api.Config{Store: api.DirStore{Dir: dir}}))
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != "../#"+frag {
		t.Errorf("after restart: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the store, want 1 (no temporary file left)", len(entries))
	}
}

func TestExamples(t *testing.T) {
	h := newHandler(api.Limits{})
	rec := request{target: "/v1/examples"}.do(t, h)
	var idx struct {
		Examples []struct {
			File, Name, Group, Description string
		} `json:"examples"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &idx); err != nil || rec.Code != 200 {
		t.Fatalf("index: %d %v", rec.Code, err)
	}
	files, _ := fs.Glob(kueueplay.Examples(), "*.yaml")
	if len(idx.Examples) != len(files) || idx.Examples[0].File != "default.yaml" || idx.Examples[0].Group == "" {
		t.Errorf("%d entries for %d files; first %+v", len(idx.Examples), len(files), idx.Examples[0])
	}
	def := example(t, "default")
	for _, target := range []string{"/v1/examples/default", "/v1/examples/default.yaml"} {
		rec := request{target: target}.do(t, h)
		got := decodeJSON[struct {
			File, Name, Group, Description string
			YAML                           string `json:"yaml"`
		}](t, rec)
		if got.File != "default.yaml" || got.Name != "default" || got.YAML != def || got.Group != idx.Examples[0].Group {
			t.Errorf("%s = %+v", target, got)
		}
	}
	raw := request{target: "/v1/examples/default?format=yaml"}.do(t, h)
	if raw.Body.String() != def || !strings.HasPrefix(raw.Header().Get("Content-Type"), "application/yaml") {
		t.Errorf("format=yaml: %q, %.80q", raw.Header().Get("Content-Type"), raw.Body.String())
	}
}

// TestCORS: any origin may call validate, simulate and render.svg
// (preflight included), and nothing else.
func TestCORS(t *testing.T) {
	h := newHandler(api.Limits{})
	for _, tc := range []struct {
		path string
		open bool
	}{
		{"/v1/validate", true},
		{"/v1/simulate", true},
		{"/v1/render.svg", true},
		{"/v1/share", false},
		{"/v1/share/AAAAAAAAAAAAAAAA", false},
		{"/s/AAAAAAAAAAAAAAAA", false},
		{"/v1/examples", false},
		{"/v1/examples/default", false},
	} {
		t.Run(tc.path, func(t *testing.T) {
			rec := request{method: http.MethodOptions, target: tc.path, header: map[string]string{
				"Origin": "https://docs.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}}.do(t, h)
			allow := rec.Header().Get("Access-Control-Allow-Origin")
			if tc.open {
				if rec.Code != http.StatusNoContent || allow != "*" || !strings.Contains(rec.Header().Get("Access-Control-Allow-Headers"), "Content-Type") {
					t.Errorf("preflight: %d, allow-origin %q, headers %v", rec.Code, allow, rec.Header())
				}
			} else if allow != "" || rec.Code < 400 {
				t.Errorf("preflight: %d, allow-origin %q; want a refusal without CORS headers", rec.Code, allow)
			}
			get := request{target: tc.path, header: map[string]string{"Origin": "https://docs.example"}}.do(t, h)
			if got := get.Header().Get("Access-Control-Allow-Origin"); (got == "*") != tc.open {
				t.Errorf("GET: Access-Control-Allow-Origin %q", got)
			}
		})
	}
}
