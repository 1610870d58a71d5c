package admin

import "net/http"

// agentDoors is the Settings section of the doors for AI agents: the
// MCP server's URL and the UCP profile's, and whether each is on.
type agentDoors struct {
	MCPURL, UCPURL string
	MCPOn, UCPOn   bool
}

func (s *Server) agentDoors(r *http.Request) agentDoors {
	base := s.publicBase(r)
	return agentDoors{
		MCPURL: base + "/mcp", UCPURL: base + "/.well-known/ucp",
		MCPOn: s.cfg.MCPOn, UCPOn: s.cfg.UCPOn,
	}
}
