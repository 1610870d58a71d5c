package admin

import (
	"encoding/json"
	"net/http"
	"regexp"

	"shopbot/catalog"
)

// playground is /admin/playground: the web chat API with streaming, as a
// shopper sees it, and the tool calls of each turn beside it.
func (s *Server) playground(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "playground", "Playground", "playground", nil)
}

var playSession = regexp.MustCompile(`^[A-Za-z0-9_-]{16,64}$`)

// traceCall is a tool call of the last turn, for the playground's side
// panel.
type traceCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Result    string `json:"result"`
	Error     bool   `json:"error"`
	LatencyMS int    `json:"latency_ms"`
}

type trace struct {
	Model  string      `json:"model"`
	Tokens int         `json:"tokens"`
	Calls  []traceCall `json:"calls"`
}

// playgroundTrace answers the tool calls of the playground session's last
// turn as JSON.
func (s *Server) playgroundTrace(w http.ResponseWriter, r *http.Request) {
	session := r.URL.Query().Get("session")
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	if !playSession.MatchString(session) {
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]string{"error": "session must be 16-64 letters, digits, - or _"})
		return
	}
	out := trace{Calls: []traceCall{}}
	id := catalog.FindConversationID(r.Context(), s.db, catalog.ConversationKey{Channel: "web", ChatID: session})
	if id > 0 {
		msgs, err := catalog.RecentMessages(r.Context(), s.db, id, 60)
		if err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			json.NewEncoder(w).Encode(map[string]string{"error": "could not read the conversation"})
			return
		}
		start := 0
		for i, m := range msgs {
			if m.Role == catalog.RoleUser {
				start = i
			}
		}
		entries, tokens, _, _ := pairTools(msgs[start:])
		out.Tokens = tokens
		for _, e := range entries {
			if e.Model != "" {
				out.Model = e.Model
			}
			for _, c := range e.Calls {
				out.Calls = append(out.Calls, traceCall{Name: c.Name, Arguments: c.Arguments, Result: c.Result, Error: c.IsError, LatencyMS: c.LatencyMS})
			}
		}
	}
	json.NewEncoder(w).Encode(out)
}

// playgroundScenario downloads the playground session's conversation as
// an eval scenario file (YAML), its expectations what happened.
func (s *Server) playgroundScenario(w http.ResponseWriter, r *http.Request) {
	session := r.URL.Query().Get("session")
	if !playSession.MatchString(session) {
		s.renderError(w, r, badRequest("The session must be 16-64 letters, digits, - or _."))
		return
	}
	if s.cfg.Replayer == nil {
		s.renderError(w, r, badRequest("Saving scenarios is not available in this process."))
		return
	}
	id := catalog.FindConversationID(r.Context(), s.db, catalog.ConversationKey{Channel: "web", ChatID: session})
	if id == 0 {
		s.renderError(w, r, badRequest("Say something in the playground first."))
		return
	}
	yaml, err := s.cfg.Replayer.Scenario(r.Context(), id, "playground "+s.cfg.Now().UTC().Format("2006-01-02 15:04"))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/yaml; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="scenario.yaml"`)
	w.Write(yaml)
}
