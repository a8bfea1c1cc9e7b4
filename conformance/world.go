package conformance

import (
	"cmp"
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	testingclock "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/event"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	corectrl "sigs.k8s.io/kueue/pkg/controller/core"
	"sigs.k8s.io/kueue/pkg/controller/jobframework"
	"sigs.k8s.io/kueue/pkg/scheduler"
	"sigs.k8s.io/kueue/pkg/util/routine"
	utiltesting "sigs.k8s.io/kueue/pkg/util/testing"
	"sigs.k8s.io/kueue/pkg/workload"

	"github.com/kueueplay/kueueplay/core"
)

// KueueLogger receives Kueue's own logs (discarded by default; the
// conform command's -kueue-log flag prints them).
var KueueLogger = logr.Discard()

// world is Kueue v0.16.1 itself, without an API server: its scheduler
// cache, queue manager and scheduler over controller-runtime's fake client
// (set up as Kueue's own scheduler tests do), its workload controller's
// event handlers and Reconcile, and the part of the job controllers and of
// the kubelet the scenario describes (finishes, deletions and the end of
// a termination), played by the harness between cycles.
type world struct {
	ctx    context.Context
	cl     client.Client
	cache  *schdcache.Cache
	queues *qcache.Manager
	sched  *scheduler.Scheduler
	wlRec  *corectrl.WorkloadReconciler
	clock  *testingclock.FakeClock
	// admissions are the admission status patches Kueue's scheduler
	// started in the current cycle, run once its schedule call returns.
	admissions *deferredRoutines
	// schedClient times the scheduler's calls to the API client.
	schedClient *clientClock
	// timing is where Kueue's scheduler spent its time so far.
	timing KueueTiming
	// noGCInCycle: see runOptions.
	noGCInCycle bool
	// seen is the informer's view: the last version of every workload the
	// controller has been told about, by key.
	seen map[types.NamespacedName]*kueue.Workload
	// written are the workloads written through the client since the
	// last sync: the only ones whose version can have moved.
	written *writeLog
	// touched are the workloads sync passed to the controller since the
	// comparison last looked (compare takes them).
	touched map[types.NamespacedName]struct{}
	// index is each scenario workload's index in sc.Workloads, by key.
	index map[string]int
	// cycles counts the cycles Kueue ran.
	cycles int
}

