//go:build race

package slack_test

// raceEnabled: the race detector slows everything down several times.
const raceEnabled = true
