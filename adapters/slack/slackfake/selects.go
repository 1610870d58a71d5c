package slackfake

import "fmt"

// SelectAction is the "actions" entry of a block_actions payload when a
// member picks an option of a static_select, as Slack sends it: the
// select's block and action ids, its type, the chosen option (text and
// value) and its placeholder.
func SelectAction(blockID, actionID, value, label, placeholder, actionTS string) map[string]any {
	return map[string]any{
		"type": "static_select", "block_id": blockID, "action_id": actionID, "action_ts": actionTS,
		"selected_option": map[string]any{
			"text":  map[string]any{"type": "plain_text", "text": label, "emoji": true},
			"value": value,
		},
		"placeholder": map[string]any{"type": "plain_text", "text": placeholder, "emoji": true},
	}
}

// FindSelect returns the block id, action id and placeholder of the
// static_select in blocks that offers value, and the option's label.
func FindSelect(blocks []map[string]any, value string) (blockID, actionID, label, placeholder string, err error) {
	for _, b := range blocks {
		for _, e := range list(b["elements"]) {
			if e["type"] != "static_select" {
				continue
			}
			for _, o := range list(e["options"]) {
				if str(o["value"]) != value {
					continue
				}
				t, _ := o["text"].(map[string]any)
				ph, _ := e["placeholder"].(map[string]any)
				return str(b["block_id"]), str(e["action_id"]), str(t["text"]), str(ph["text"]), nil
			}
		}
	}
	return "", "", "", "", fmt.Errorf("slackfake: no static_select option %q", value)
}