// newWorld creates the cluster a scenario describes: namespaces, flavors,
// cohorts, ClusterQueues, LocalQueues and the workloads that start
// admitted, in the order Kueue's controllers would have ingested them at
// start-up.
func newWorld(sc *core.Scenario, seqs []int) (*world, error) {
	ctx := ctrl.LoggerInto(context.Background(), KueueLogger)
	clk := testingclock.NewFakeClock(realTime(0))
	var objs []client.Object
	for _, ns := range namespaces(sc) {
		objs = append(objs, ns)
	}
	for i := range sc.Flavors {
		objs = append(objs, flavorObject(&sc.Flavors[i]))
	}
	for i := range sc.Cohorts {
		objs = append(objs, cohortObject(&sc.Cohorts[i]))
	}
	for i := range sc.ClusterQueues {
		objs = append(objs, clusterQueueObject(&sc.ClusterQueues[i]))
	}
	for i := range sc.LocalQueues {
		objs = append(objs, localQueueObject(&sc.LocalQueues[i]))
	}
	seen := map[types.NamespacedName]*kueue.Workload{}
	admitSeq := 0
	for i := range sc.Workloads {
		w := &sc.Workloads[i]
		if w.Admission == nil {
			continue
		}
		wl := workloadObject(w, seqs[i], len(sc.Workloads))
		reservedAt, err := reservationTime(w, &admitSeq)
		if err != nil {
			return nil, err
		}
		if err := admitWorkloadObject(wl, w, reservedAt); err != nil {
			return nil, err
		}
		objs = append(objs, wl)
	}
	written := &writeLog{keys: map[types.NamespacedName]struct{}{}}
	cl := recordWrites(newClientBuilder().
		WithObjects(objs...).
		WithStatusSubresource(&kueue.Workload{}).
		WithInterceptorFuncs(interceptor.Funcs{SubResourcePatch: utiltesting.TreatSSAAsStrategicMerge}).
		Build(), written)
	// The workloads that start admitted as the informer first lists them.
	var list kueue.WorkloadList
	if err := cl.List(ctx, &list); err != nil {
		return nil, err
	}
	for i := range list.Items {
		seen[client.ObjectKeyFromObject(&list.Items[i])] = list.Items[i].DeepCopy()
	}

	cache := schdcache.New(cl)
	queues := qcache.NewManager(cl, cache, qcache.WithClock(clk))
	for i := range sc.Flavors {
		cache.AddOrUpdateResourceFlavor(logr.Discard(), flavorObject(&sc.Flavors[i]))
	}
	// Topologies reach the cache as Kueue's Topology controller adds them;
	// a flavor naming a missing one keeps its ClusterQueues inactive.
	for i := range sc.Topologies {
		cache.AddOrUpdateTopology(logr.Discard(), topologyObject(&sc.Topologies[i]))
	}
	for i := range sc.LocalQueues {
		// The LocalQueue controller gives the queue manager only the
		// LocalQueues that are not stopped.
		if p := sc.LocalQueues[i].StopPolicy; p != "" && p != "None" {
			continue
		}
		if err := queues.AddLocalQueue(ctx, localQueueObject(&sc.LocalQueues[i])); err != nil {
			return nil, fmt.Errorf("LocalQueue %s/%s: %w", sc.LocalQueues[i].Namespace, sc.LocalQueues[i].Name, err)
		}
	}
	for i := range sc.Cohorts {
		c := cohortObject(&sc.Cohorts[i])
		if err := cache.AddOrUpdateCohort(c); err != nil {
			return nil, fmt.Errorf("Cohort %s: %w", c.Name, err)
		}
		queues.AddOrUpdateCohort(ctx, c)
	}
	for i := range sc.ClusterQueues {
		cq := clusterQueueObject(&sc.ClusterQueues[i])
		if err := cache.AddClusterQueue(ctx, cq); err != nil {
			return nil, fmt.Errorf("ClusterQueue %s: %w", cq.Name, err)
		}
		if err := queues.AddClusterQueue(ctx, cq); err != nil {
			return nil, fmt.Errorf("ClusterQueue %s: %w", cq.Name, err)
		}
	}

	index := make(map[string]int, len(sc.Workloads))
	for i := range sc.Workloads {
		if _, ok := index[sc.Workloads[i].Key()]; !ok {
			index[sc.Workloads[i].Key()] = i
		}
	}

	// The scheduler copies routine.DefaultWrapper when it is created; its
	// admission status patches are then queued for the harness to run
	// after the schedule call (deferredRoutines says why that is sound).
	admissions := &deferredRoutines{}
	routine.DefaultWrapper = admissions
	// The scheduler (and the preemptor it builds) get the client through
	// a timer, for KueueTiming; nothing else does.
	schedClient := &clientClock{}
	sched := scheduler.New(queues, cache, timedClient(cl, schedClient), discardRecorder{}, scheduler.WithClock(nil, clk))
	wlRec := corectrl.NewWorkloadReconciler(cl, queues, cache, discardRecorder{})
	return &world{ctx: ctx, cl: cl, cache: cache, queues: queues, sched: sched, wlRec: wlRec, clock: clk,
		admissions: admissions, schedClient: schedClient, seen: seen, written: written,
		touched: map[types.NamespacedName]struct{}{}, index: index}, nil
}

// reservationTime is the QuotaReserved time of a workload that starts
// admitted. The engine orders those pasted with a time by that time, those
// pasted without one at time 0 after the ones pasted at 0 (each strictly
// after the one before, in document order), and every admission the
// simulation makes at time 0 after all of them. The harness keeps that
// order by placing pasted times half a virtual millisecond early: a time
// t becomes 500 seconds before t's instant, and the k-th workload pasted
// without a time k seconds after time 0's pasted instant.
func reservationTime(w *core.Workload, admitSeq *int) (time.Time, error) {
	if w.AdmittedAt != nil {
		if !wholeMillis(*w.AdmittedAt) {
			return time.Time{}, fmt.Errorf("workload %s: admission time %v is not a whole millisecond", w.Key(), *w.AdmittedAt)
		}
		return realTime(*w.AdmittedAt).Add(-500 * time.Second), nil
	}
	*admitSeq++
	return realTime(0).Add(time.Duration(*admitSeq-500) * time.Second), nil
}

