package engine_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/ui/engine"
	"github.com/kueueplay/kueueplay/ui/view"
)

// stripped is o with every lane's spans and every series' values nil, as
// the series are sent: what encoding/json would have written.
func stripped(o view.Overview) view.Overview {
	lanes := make([]view.Lane, len(o.Timeline.Lanes))
	for i, l := range o.Timeline.Lanes {
		l.Spans = nil
		lanes[i] = l
	}
	if o.Timeline.Lanes != nil {
		o.Timeline.Lanes = lanes
	}
	cut := func(c view.Chart) view.Chart {
		if c.Series == nil {
			return c
		}
		ss := make([]view.Series, len(c.Series))
		for i, sr := range c.Series {
			sr.Values = nil
			ss[i] = sr
		}
		c.Series = ss
		return c
	}
	if o.Usage != nil {
		usage := make([]view.UsageChart, len(o.Usage))
		for i, u := range o.Usage {
			u.Chart = cut(u.Chart)
			usage[i] = u
		}
		o.Usage = usage
	}
	o.Pending = cut(o.Pending)
	return o
}

// TestOverviewJSON: the hand-written series JSON is byte for byte
// encoding/json's output for the same Overview without spans and values,
// for every gallery example in testdata and for strings and shapes the
// examples lack (escapes, invalid UTF-8, nil and empty slices, the
// omitempty fields).
func TestOverviewJSON(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "scenarios", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	check := func(t *testing.T, o *view.Overview) {
		t.Helper()
		want, err := json.Marshal(stripped(*o))
		if err != nil {
			t.Fatal(err)
		}
		got := engine.AppendOverviewJSON([]byte("x"), o)
		if diff := cmp.Diff("x"+string(want), string(got)); diff != "" {
			t.Errorf("series JSON (-want +got):\n%s", diff)
		}
	}
	lanes, preemptions, parents := 0, 0, 0
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			_, trs := run(t, name, view.Variant{})
			o := view.New(trs[0]).Overview()
			lanes += len(o.Timeline.Lanes)
			preemptions += len(o.Timeline.Preemptions)
			for _, u := range o.Usage {
				if u.Parent != "" {
					parents++
				}
			}
			check(t, o)
		})
	}
	if lanes == 0 || preemptions == 0 || parents == 0 {
		t.Errorf("the examples gave %d lanes, %d preemptions, %d charts with a parent: the comparison misses a field", lanes, preemptions, parents)
	}
	hostile := `a"b\c` + "\n\t\r\b\f\x01\x7f<script>&amp;\u2028\u2029\xff\xfe é 日本 \U0001F600"
	tests := []struct {
		name string
		o    view.Overview
	}{
		{name: "zero"},
		{name: "empty slices", o: view.Overview{TimesMs: []int64{}, Usage: []view.UsageChart{},
			Pending:  view.Chart{XMs: []int64{}, Steps: []int{}, Series: []view.Series{{Values: []int64{}, Gaps: []int{}}}},
			Timeline: view.WorkloadTimeline{Lanes: []view.Lane{}, Preemptions: []view.PreemptionMark{}}}},
		{name: "hostile strings", o: view.Overview{Steps: 3, EndMs: -5, TimesMs: []int64{-1, 0, 1 << 60},
			Usage: []view.UsageChart{{Chart: view.Chart{ID: hostile, Title: hostile, Unit: hostile, Divisor: -7, XMs: []int64{1}, Steps: []int{-2},
				Series: []view.Series{{Label: hostile, Kind: hostile, Flavor: hostile, Values: []int64{9}, Gaps: []int{0, 3}}}},
				Kind: hostile, Node: hostile, Parent: hostile, Depth: 2, Resource: hostile}},
			Timeline: view.WorkloadTimeline{
				Lanes:       []view.Lane{{Workload: hostile, ClusterQueue: hostile, Priority: -2147483648, Spans: []view.Span{{Kind: view.SpanAdmitted, FromMs: 1, ToMs: 2}}}},
				Preemptions: []view.PreemptionMark{{Step: 1, TimeMs: 2, Victim: 0, Preemptor: -1, PreemptorName: hostile}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, &tt.o)
			if !json.Valid(engine.AppendOverviewJSON(nil, &tt.o)) {
				t.Error("not valid JSON")
			}
		})
	}
	if !strings.Contains(string(engine.AppendOverviewJSON(nil, &tests[2].o)), `\ufffd`) {
		t.Error("the hostile case has no invalid UTF-8 left to check")
	}
}
