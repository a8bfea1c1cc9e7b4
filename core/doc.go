// Package core is kueueplay's engine vocabulary: the decoded scenario
// (ClusterQueues, Cohorts, ResourceFlavors, Workloads, gates), quantities
// and diagnostics. The packages below it simulate Kueue v0.16.1's scheduler
// deterministically:
//
//	scenario YAML ──► core/scenario.Decode ──► core.Scenario
//	                                               │
//	                                               ▼
//	            sim.New ──► State ──► sim.Step(State, Event) ──► State' + trace.Step
//	                                    │
//	                  ┌─────────────────┼──────────────────────┐
//	                  ▼                 ▼                      ▼
//	          events (arrival,   cycle: heads ► nominate ► order ► process ► requeue
//	          finish, delete)                 │
//	                                          ▼
//	                             core/flavor.Assign (fungibility loop)
//	                                          │
//	                                          ▼
//	                             core/quota (cohort tree arithmetic)
//
// Everything under core is pure: no I/O, no wall clock, no globals and no
// syscall/js (core/imports_test.go enforces it). Every ordering is total
// and ends in a name tie-break, so the same input gives the same trace
// bytes natively and in WebAssembly.
package core
