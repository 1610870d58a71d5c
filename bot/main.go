package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "shopbot: "+err.Error())
	}
	os.Exit(exitCode(err))
}

func exitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(*usageError)):
		return 2
	}
	return 1
}

// env is the process environment as run sees it.
type env struct {
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	log    *slog.Logger // built once by run (logger.go)
	level  *levelSetting
}

// run executes one shopbot command. It is main without the process: tests
// call it with their own arguments, environment and streams.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	lo, err := logOptionsFrom(getenv)
	if err != nil {
		return err
	}
	log, level := newLogger(stderr, lo)
	e := env{getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr, log: log, level: level}
	if len(args) > 0 && isHelpFlag(args[0]) {
		printUsage(stdout)
		return nil
	}
	cmd, rest := "serve", args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, rest = args[0], args[1:]
	}
	c, ok := findCommand(cmd)
	if !ok {
		return usagef("unknown command %q; run 'shopbot help'", cmd)
	}
	return c.run(ctx, e, rest)
}
