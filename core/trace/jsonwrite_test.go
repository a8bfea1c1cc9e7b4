package trace_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
)

func TestWriteJSON(t *testing.T) {
	full := &trace.Trace{
		Version: trace.Version, Scenario: "s <&>", Description: "d",
		Gates:         []trace.Gate{{Name: "A", Enabled: true}},
		Configuration: &trace.Configuration{Source: "Configuration"},
		Steps: []trace.Step{
			{Index: 0, Kind: trace.StepInitial, Full: true, Queues: []trace.QueueState{{ClusterQueue: "cq", Active: true}}},
			{Index: 1, Kind: trace.StepCycle, Cycle: 1, Events: []trace.Event{{Kind: trace.EventArrival, Workload: "ns/w", Message: "a \"quoted\" <message>"}}},
		},
		End: "quiescent", EndMs: 100, Cycles: 1,
		Workloads: []trace.WorkloadState{{Workload: "ns/w", Status: "pending"}},
		Warnings:  []core.Diagnostic{{Message: "w"}},
	}
	for name, tr := range map[string]*trace.Trace{
		"everything set":   full,
		"nothing optional": {Version: trace.Version},
		"no steps":         {Version: trace.Version, Steps: []trace.Step{}},
	} {
		t.Run(name, func(t *testing.T) {
			var want, got bytes.Buffer
			if err := json.NewEncoder(&want).Encode(tr); err != nil {
				t.Fatal(err)
			}
			if err := trace.WriteJSON(&got, tr); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want.String(), got.String()); d != "" {
				t.Errorf("WriteJSON differs from encoding/json (-want +got):\n%s", d)
			}
		})
	}
}

// TestWriteJSONFields: WriteJSON's halves name every field of Trace but
// Steps, in Trace's order, with Trace's tags.
func TestWriteJSONFields(t *testing.T) {
	var want []string
	typ := reflect.TypeOf(trace.Trace{})
	for i := range typ.NumField() {
		f := typ.Field(i)
		want = append(want, f.Name+" "+f.Type.String()+" "+string(f.Tag))
	}
	got := append(append(trace.JSONHeadFields(), "Steps []trace.Step json:\"steps\""), trace.JSONTailFields()...)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("WriteJSON's fields (-Trace +WriteJSON):\n%s", d)
	}
}
