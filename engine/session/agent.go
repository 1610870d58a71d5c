package session

// AgentCall is an agent's write as State.Agent keeps it: the
// idempotency key it came with, a digest of the call (tool and
// arguments), and the reply it got.
type AgentCall struct {
	Key     string `json:"key"`
	Call    string `json:"call"`
	Content string `json:"content"`
	IsError bool   `json:"is_error,omitempty"`
}

// KeepAgentCalls is how many of an agent's writes State.Agent keeps: a
// key sent again within this many later writes of the session gets the
// first reply.
const KeepAgentCalls = 32

// AgentCall finds the write made with key.
func (st *State) AgentCall(key string) (AgentCall, bool) {
	for _, c := range st.Agent {
		if c.Key == key {
			return c, true
		}
	}
	return AgentCall{}, false
}

// RememberAgentCall keeps c, forgetting the oldest beyond
// KeepAgentCalls.
func (st *State) RememberAgentCall(c AgentCall) {
	st.Agent = append(st.Agent, c)
	if n := len(st.Agent) - KeepAgentCalls; n > 0 {
		st.Agent = append([]AgentCall(nil), st.Agent[n:]...)
	}
}
