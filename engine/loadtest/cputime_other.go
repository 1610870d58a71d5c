//go:build !unix

package loadtest

import "time"

// ProcessCPU is not measured here: callers leave their CPU figures out.
func ProcessCPU() (time.Duration, bool) { return 0, false }