// namespaces lists every namespace the scenario uses, with its labels: the
// declared ones as declared (the decoder adds kubernetes.io/metadata.name),
// the others with only the label the API server gives every namespace.
func namespaces(sc *core.Scenario) []*corev1.Namespace {
	labels := map[string]map[string]string{}
	for _, ns := range sc.Namespaces {
		labels[ns.Name] = ns.Labels
	}
	add := func(name string) {
		if _, ok := labels[name]; !ok {
			labels[name] = map[string]string{"kubernetes.io/metadata.name": name}
		}
	}
	for _, lq := range sc.LocalQueues {
		add(lq.Namespace)
	}
	for _, w := range sc.Workloads {
		add(w.Namespace)
	}
	names := make([]string, 0, len(labels))
	for n := range labels {
		names = append(names, n)
	}
	slices.Sort(names)
	var out []*corev1.Namespace
	for _, n := range names {
		out = append(out, namespaceObject(n, labels[n]))
	}
	return out
}

// setTime moves the harness's clock to virtual time v.
func (w *world) setTime(v time.Duration) { w.clock.SetTime(realTime(v)) }

// hasHeads reports whether Manager.Heads would return at once: some active
// ClusterQueue has a workload in its heap. (Heads blocks otherwise.)
func (w *world) hasHeads() bool {
	for cq, wls := range w.queues.Dump() {
		if len(wls) > 0 && w.cache.ClusterQueueActive(cq) {
			return true
		}
	}
	return false
}

