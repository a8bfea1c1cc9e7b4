//go:build !linux

package api_test

// favour does nothing outside Linux (BenchmarkWorkerdSizes needs Linux's
// /proc and skips).
func favour(pid int) {}
