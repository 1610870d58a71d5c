package main

import (
	"io"
	"log/slog"
	"strings"

	"shopbot/engine/logctx"
)

// logOptions are LOG_FORMAT and LOG_LEVEL, parsed.
type logOptions struct {
	json bool
	// level is LOG_LEVEL's level; nil when unset: each command's own.
	level *slog.Level
}

// parseLogOptions reads LOG_FORMAT (text or json) and LOG_LEVEL (debug,
// info, warn or error; empty: the command's own level).
func parseLogOptions(format, level string) (logOptions, error) {
	var o logOptions
	switch strings.ToLower(strings.TrimSpace(format)) {
	case "", "text":
	case "json":
		o.json = true
	default:
		return o, usagef("LOG_FORMAT is %q: use text or json", format)
	}
	level = strings.TrimSpace(level)
	if level == "" {
		return o, nil
	}
	switch strings.ToLower(level) {
	case "debug", "info", "warn", "error":
		var l slog.Level
		_ = l.UnmarshalText([]byte(level)) // one of the four names slog reads
		o.level = &l
		return o, nil
	}
	return o, usagef("LOG_LEVEL is %q: use debug, info, warn or error", level)
}

// logOptionsFrom parses the log settings from the environment, with the
// list's defaults (settings.go), before any command has read its own.
func logOptionsFrom(getenv func(string) string) (logOptions, error) {
	var c Config
	for _, s := range c.settings() {
		if s.dst == &c.LogFormat || s.dst == &c.LogLevel {
			*s.dst = s.def
			if v := getenv(s.env); v != "" {
				*s.dst = v
			}
		}
	}
	return parseLogOptions(c.LogFormat, c.LogLevel)
}

// newLogger is the process's one logger, built by run for every command:
// text or JSON to stderr, each record carrying the request, conversation
// and trace ids of its context (logctx), at LOG_LEVEL or else at the level
// the command sets (logger) before using it.
func newLogger(w io.Writer, o logOptions) (*slog.Logger, *levelSetting) {
	lv := &levelSetting{fixed: o.level != nil}
	lv.v.Set(slog.LevelWarn)
	if o.level != nil {
		lv.v.Set(*o.level)
	}
	opts := &slog.HandlerOptions{Level: &lv.v}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if o.json {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(logctx.NewHandler(h)), lv
}

// levelSetting is the logger's level: LOG_LEVEL when given, or else the
// level each command asks for.
type levelSetting struct {
	v     slog.LevelVar
	fixed bool // LOG_LEVEL was given
}

// logger is the process's logger at level l (info for the server, warn
// for the terminal commands, error for the load test), unless LOG_LEVEL
// set one.
func (e env) logger(l slog.Level) *slog.Logger {
	if !e.level.fixed {
		e.level.v.Set(l)
	}
	return e.log
}
