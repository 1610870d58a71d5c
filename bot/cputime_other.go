//go:build !unix

package main

import "time"

// processCPU is not measured here: bench leaves its CPU figures out.
func processCPU() (time.Duration, bool) { return 0, false }
