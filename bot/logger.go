package main

import (
	"io"
	"log/slog"
)

// newLogger is the process's one logger, built by run for every command:
// text to stderr, at a level the command sets (logger) before using it.
func newLogger(w io.Writer) (*slog.Logger, *slog.LevelVar) {
	level := new(slog.LevelVar)
	level.Set(slog.LevelWarn)
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})), level
}

// logger is the process's logger at level l: info for the server, warn
// for the terminal commands, error for the load test.
func (e env) logger(l slog.Level) *slog.Logger {
	e.level.Set(l)
	return e.log
}
