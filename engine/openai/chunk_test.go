package openai

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/openai/openai-go/v3/packages/ssestream"
)

// TestChunkDecodesAsEncodingJSON: the stream's one-pass decoder
// (decodeEvent) reads the chunks OpenAI-compatible servers stream exactly
// as encoding/json's reflective decoding of the same fields would, and
// refuses what is not an object.
func TestChunkDecodesAsEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","system_fingerprint":"fp","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}`,
		`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Caf\u00e9 \"quoted\" \\ back\nline 👟"},"finish_reason":null}]}`,
		`{"id":"c","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_abc","type":"function","function":{"name":"search_products","arguments":""}}]},"finish_reason":null}]}`,
		`{"id":"c","model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"query\":\"run"}},{"index":1,"id":"call_2","function":{"name":"view_cart","arguments":"{}"}}]},"finish_reason":null}]}`,
		`{"id":"c","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
		`{"id":"c","model":"m","choices":[{"index":0,"delta":{"refusal":"I can't help with that."},"finish_reason":"stop"}]}`,
		`{"id":"c","model":"m","choices":[],"usage":{"prompt_tokens":900,"completion_tokens":20,"total_tokens":920,"prompt_tokens_details":{"cached_tokens":0}}}`,
		`{"choices":[{"index":1,"delta":{"content":"second choice"}},{"index":0,"delta":{"content":"first"}}]}`,
		`{}`,
	} {
		var want chunk
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("%s: reflective: %v", in, err)
		}
		if got, err := decodeEvent(ssestream.Event{Data: []byte(in + "\n")}); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decodeEvent = %+v, %v\nwant %+v", in, got, err, want)
		}
	}
	for _, in := range []string{`[]`, `"text"`, `12`} {
		if c, err := decodeEvent(ssestream.Event{Data: []byte(in)}); err == nil {
			t.Errorf("%s decoded as a chunk: %+v", in, c)
		}
	}
}

// TestDecodeEventRefuses: an event that is not a JSON object is a
// malformed chunk, and an error event mid-stream the SDK's StreamError;
// both fail the attempt as retryable, with a reason that says which.
func TestDecodeEventRefuses(t *testing.T) {
	o := New(Config{})
	for in, reason := range map[string]string{
		`{"choices":[{"index":0,"delta":{"content":"cut`: "malformed stream chunk",
		`not json`: "malformed stream chunk",
		`[1,2]`:    "malformed stream chunk",
		`"text"`:   "malformed stream chunk",
		`{"error":{"message":"The server had an error","type":"server_error"}}`: "error event in stream",
	} {
		c, err := decodeEvent(ssestream.Event{Data: []byte(in)})
		if err == nil {
			t.Errorf("%s decoded: %+v", in, c)
			continue
		}
		if f := o.classify(err); f.reason != reason || !f.retryable {
			t.Errorf("%s: classified %+v, want retryable %q", in, f, reason)
		}
	}
	_, err := decodeEvent(ssestream.Event{Data: []byte(`{"error":{"message":"overloaded"}}`)})
	var se *ssestream.StreamError
	if !errors.As(err, &se) || se.Message != `received error while streaming: {"message":"overloaded"}` {
		t.Errorf("error event: %v, want the SDK's StreamError with the error", err)
	}
}
