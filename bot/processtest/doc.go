// Package processtest holds the tests that run the shopbot binary as a
// child process, the way a user or an orchestrator would: exit codes and
// messages, SIGTERM, two processes on the default database, and replicas
// that take over from one killed with SIGKILL.
//
// They live apart from package main (bot/) so that `go test ./...` runs
// them beside the other packages instead of after bot's in-process tests:
// they spend most of their time waiting on child processes and leases.
// The binary is built once per run (without -race, as shipped) and shared
// by every test here; the tests run in parallel.
package processtest
