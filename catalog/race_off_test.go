//go:build !race

package catalog_test

// raceEnabled: the race detector slows everything down several times.
const raceEnabled = false
