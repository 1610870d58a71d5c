package agentdoor

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
)

// An agent's writes carry an idempotency key (IdempotencyArg): the
// engine (CallTool) answers the same key again in the same session with the first
// reply, kept in the conversation state with the turn that made it
// (session.State.Agent), and runs nothing. The key is also the turn's
// DedupKey, so the order a checkout places is idempotent on it in the
// database too, and each effect is journaled once under it.

// IdempotencyArg is the argument that carries a write's idempotency key.
const IdempotencyArg = "idempotency_key"

// MaxIdempotencyKey is the longest idempotency key (bytes).
const MaxIdempotencyKey = 64

// maxAgentArgs bounds an agent's raw arguments before they are parsed;
// Toolbox.Call bounds them again without the key.
const maxAgentArgs = 4096 + 128

// ErrKeyReused is a write whose key an earlier, different call of the
// session used.
var ErrKeyReused = errors.New("this idempotency_key was used for a different call in this session; use a new key for a new write")

// WithKey is schema with the required idempotency key.
func WithKey(schema map[string]any) map[string]any {
	out := maps.Clone(schema)
	props := map[string]any{}
	if p, ok := schema["properties"].(map[string]any); ok {
		props = maps.Clone(p)
	}
	props[IdempotencyArg] = map[string]any{
		"type": "string", "minLength": 1, "maxLength": MaxIdempotencyKey, "pattern": "^[A-Za-z0-9._:-]+$",
		"description": "a key unique to this write (e.g. a UUID); sending the same key again returns the first result and changes nothing",
	}
	out["properties"] = props
	req := []string{IdempotencyArg}
	if r, ok := schema["required"].([]string); ok {
		req = append(append([]string(nil), r...), IdempotencyArg)
	}
	out["required"] = req
	return out
}

// TakeKey splits a write's arguments into its key and the
// tool's own arguments.
func TakeKey(args string) (key, rest string, err error) {
	if len(args) > maxAgentArgs {
		return "", "", fmt.Errorf("arguments too long (%d bytes, at most %d)", len(args), maxAgentArgs)
	}
	var m map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader([]byte(args)))
	if args == "" || dec.Decode(&m) != nil || m == nil {
		return "", "", errors.New("arguments must be a JSON object with " + IdempotencyArg)
	}
	raw, ok := m[IdempotencyArg]
	if !ok {
		return "", "", errors.New(IdempotencyArg + " is required: a key unique to this write")
	}
	if json.Unmarshal(raw, &key) != nil || !validKey(key) {
		return "", "", fmt.Errorf("%s must be 1 to %d characters of letters, digits and . _ : -", IdempotencyArg, MaxIdempotencyKey)
	}
	delete(m, IdempotencyArg)
	b, err := json.Marshal(m)
	if err != nil {
		return "", "", fmt.Errorf("engine: agent arguments: %w", err)
	}
	return key, string(b), nil
}

func validKey(k string) bool {
	if k == "" || len(k) > MaxIdempotencyKey {
		return false
	}
	for _, r := range k {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == ':' || r == '-'
		if !ok {
			return false
		}
	}
	return true
}

// Digest tells one call from another under the same key.
func Digest(name, args string) string {
	sum := sha256.Sum256([]byte(name + "\x00" + args))
	return hex.EncodeToString(sum[:12])
}

// Refused is a refused write as the tool error an agent reads.
func Refused(err error) Reply {
	b, _ := json.Marshal(map[string]string{"error": err.Error()}) // a map of strings always marshals
	return Reply{Content: string(b), IsError: true}
}
