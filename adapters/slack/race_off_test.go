//go:build !race

package slack_test

const raceEnabled = false
