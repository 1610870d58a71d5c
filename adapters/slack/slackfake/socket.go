package slackfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/gorilla/websocket"
)

// AppToken is the app-level token the fake accepts for Socket Mode.
const AppToken = "xapp-test-token"

// Ack is a Socket Mode acknowledgement received from the app.
type Ack struct {
	EnvelopeID string          `json:"envelope_id"`
	Payload    json.RawMessage `json:"payload"`
}

// socket is the fake's Socket Mode side: apps.connections.open hands out
// a WebSocket URL; the connection gets a hello, then the envelopes sent
// with SocketSend, and its acks are recorded.
type socket struct {
	mu       sync.Mutex
	outbox   chan []byte
	acks     []Ack
	envelope int
}

// upgrader accepts the Origin slack-go sends (https://api.slack.com).
var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

func (s *Server) serveSocket(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	hello := `{"type":"hello","num_connections":1,"debug_info":{"host":"fake","approximate_connection_time":3600},"connection_info":{"app_id":"A1"}}`
	if conn.WriteMessage(websocket.TextMessage, []byte(hello)) != nil {
		return
	}
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		for {
			_, msg, err := conn.ReadMessage()
			if err != nil {
				return
			}
			var a Ack
			if json.Unmarshal(msg, &a) == nil && a.EnvelopeID != "" {
				s.sock.mu.Lock()
				s.sock.acks = append(s.sock.acks, a)
				s.sock.mu.Unlock()
			}
		}
	}()
	for {
		select {
		case <-closed:
			return
		case msg := <-s.sock.outbox:
			if conn.WriteMessage(websocket.TextMessage, msg) != nil {
				return
			}
		}
	}
}

// SocketSend delivers an envelope of typ ("events_api", "interactive",
// "slash_commands") with payload over Socket Mode and returns its
// envelope id; retry > 0 marks a redelivery.
func (s *Server) SocketSend(typ string, payload any, retry int) string {
	s.sock.mu.Lock()
	s.sock.envelope++
	id := fmt.Sprintf("env-%d", s.sock.envelope)
	s.sock.mu.Unlock()
	raw, _ := json.Marshal(payload)
	msg, _ := json.Marshal(map[string]any{"type": typ, "envelope_id": id, "payload": json.RawMessage(raw),
		"accepts_response_payload": typ != "events_api", "retry_attempt": retry, "retry_reason": map[bool]string{true: "timeout"}[retry > 0]})
	s.sock.outbox <- msg
	return id
}

// Acks returns the acknowledgements received so far.
func (s *Server) Acks() []Ack {
	s.sock.mu.Lock()
	defer s.sock.mu.Unlock()
	return append([]Ack(nil), s.sock.acks...)
}

// socketURL is the WebSocket URL apps.connections.open returns.
func (s *Server) socketURL() string {
	return "ws" + strings.TrimPrefix(s.srv.URL, "http") + "/link/"
}
