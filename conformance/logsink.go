package conformance

import (
	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
	"sigs.k8s.io/kueue/pkg/scheduler/flavorassigner"
)

// assignmentSink is the logr sink Kueue's scheduler logs to in the
// harness. Kueue reports each head's flavor assignment only in its logs
// (logAdmissionAttemptIfVerbose, at verbosity 4); the sink keeps, per
// workload, which of its pod sets could not be placed in any flavor, and
// passes everything on to KueueLogger.
type assignmentSink struct {
	next   logr.LogSink
	failed map[string]map[string]bool
	values []any
}

func (s *assignmentSink) Init(info logr.RuntimeInfo) {}

func (s *assignmentSink) Enabled(level int) bool { return level <= 4 || s.next.Enabled(level) }

func (s *assignmentSink) Info(level int, msg string, kv ...any) {
	if msg == "Workload evaluated for admission" {
		s.record(append(append([]any{}, s.values...), kv...))
	}
	if s.next.Enabled(level) {
		s.next.Info(level, msg, kv...)
	}
}

func (s *assignmentSink) record(kv []any) {
	var key string
	var a *flavorassigner.Assignment
	for i := 0; i+1 < len(kv); i += 2 {
		switch kv[i] {
		case "workload":
			if ref, ok := kv[i+1].(klog.ObjectRef); ok {
				key = ref.Namespace + "/" + ref.Name
			}
		case "nominatedAssignment":
			if v, ok := kv[i+1].(flavorassigner.Assignment); ok {
				a = &v
			}
		}
	}
	if key == "" || a == nil {
		return
	}
	failed := map[string]bool{}
	for i := range a.PodSets {
		if a.PodSets[i].RepresentativeMode() == flavorassigner.NoFit {
			failed[string(a.PodSets[i].Name)] = true
		}
	}
	s.failed[key] = failed
}

func (s *assignmentSink) Error(err error, msg string, kv ...any) { s.next.Error(err, msg, kv...) }

func (s *assignmentSink) WithValues(kv ...any) logr.LogSink {
	c := *s
	c.values = append(append([]any{}, s.values...), kv...)
	c.next = s.next.WithValues(kv...)
	return &c
}

func (s *assignmentSink) WithName(name string) logr.LogSink {
	c := *s
	c.next = s.next.WithName(name)
	return &c
}
