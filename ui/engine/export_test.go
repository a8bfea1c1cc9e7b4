package engine

// AppendOverviewJSON is appendOverviewJSON, for TestOverviewJSON.
var AppendOverviewJSON = appendOverviewJSON

// ComputeOverview is Session.computeOverview, for BenchmarkOverview (the
// Session keeps the Overview it computed).
func ComputeOverview(s *Session) { s.computeOverview() }
