package main

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"shopbot/adapters/mcp"
	"shopbot/adapters/ucp"
	"shopbot/catalog"
	"shopbot/engine"
)

// agentDoor is the MCP server for AI agents at /mcp (adapters/mcp), nil
// with MCP=off so the route is not mounted at all.
func agentDoor(cfg *Config, eng *engine.Engine, log *slog.Logger) http.Handler {
	if !cfg.mcpOn {
		return nil
	}
	return mcp.Handler(eng, mcp.Options{Token: cfg.MCPToken, Version: buildVersion(), Logger: log.With("adapter", "mcp")})
}

// ucpDoor is the Universal Commerce Protocol binding (adapters/ucp):
// the profile and the checkout sessions, kept with their Idempotency-Key
// replies in db so replicas share them and restarts keep them; nil with
// UCP=off.
func ucpDoor(cfg *Config, eng *engine.Engine, db bun.IDB, log *slog.Logger) http.Handler {
	if !cfg.ucpOn {
		return nil
	}
	opts := ucp.Options{BaseURL: cfg.PublicURL, Logger: log.With("adapter", "ucp"), Store: &catalog.UCPRecords{DB: db}, Token: cfg.MCPToken}
	if cfg.mcpOn {
		opts.MCPPath = "/mcp"
	}
	return ucp.Handler(eng, opts)
}

// onOff parses an on/off setting (true/false, 1/0 and yes/no also do).
func onOff(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true", "1", "yes":
		return true, nil
	case "off", "false", "0", "no":
		return false, nil
	}
	return false, fmt.Errorf("not on or off: %q", v)
}
