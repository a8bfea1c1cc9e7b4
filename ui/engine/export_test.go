package engine

// AppendOverviewJSON is appendOverviewJSON, for TestOverviewJSON.
var AppendOverviewJSON = appendOverviewJSON
