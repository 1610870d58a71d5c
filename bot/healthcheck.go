package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"time"
)

// healthcheckCmd asks a running shopbot for /healthz (or /readyz with
// --ready). The Docker image has no curl; its HEALTHCHECK runs this.
func healthcheckCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	readyz := fs.Bool("ready", false, "check /readyz instead of /healthz")
	cfg, err := loadConfig(fs, args, e.getenv)
	if err != nil {
		return err
	}
	host, port, _ := net.SplitHostPort(cfg.HTTPAddr) // validated by loadConfig
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	path := "/healthz"
	if *readyz {
		path = "/readyz"
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+net.JoinHostPort(host, port)+path, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %s", path, resp.Status)
	}
	return nil
}
