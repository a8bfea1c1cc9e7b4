package conformance

import (
	"context"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// KueueTiming is where Kueue's scheduler spent wall-clock time over a run,
// summed over its cycles (Result.KueueCycles). BenchmarkKueueScalability
// reports it per cycle; the comparison never reads it.
type KueueTiming struct {
	// Schedule is the wall time of the schedule calls themselves
	// (scheduleOnce: Kueue's (*Scheduler).schedule, from taking the heads
	// to requeueing what it did not admit). It includes the API calls
	// Kueue makes inside the call (pending-message status patches,
	// preemptions' evictions) against the fake client, and excludes the
	// admission status patches, which Kueue hands to a goroutine (see
	// Admission).
	Schedule time.Duration
	// ScheduleClient is the part of Schedule during which at least one of
	// the scheduler's calls to the fake API client was in flight.
	// Schedule - ScheduleClient is Kueue's scheduling algorithm alone.
	ScheduleClient time.Duration
	// Admission is the wall time of the admission status patches Kueue
	// started during the cycles (each workload.PatchAdmissionStatus with
	// Kueue's metrics and events after it), which the harness runs once
	// the schedule call has returned (deferredRoutines).
	Admission time.Duration
}

// deferredRoutines is the scheduler's admission routine wrapper under the
// harness. Kueue writes an admitted workload's status on a goroutine of
// its own and goes on with the cycle; nothing later in the cycle reads
// that write (the cache already holds the assumed workload). The harness
// queues those functions and runs them, in the order Kueue started them,
// once the schedule call has returned: one of the interleavings Kueue
// allows, which keeps the runs deterministic and keeps the patches out
// of the schedule call's time and off the CPU while it runs.
type deferredRoutines struct {
	mu      sync.Mutex
	pending []func()
}

func (d *deferredRoutines) Run(f func()) {
	d.mu.Lock()
	d.pending = append(d.pending, f)
	d.mu.Unlock()
}

// drain runs every queued function, and any they queue, in order.
func (d *deferredRoutines) drain() {
	for {
		d.mu.Lock()
		fs := d.pending
		d.pending = nil
		d.mu.Unlock()
		if len(fs) == 0 {
			return
		}
		for _, f := range fs {
			f()
		}
	}
}

// clientClock measures the wall time during which at least one call
// through a timedClient is in flight. Preemptions are issued by parallel
// workers, so calls can overlap; the union is what the calling cycle
// spent waiting for the API.
type clientClock struct {
	mu       sync.Mutex
	inFlight int
	since    time.Time
	total    time.Duration
}

func (c *clientClock) enter() func() {
	c.mu.Lock()
	if c.inFlight == 0 {
		c.since = time.Now()
	}
	c.inFlight++
	c.mu.Unlock()
	return c.leave
}

func (c *clientClock) leave() {
	c.mu.Lock()
	c.inFlight--
	if c.inFlight == 0 {
		c.total += time.Since(c.since)
	}
	c.mu.Unlock()
}

// take returns the time accumulated since the last take.
func (c *clientClock) take() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.total
	c.total = 0
	return t
}

// timedClient is cl with every call timed on clk. The harness gives it to
// Kueue's scheduler only; its own reads and the workload controller use
// cl directly.
func timedClient(cl client.WithWatch, clk *clientClock) client.WithWatch {
	return interceptor.NewClient(cl, interceptor.Funcs{
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			defer clk.enter()()
			return c.Get(ctx, key, obj, opts...)
		},
		List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			defer clk.enter()()
			return c.List(ctx, list, opts...)
		},
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			defer clk.enter()()
			return c.Create(ctx, obj, opts...)
		},
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			defer clk.enter()()
			return c.Delete(ctx, obj, opts...)
		},
		DeleteAllOf: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteAllOfOption) error {
			defer clk.enter()()
			return c.DeleteAllOf(ctx, obj, opts...)
		},
		Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			defer clk.enter()()
			return c.Update(ctx, obj, opts...)
		},
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
			defer clk.enter()()
			return c.Patch(ctx, obj, patch, opts...)
		},
		Apply: func(ctx context.Context, c client.WithWatch, obj runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
			defer clk.enter()()
			return c.Apply(ctx, obj, opts...)
		},
		SubResourceGet: func(ctx context.Context, c client.Client, sub string, obj, subObj client.Object, opts ...client.SubResourceGetOption) error {
			defer clk.enter()()
			return c.SubResource(sub).Get(ctx, obj, subObj, opts...)
		},
		SubResourceCreate: func(ctx context.Context, c client.Client, sub string, obj, subObj client.Object, opts ...client.SubResourceCreateOption) error {
			defer clk.enter()()
			return c.SubResource(sub).Create(ctx, obj, subObj, opts...)
		},
		SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			defer clk.enter()()
			return c.SubResource(sub).Update(ctx, obj, opts...)
		},
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			defer clk.enter()()
			return c.SubResource(sub).Patch(ctx, obj, patch, opts...)
		},
	})
}