// cycle runs one scheduling cycle, then its admission patches, and lets
// the workload controller see the result. It reports whether a cycle ran.
// It times the schedule call, the scheduler's API calls inside it and the
// admission patches after it (KueueTiming), and nothing else.
func (w *world) cycle() (bool, error) {
	if !w.hasHeads() {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(w.ctx, time.Minute)
	defer cancel()
	go w.queues.CleanUpOnContext(ctx)
	gcPercent := 0
	if w.noGCInCycle {
		// With the collector off, none starts during the timed part, and
		// SetGCPercent(-1) returns only once a collection in progress
		// has ended. It runs again, at its usual pace, after the timed
		// part. (Forcing a collection before every call, as this did
		// first, costs a mark of the whole heap per cycle: a cost that
		// grows with the workloads the harness holds.)
		gcPercent = debug.SetGCPercent(-1)
	}
	w.schedClient.take()
	start := time.Now()
	scheduleOnce(w.sched, ctx)
	w.timing.Schedule += time.Since(start)
	w.timing.ScheduleClient += w.schedClient.take()
	start = time.Now()
	w.admissions.drain()
	w.timing.Admission += time.Since(start)
	if w.noGCInCycle {
		debug.SetGCPercent(gcPercent)
	}
	if ctx.Err() != nil {
		return true, fmt.Errorf("Kueue's scheduling cycle did not return within a minute")
	}
	w.cycles++
	return true, w.sync()
}

// startup plays the workload controller's first pass over the workloads
// the cluster starts with: controller-runtime reconciles every object its
// informer lists when the manager starts, and the harness's world is
// built with those workloads already seen (newWorld), so nothing else
// would reconcile them. Kueue's own WorkloadReconciler.Reconcile runs on
// each, in key order; for an admitted workload of a LocalQueue or
// ClusterQueue with stopPolicy HoldAndDrain it is what evicts it
// (reconcileOnLocalQueueActiveState, reconcileOnClusterQueueActiveState:
// workload.Evict with LocalQueueStopped or ClusterQueueStopped). sync then
// feeds the resulting updates to the controller as usual.
func (w *world) startup() error {
	for _, k := range sortedKeys(w.seen) {
		if _, err := w.wlRec.Reconcile(w.ctx, ctrl.Request{NamespacedName: k}); err != nil {
			return fmt.Errorf("workload controller, %s: %w", k, err)
		}
	}
	return w.sync()
}

// sync plays the informer and the workload controller: every workload
// created, changed or deleted since the last sync goes to the controller's
// event handler (which updates the cache and the queues), then to its
// Reconcile, in key order, until nothing changes.
//
// An informer is told of each write by its watch; the harness learns the
// same from its client (writeLog: every workload written through it since
// the last round), and reads those workloads back, so that a round costs
// what was written, not every workload that exists. What it then hands to
// the controller is what a List of every workload would show: the
// workloads whose resourceVersion moved or that are new (Create or Update
// events, in key order), then those gone (Delete events, in key order).
func (w *world) sync() error {
	for round := 0; round < 20; round++ {
		keys, all := w.written.take()
		if all {
			// A write the log cannot attribute to workloads: look at
			// every one.
			var list kueue.WorkloadList
			if err := w.cl.List(w.ctx, &list); err != nil {
				return err
			}
			keys = map[types.NamespacedName]struct{}{}
			for i := range list.Items {
				keys[client.ObjectKeyFromObject(&list.Items[i])] = struct{}{}
			}
			for k := range w.seen {
				keys[k] = struct{}{}
			}
		}
		var changed, gone []types.NamespacedName
		for _, k := range sortedKeys(keys) {
			wl := &kueue.Workload{}
			if err := w.cl.Get(w.ctx, k, wl); apierrors.IsNotFound(err) {
				if _, ok := w.seen[k]; ok {
					gone = append(gone, k)
				}
				continue
			} else if err != nil {
				return err
			}
			old, ok := w.seen[k]
			switch {
			case !ok:
				w.wlRec.Create(event.TypedCreateEvent[*kueue.Workload]{Object: wl.DeepCopy()})
			case old.ResourceVersion != wl.ResourceVersion:
				w.wlRec.Update(event.TypedUpdateEvent[*kueue.Workload]{ObjectOld: old, ObjectNew: wl.DeepCopy()})
			default:
				continue
			}
			w.seen[k] = wl
			changed = append(changed, k)
		}
		for _, k := range gone {
			w.wlRec.Delete(event.TypedDeleteEvent[*kueue.Workload]{Object: w.seen[k]})
			delete(w.seen, k)
			changed = append(changed, k)
		}
		if len(changed) == 0 {
			return nil
		}
		for _, k := range changed {
			w.touched[k] = struct{}{}
			if _, err := w.wlRec.Reconcile(w.ctx, ctrl.Request{NamespacedName: k}); err != nil {
				return fmt.Errorf("workload controller, %s: %w", k, err)
			}
		}
	}
	return fmt.Errorf("the workload controller did not settle after 20 rounds")
}

// writeLog records the workloads written through a client (recordWrites):
// what the informer's watch would report.
type writeLog struct {
	mu   sync.Mutex
	keys map[types.NamespacedName]struct{}
	// all is set by a write that names no single workload (DeleteAllOf,
	// Apply): the next sync looks at every workload.
	all bool
}

func (l *writeLog) add(obj client.Object) {
	l.mu.Lock()
	if _, ok := obj.(*kueue.Workload); ok {
		l.keys[client.ObjectKeyFromObject(obj)] = struct{}{}
	}
	l.mu.Unlock()
}

func (l *writeLog) addAll() {
	l.mu.Lock()
	l.all = true
	l.mu.Unlock()
}

// take returns the keys written since the last take, and whether some
// write could have changed any workload.
func (l *writeLog) take() (map[types.NamespacedName]struct{}, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	keys, all := l.keys, l.all
	l.keys, l.all = map[types.NamespacedName]struct{}{}, false
	return keys, all
}

// recordWrites is cl with every write recorded in l, whether or not it
// succeeds (a failed write changes nothing, which sync then sees).
func recordWrites(cl client.WithWatch, l *writeLog) client.WithWatch {
	return interceptor.NewClient(cl, interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			l.add(obj)
			return c.Create(ctx, obj, opts...)
		},
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			l.add(obj)
			return c.Delete(ctx, obj, opts...)
		},
		DeleteAllOf: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteAllOfOption) error {
			l.addAll()
			return c.DeleteAllOf(ctx, obj, opts...)
		},
		Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			l.add(obj)
			return c.Update(ctx, obj, opts...)
		},
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
			l.add(obj)
			return c.Patch(ctx, obj, patch, opts...)
		},
		Apply: func(ctx context.Context, c client.WithWatch, obj runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
			l.addAll()
			return c.Apply(ctx, obj, opts...)
		},
		SubResourceCreate: func(ctx context.Context, c client.Client, sub string, obj, subObj client.Object, opts ...client.SubResourceCreateOption) error {
			l.add(obj)
			return c.SubResource(sub).Create(ctx, obj, subObj, opts...)
		},
		SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			l.add(obj)
			return c.SubResource(sub).Update(ctx, obj, opts...)
		},
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			l.add(obj)
			return c.SubResource(sub).Patch(ctx, obj, patch, opts...)
		},
	})
}

