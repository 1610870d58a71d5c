package openai

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestChunkDecodesAsEncodingJSON: chunk's one-pass decoder reads the
// chunks OpenAI-compatible servers stream exactly as encoding/json's
// reflective decoding of the same fields would.
func TestChunkDecodesAsEncodingJSON(t *testing.T) {
	type plain chunk // the same fields without the UnmarshalJSON method
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
		var got chunk
		if err := json.Unmarshal([]byte(in), &got); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		var want plain
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("%s: reflective: %v", in, err)
		}
		if !reflect.DeepEqual(got, chunk(want)) {
			t.Errorf("%s:\n got %+v\nwant %+v", in, got, want)
		}
	}
	for _, in := range []string{`[]`, `"text"`, `12`} {
		var c chunk
		if err := json.Unmarshal([]byte(in), &c); err == nil {
			t.Errorf("%s decoded as a chunk: %+v", in, c)
		}
	}
}
