package slackfake

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// Limits of the real API that the fake enforces.
const (
	maxBlocks      = 50
	maxSectionText = 3000
	maxButtonValue = 2000
	maxButtonText  = 75
	maxText        = 40000
	maxStreamText  = 12000
)

// dispatch runs one method with s.mu held; a non-empty code is Slack's
// error string.
func (s *Server) dispatch(method string, a map[string]string) (map[string]any, string) {
	switch method {
	case "auth.test":
		return map[string]any{"user_id": BotUserID, "user": "shopbot", "team_id": "T1", "team": "Fake Workspace", "bot_id": "BBOT", "url": "https://fake.slack.com/"}, ""
	case "users.info":
		u, ok := s.users[a["user"]]
		if !ok {
			return nil, "user_not_found"
		}
		m := map[string]any{"id": a["user"], "name": u.name, "is_bot": u.bot,
			"real_name": u.name, "profile": map[string]any{"display_name": u.name, "real_name": u.name}}
		if a["include_locale"] == "true" && u.locale != "" {
			m["locale"] = u.locale
		}
		return map[string]any{"user": m}, ""
	case "chat.postMessage":
		return s.post(a, false)
	case "chat.update":
		return s.update(a)
	case "chat.startStream", "chat.appendStream", "chat.stopStream":
		if s.noStreaming {
			return nil, "unknown_method"
		}
		return s.stream(method, a)
	case "apps.connections.open":
		return map[string]any{"url": s.socketURL()}, ""
	case "assistant.threads.setStatus", "assistant.threads.setSuggestedPrompts", "assistant.threads.setTitle":
		return assistantThreads(method, a)
	case "views.publish":
		var v map[string]any
		if err := json.Unmarshal([]byte(a["view"]), &v); err != nil || a["user_id"] == "" {
			return nil, "invalid_arguments"
		}
		raw, _ := json.Marshal(v["blocks"])
		if _, code := checkBlocks(string(raw)); code != "" {
			return nil, code
		}
		s.views[a["user_id"]] = v
		return map[string]any{"view": v}, ""
	}
	return nil, "unknown_method"
}

func (s *Server) newTS() string {
	s.nextTS++
	return fmt.Sprintf("%d.000100", s.nextTS)
}

func (s *Server) find(channel, ts string) *Message {
	for _, m := range s.messages {
		if m.Channel == channel && m.TS == ts {
			return m
		}
	}
	return nil
}

func (s *Server) post(a map[string]string, streamed bool) (map[string]any, string) {
	if a["channel"] == "" {
		return nil, "channel_not_found"
	}
	blocks, code := checkBlocks(a["blocks"])
	if code != "" {
		return nil, code
	}
	text := a["text"]
	if streamed {
		text = a["markdown_text"]
	}
	if text == "" && len(blocks) == 0 && !streamed {
		return nil, "no_text"
	}
	if utf8.RuneCountInString(text) > maxText {
		return nil, "msg_too_long"
	}
	m := &Message{Channel: a["channel"], TS: s.newTS(), ThreadTS: a["thread_ts"], Text: text, Blocks: blocks, Streamed: streamed}
	s.messages = append(s.messages, m)
	return map[string]any{"channel": m.Channel, "ts": m.TS, "message": map[string]any{"text": m.Text, "ts": m.TS}}, ""
}

func (s *Server) update(a map[string]string) (map[string]any, string) {
	m := s.find(a["channel"], a["ts"])
	if m == nil {
		return nil, "message_not_found"
	}
	blocks, code := checkBlocks(a["blocks"])
	if code != "" {
		return nil, code
	}
	if utf8.RuneCountInString(a["text"]) > maxText {
		return nil, "msg_too_long"
	}
	m.Text, m.Updates = a["text"], m.Updates+1
	if a["blocks"] != "" {
		m.Blocks = blocks
	}
	return map[string]any{"channel": m.Channel, "ts": m.TS, "text": m.Text}, ""
}

// stream implements chat.startStream (a reply in a thread), appendStream
// and stopStream, which append markdown_text to the message.
func (s *Server) stream(method string, a map[string]string) (map[string]any, string) {
	if utf8.RuneCountInString(a["markdown_text"]) > maxStreamText {
		return nil, "msg_too_long"
	}
	if method == "chat.startStream" {
		if a["thread_ts"] == "" {
			return nil, "invalid_arguments"
		}
		return s.post(a, true)
	}
	m := s.find(a["channel"], a["ts"])
	switch {
	case m == nil || !m.Streamed:
		return nil, "message_not_found"
	case m.Stopped:
		return nil, "message_not_in_streaming_state"
	}
	blocks, code := checkBlocks(a["blocks"])
	if code != "" {
		return nil, code
	}
	m.Text += a["markdown_text"]
	if method == "chat.stopStream" {
		m.Stopped = true
		if len(blocks) > 0 {
			m.Blocks = blocks
		}
	}
	return map[string]any{"channel": m.Channel, "ts": m.TS}, ""
}

