//go:build unix

package loadtest

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time (user and system) this process has used,
// and whether the system reports it: the difference over a run, divided
// by its turns, is what a turn cost, a figure that other work on the
// machine moves far less than the run's latencies.
func ProcessCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
