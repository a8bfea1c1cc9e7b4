package api_test

import (
	"fmt"
	"path/filepath"
	"strconv"
	"syscall"
)

// favour raises the scheduling priority of pid's threads to nice -20 (the
// threads they start inherit it), where the benchmark may: on a machine
// shared with other work, the request's threads are then preempted less,
// which is what inflates their CPU time most. Without the privilege it
// does nothing, and the numbers are upper bounds all the more.
func favour(pid int) {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*", pid))
	for _, task := range tasks {
		if tid, err := strconv.Atoi(filepath.Base(task)); err == nil {
			syscall.Setpriority(syscall.PRIO_PROCESS, tid, -20)
		}
	}
}
