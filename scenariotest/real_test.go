package scenariotest_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
)

// realInvalid lists the corpus files that are genuinely invalid for Kueue
// v0.16.1, each with a substring of the error the playground gives and
// Kueue's own reason. A listed file that decodes fails the test, so the
// list cannot go stale.
func realInvalid() map[string]struct{ err, why string } {
	return map[string]struct{ err, why string }{}
}

// queuedKinds are the apiVersion and kind of every job kind Kueue v0.16.1
// queues (pkg/controller/jobs), which the playground must turn into
// workloads rather than leave out.
func queuedKinds() []string {
	return []string{
		"batch/v1 Job", "jobset.x-k8s.io/v1alpha2 JobSet", "ray.io/v1 RayJob", "ray.io/v1 RayCluster",
		"kubeflow.org/v1 PyTorchJob", "kubeflow.org/v1 TFJob", "kubeflow.org/v1 XGBoostJob",
		"kubeflow.org/v1 PaddleJob", "kubeflow.org/v1 JAXJob", "kubeflow.org/v2beta1 MPIJob",
		"trainer.kubeflow.org/v1alpha1 TrainJob", "workload.codeflare.dev/v1beta2 AppWrapper",
		"leaderworkerset.x-k8s.io/v1 LeaderWorkerSet", "apps/v1 StatefulSet", "apps/v1 Deployment", "v1 Pod",
	}
}

// TestRealCorpus decodes every file under testdata/real (issue 19): what
// Kueue's own examples and kubectl dumps contain must decode, with warnings
// for what is not simulated, and run to the end.
func TestRealCorpus(t *testing.T) {
	const root = "../testdata/real"
	invalid := realInvalid()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(path); ext != ".yaml" && ext != ".json" {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := scenario.Decode(rel, data)
			bad, listed := invalid[rel]
			seen[rel] = true
			var de *core.DiagnosticsError
			switch {
			case err != nil && !errors.As(err, &de):
				t.Fatalf("Decode: %v", err)
			case err != nil && !listed:
				t.Fatalf("Decode failed:\n%v", err)
			case err != nil:
				if !strings.Contains(err.Error(), bad.err) {
					t.Fatalf("Decode failed, but not with %q (Kueue: %s):\n%v", bad.err, bad.why, err)
				}
				return
			case listed:
				t.Fatalf("listed as invalid (%s) but decodes", bad.why)
			}
			for _, w := range sc.Warnings {
				for _, k := range queuedKinds() {
					if strings.HasPrefix(w.Message, k+" is not simulated") {
						t.Errorf("%s: a kind Kueue queues is left out", w)
					}
				}
			}
			if tr := sim.Run(sc, sim.Options{}); tr.End == "" {
				t.Errorf("the run has no end reason")
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for f := range invalid {
		if !seen[f] {
			t.Errorf("realInvalid lists %s, which is not in the corpus", f)
		}
	}
}