func sortedKeys[V any](m map[types.NamespacedName]V) []types.NamespacedName {
	keys := make([]types.NamespacedName, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b types.NamespacedName) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return keys
}

func key(wlKey string) types.NamespacedName {
	ns, name, _ := strings.Cut(wlKey, "/")
	return types.NamespacedName{Namespace: ns, Name: name}
}

func (w *world) get(wlKey string) (*kueue.Workload, bool, error) {
	var wl kueue.Workload
	err := w.cl.Get(w.ctx, key(wlKey), &wl)
	if client.IgnoreNotFound(err) != nil {
		return nil, false, err
	}
	return &wl, err == nil, nil
}

// create is a workload's arrival: the object is created (the controller's
// Create handler queues it at the next sync).
func (w *world) create(wl *kueue.Workload) error {
	return w.cl.Create(w.ctx, wl)
}

// finish is the job controller marking a workload Finished: its job
// succeeded, or (failed) it could not start (jobframework's
// FailedToStart); the controller's Update handler frees its quota.
func (w *world) finish(wlKey string, failed bool, msg string) error {
	wl, ok, err := w.get(wlKey)
	if err != nil || !ok {
		return err
	}
	if failed {
		return workload.Finish(w.ctx, w.cl, wl, jobframework.FailedToStartFinishedReason, msg, w.clock, nil)
	}
	return workload.Finish(w.ctx, w.cl, wl, kueue.WorkloadFinishedReasonSucceeded, "Job finished successfully", w.clock, nil)
}

// remove deletes a workload (kubectl delete).
func (w *world) remove(wlKey string) error {
	wl, ok, err := w.get(wlKey)
	if err != nil || !ok {
		return err
	}
	return client.IgnoreNotFound(w.cl.Delete(w.ctx, wl))
}

// release ends the termination of an evicted workload: its job is no
// longer active, so the job controller clears the admission, with the
// eviction's message as the pending message and Requeued set as
// jobframework's reconciler does (step "handle eviction").
func (w *world) release(wlKey string) error {
	wl, ok, err := w.get(wlKey)
	if err != nil || !ok {
		return err
	}
	ev := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadEvicted)
	if ev == nil || ev.Status != metav1.ConditionTrue || !workload.HasQuotaReservation(wl) {
		return fmt.Errorf("workload %s is released but Kueue has not evicted it", wlKey)
	}
	reason, msg := ev.Reason, ev.Message
	return workload.PatchAdmissionStatus(w.ctx, w.cl, wl, w.clock, func(wl *kueue.Workload) (bool, error) {
		setRequeued := reason == kueue.WorkloadEvictedByPreemption || reason == kueue.WorkloadEvictedDueToNodeFailures
		updated := workload.SetRequeuedCondition(wl, reason, msg, setRequeued)
		if workload.UnsetQuotaReservationWithCondition(wl, "Pending", msg, w.clock.Now()) {
			updated = true
		}
		return updated, nil
	})
}

// discardRecorder drops Kubernetes events.
type discardRecorder struct{}

func (discardRecorder) Event(object runtime.Object, eventtype, reason, message string) {}
func (discardRecorder) Eventf(object runtime.Object, eventtype, reason, messageFmt string, args ...any) {
}
func (discardRecorder) AnnotatedEventf(object runtime.Object, annotations map[string]string, eventtype, reason, messageFmt string, args ...any) {
}

// controller-runtime warns, with a stack trace, when something logs
// through its global logger before one is set; the harness has nothing to
// say there.
func init() { ctrl.SetLogger(logr.Discard()) }