// checkBlocks decodes a blocks argument and applies Slack's limits.
func checkBlocks(raw string) ([]map[string]any, string) {
	if raw == "" || raw == "null" {
		return nil, ""
	}
	var blocks []map[string]any
	if err := json.Unmarshal([]byte(raw), &blocks); err != nil {
		return nil, "invalid_blocks_format"
	}
	if len(blocks) > maxBlocks {
		return nil, "invalid_blocks"
	}
	ids := map[string]bool{}
	for _, b := range blocks {
		if !blockOK(b) || !uniqueIDs(b, ids) {
			return nil, "invalid_blocks"
		}
	}
	return blocks, ""
}

// uniqueIDs reports whether b's block_id and its elements' action_ids are
// new in the message.
func uniqueIDs(b map[string]any, seen map[string]bool) bool {
	ids := []string{"block:" + str(b["block_id"])}
	if acc, ok := b["accessory"].(map[string]any); ok {
		ids = append(ids, "action:"+str(acc["action_id"]))
	}
	for _, e := range list(b["elements"]) {
		ids = append(ids, "action:"+str(e["action_id"]))
	}
	for _, id := range ids {
		if id == "block:" || id == "action:" {
			continue
		}
		if seen[id] {
			return false
		}
		seen[id] = true
	}
	return true
}

func blockOK(b map[string]any) bool {
	switch b["type"] {
	case "section":
		if t, ok := b["text"].(map[string]any); ok && utf8.RuneCountInString(str(t["text"])) > maxSectionText {
			return false
		}
		for _, f := range list(b["fields"]) {
			if utf8.RuneCountInString(str(f["text"])) > 2000 {
				return false
			}
		}
		if acc, ok := b["accessory"].(map[string]any); ok {
			return elementOK(acc)
		}
	case "actions":
		els := list(b["elements"])
		if len(els) == 0 || len(els) > 25 {
			return false
		}
		for _, e := range els {
			if !elementOK(e) {
				return false
			}
		}
	case "header":
		t, _ := b["text"].(map[string]any)
		return utf8.RuneCountInString(str(t["text"])) <= 150
	case "context":
		return len(list(b["elements"])) <= 10
	case "divider", "image":
	default:
		return false
	}
	return true
}

func elementOK(e map[string]any) bool {
	switch e["type"] {
	case "button":
		t, _ := e["text"].(map[string]any)
		return utf8.RuneCountInString(str(t["text"])) <= maxButtonText && len(str(e["value"])) <= maxButtonValue &&
			len(str(e["action_id"])) <= 255 && str(e["action_id"]) != ""
	case "image":
		return str(e["image_url"]) != "" && str(e["alt_text"]) != ""
	case "static_select":
		return selectOK(e)
	}
	return false
}

// selectOK applies Slack's limits to a static_select: an action_id, a
// plain_text placeholder of at most 150 characters if any, 1–100 options
// of plain_text up to 75 characters and a value up to 150, values unique.
func selectOK(e map[string]any) bool {
	if id := str(e["action_id"]); id == "" || len(id) > 255 {
		return false
	}
	if ph, ok := e["placeholder"].(map[string]any); ok && (ph["type"] != "plain_text" || utf8.RuneCountInString(str(ph["text"])) > 150) {
		return false
	}
	opts := list(e["options"])
	if len(opts) == 0 || len(opts) > 100 {
		return false
	}
	values := map[string]bool{}
	for _, o := range opts {
		t, _ := o["text"].(map[string]any)
		v := str(o["value"])
		if t["type"] != "plain_text" || str(t["text"]) == "" || utf8.RuneCountInString(str(t["text"])) > 75 ||
			v == "" || len(v) > 150 || values[v] {
			return false
		}
		values[v] = true
	}
	return true
}

func str(v any) string { s, _ := v.(string); return s }

func list(v any) []map[string]any {
	raw, _ := v.([]any)
	out := make([]map[string]any, 0, len(raw))
	for _, x := range raw {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// assistantThreads checks the arguments of the assistant.threads methods
// as Slack does: a channel and thread always; setTitle a title; the
// prompts of setSuggestedPrompts a JSON array of one to four
// {title, message} objects, both non-empty. setStatus takes an empty
// status: it clears the status.
func assistantThreads(method string, a map[string]string) (map[string]any, string) {
	if a["channel_id"] == "" || a["thread_ts"] == "" {
		return nil, "invalid_arguments"
	}
	switch method {
	case "assistant.threads.setTitle":
		if a["title"] == "" {
			return nil, "invalid_arguments"
		}
	case "assistant.threads.setSuggestedPrompts":
		var prompts []struct{ Title, Message string }
		if err := json.Unmarshal([]byte(a["prompts"]), &prompts); err != nil || len(prompts) < 1 || len(prompts) > 4 {
			return nil, "invalid_arguments"
		}
		for _, p := range prompts {
			if p.Title == "" || p.Message == "" {
				return nil, "invalid_arguments"
			}
		}
	}
	return map[string]any{}, ""
}
