package openai

// The wire side of the client: request parameters and the
// assembly of a streamed completion.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptrace"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/tidwall/gjson"

	"shopbot/catalog"
	"shopbot/engine/llm"
)

// body builds the request body. Tools go out as plain function tools:
// strict mode would demand every property be required, and our schemas
// have optional ones.
//
// The body is encoded here rather than by the SDK from
// ChatCompletionNewParams: its reflective encoder, and splicing raw parts
// in with option.WithJSONSet (which re-parses the body per part), cost
// more CPU than the rest of a turn. The tool schemas, the same on every
// call, are encoded once per tool set. "stream" comes first because the
// SDK sets it again on the finished body, which is cheapest at the start.
func (o *Client) body(req llm.ChatRequest) (*bytes.Buffer, error) {
	model, err := json.Marshal(o.model)
	if err != nil {
		return nil, err
	}
	b := bodies.Get().(*bytes.Buffer)
	b.Reset()
	b.Grow(int(o.bodySize.Load()))
	b.WriteString(`{"stream":true,"model":`)
	b.Write(model)
	b.WriteString(`,"stream_options":{"include_usage":true},"messages":`)
	if err := writeMessages(b, req.Messages); err != nil {
		return nil, err
	}
	if len(req.Tools) > 0 { // the API rejects tool_choice without tools
		tools, err := o.tools.encode(req.Tools)
		if err != nil {
			return nil, fmt.Errorf("encode tool schemas: %w", err)
		}
		b.WriteString(`,"tool_choice":"auto","parallel_tool_calls":true,"tools":`)
		b.Write(tools)
	}
	b.WriteByte('}')
	// The next body is likely as big: sized up front, it is built in one
	// allocation.
	o.bodySize.Store(int32(min(b.Len()+1024, 1<<24)))
	return b, nil
}

// bodies keeps request bodies for reuse. A body is tens of kilobytes (the
// history and the tool schemas), allocated zeroed and collected on every
// model call otherwise; with thousands of conversations waiting on the
// model, that was the engine's largest allocation. A body goes back only
// when the HTTP transport has finished writing every request it started
// with it (bodyWrites); one whose write failed or may still be running (a
// server that answered before reading it all, a cancelled request) is
// left to the garbage collector.
var bodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// bodyWrites follows the transport's writes of one call's body, attempts
// and the transport's own retries included: each connection it got for
// the request starts a write, and WroteRequest ends it (the transport
// calls it after the body, from the goroutine that read it).
type bodyWrites struct {
	started, finished atomic.Int32
	failed            atomic.Bool
}

func (w *bodyWrites) trace(ctx context.Context) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(httptrace.GotConnInfo) { w.started.Add(1) },
		WroteRequest: func(info httptrace.WroteRequestInfo) {
			if info.Err != nil {
				w.failed.Store(true)
			}
			w.finished.Add(1)
		},
	})
}

// done reports whether no write of the body can still be running.
func (w *bodyWrites) done() bool {
	return !w.failed.Load() && w.finished.Load() == w.started.Load()
}

// maxPooledBody bounds what the pool keeps: one huge request must not pin
// its buffer for the life of the process.
const maxPooledBody = 1 << 20

func releaseBody(b *bytes.Buffer) {
	if b.Cap() <= maxPooledBody {
		bodies.Put(b)
	}
}

// toolsCache remembers the wire encoding of the last tool set.
type toolsCache struct {
	mu    sync.Mutex
	first *llm.ToolSpec // identity of the cached set: its first element
	n     int
	raw   json.RawMessage
}

func (c *toolsCache) encode(specs []llm.ToolSpec) (json.RawMessage, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.first == &specs[0] && c.n == len(specs) {
		return c.raw, nil
	}
	type function struct {
		Name        string         `json:"name"`
		Description string         `json:"description,omitempty"`
		Parameters  map[string]any `json:"parameters,omitempty"`
	}
	type tool struct {
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	wire := make([]tool, len(specs))
	for i, t := range specs {
		wire[i] = tool{Type: "function", Function: function{Name: t.Name, Description: t.Description, Parameters: t.Parameters}}
	}
	raw, err := json.Marshal(wire)
	if err != nil {
		return nil, err
	}
	c.first, c.n, c.raw = &specs[0], len(specs), raw
	return raw, nil
}

// writeMessages encodes the conversation into the request body. Like the
// tool schemas, messages are encoded here rather than by the SDK's
// reflective encoder, which cost more than the rest of a turn's CPU time
// together. The shapes are the API's: an assistant turn that only called
// tools has no content (as the API itself returns it), and tool call
// arguments are never empty (servers parse them as JSON).
func writeMessages(b *bytes.Buffer, msgs []llm.ChatMessage) error {
	out := make([]wireMessage, len(msgs))
	for i, m := range msgs {
		w := wireMessage{Role: string(m.Role), Content: &msgs[i].Content}
		switch m.Role {
		case catalog.RoleSystem, catalog.RoleUser:
		case catalog.RoleTool:
			w.ToolCallID = m.ToolCallID
		case catalog.RoleAssistant:
			if m.Content == "" && len(m.ToolCalls) > 0 {
				w.Content = nil
			}
			for _, tc := range m.ToolCalls {
				call := wireToolCall{ID: tc.ID, Type: "function"}
				call.Function.Name, call.Function.Arguments = tc.Name, cmp.Or(tc.Arguments, "{}")
				w.ToolCalls = append(w.ToolCalls, call)
			}
		default:
			return fmt.Errorf("message %d: role %q cannot be sent to the model", i, m.Role)
		}
		out[i] = w
	}
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	return nil
}

type wireMessage struct {
	Role       string         `json:"role"`
	Content    *string        `json:"content,omitempty"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type wireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// chunk is one streamed chat.completion.chunk, decoded into only the
// fields we read. openai-go's ChatCompletionChunk decodes every field
// through its reflective decoder and keeps metadata for each; on a fast
// model that decoding was the largest single cost of a turn.
type chunk struct {
	Model   string        `json:"model"`
	Choices []chunkChoice `json:"choices"`
	Usage   *chunkUsage   `json:"usage"`
}

type chunkChoice struct {
	Index int64 `json:"index"`
	Delta struct {
		Content   string           `json:"content"`
		Refusal   string           `json:"refusal"`
		ToolCalls []chunkToolDelta `json:"tool_calls"`
	} `json:"delta"`
	FinishReason string `json:"finish_reason"`
}

type chunkToolDelta struct {
	Index    int64  `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type chunkUsage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// errMalformedChunk marks a stream event whose data is not a JSON object.
var errMalformedChunk = errors.New("malformed stream chunk")

// decodeEvent reads one server-sent event of the stream: a chunk, or the
// error event a server may send mid-stream ({"error": …}), reported as
// the SDK's own stream reports it (*ssestream.StreamError). The events are
// read here rather than through the SDK's ssestream.Stream, whose
// encoding/json decoding scanned every chunk twice before decoding it: a
// model streams a chunk per token, hundreds for a long answer.
func decodeEvent(ev ssestream.Event) (chunk, error) {
	if !gjson.ValidBytes(ev.Data) {
		return chunk{}, fmt.Errorf("%w: %.40s", errMalformedChunk, ev.Data)
	}
	var c chunk
	errEvent, err := c.decode(ev.Data)
	if err != nil {
		return chunk{}, err
	}
	if errEvent.Exists() {
		return chunk{}, &ssestream.StreamError{Message: "received error while streaming: " + errEvent.String(), Event: ev}
	}
	return c, nil
}

// decode reads valid JSON b in one pass over its fields with gjson, and
// returns its "error" member (a stream's error event) if it has one.
// encoding/json's reflective decoding was most of the stream's cost.
// Fields of another type than the API's are read as their zero value.
func (c *chunk) decode(b []byte) (errEvent gjson.Result, err error) {
	r := gjson.ParseBytes(b)
	if r.Type == gjson.Null {
		return errEvent, nil // as encoding/json leaves a struct on null
	}
	if !r.IsObject() {
		return errEvent, fmt.Errorf("%w: not an object: %.40s", errMalformedChunk, b)
	}
	*c = chunk{}
	r.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "model":
			c.Model = v.Str
		case "choices":
			if v.IsArray() {
				c.Choices = []chunkChoice{}
			}
			v.ForEach(func(_, ch gjson.Result) bool {
				c.Choices = append(c.Choices, decodeChoice(ch))
				return true
			})
		case "usage":
			if v.IsObject() {
				c.Usage = &chunkUsage{PromptTokens: v.Get("prompt_tokens").Int(), CompletionTokens: v.Get("completion_tokens").Int()}
			}
		case "error":
			errEvent = v
		}
		return true
	})
	return errEvent, nil
}

func decodeChoice(ch gjson.Result) chunkChoice {
	var out chunkChoice
	ch.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "index":
			out.Index = v.Int()
		case "finish_reason":
			out.FinishReason = v.Str
		case "delta":
			v.ForEach(func(k, v gjson.Result) bool {
				switch k.Str {
				case "content":
					out.Delta.Content = v.Str
				case "refusal":
					out.Delta.Refusal = v.Str
				case "tool_calls":
					if v.IsArray() {
						out.Delta.ToolCalls = []chunkToolDelta{}
					}
					v.ForEach(func(_, t gjson.Result) bool {
						out.Delta.ToolCalls = append(out.Delta.ToolCalls, decodeToolDelta(t))
						return true
					})
				}
				return true
			})
		}
		return true
	})
	return out
}

func decodeToolDelta(t gjson.Result) chunkToolDelta {
	var out chunkToolDelta
	t.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "index":
			out.Index = v.Int()
		case "id":
			out.ID = v.Str
		case "function":
			out.Function.Name, out.Function.Arguments = v.Get("name").Str, v.Get("arguments").Str
		}
		return true
	})
	return out
}

// streamAccumulator assembles one streamed completion. Only choice 0 counts: we
// never ask for more than one.
type streamAccumulator struct {
	text     strings.Builder
	calls    []*toolCallBuilder
	byIndex  map[int64]*toolCallBuilder
	model    string
	usage    chunkUsage
	finished bool
}

type toolCallBuilder struct {
	id, name string
	args     strings.Builder
}

// add folds one chunk in and returns its new text.
func (a *streamAccumulator) add(c chunk) string {
	a.model = cmp.Or(a.model, c.Model)
	if c.Usage != nil && (c.Usage.PromptTokens != 0 || c.Usage.CompletionTokens != 0) {
		a.usage = *c.Usage
	}
	var text string
	for _, choice := range c.Choices {
		if choice.Index != 0 {
			continue
		}
		text += choice.Delta.Content + choice.Delta.Refusal
		for _, d := range choice.Delta.ToolCalls {
			a.addToolCall(d)
		}
		a.finished = a.finished || choice.FinishReason != ""
	}
	a.text.WriteString(text)
	return text
}

// addToolCall appends a fragment to the call at its index. A new id at a
// known index starts a new call: some servers send every call at index 0.
func (a *streamAccumulator) addToolCall(d chunkToolDelta) {
	b := a.byIndex[d.Index]
	if b == nil || (d.ID != "" && b.id != "" && d.ID != b.id) {
		b = &toolCallBuilder{}
		a.calls = append(a.calls, b)
		if a.byIndex == nil {
			a.byIndex = map[int64]*toolCallBuilder{}
		}
		a.byIndex[d.Index] = b
	}
	b.id = cmp.Or(b.id, d.ID)
	b.name = cmp.Or(b.name, d.Function.Name)
	b.args.WriteString(d.Function.Arguments)
}

func (a *streamAccumulator) response(configuredModel string) llm.ChatResponse {
	resp := llm.ChatResponse{
		Text:             a.text.String(),
		Model:            cmp.Or(a.model, configuredModel),
		PromptTokens:     int(a.usage.PromptTokens),
		CompletionTokens: int(a.usage.CompletionTokens),
	}
	for i, b := range a.calls {
		resp.ToolCalls = append(resp.ToolCalls, catalog.ToolCall{
			ID:        cmp.Or(b.id, fmt.Sprintf("call_%d", i)), // tool results need an id to answer
			Name:      b.name,
			Arguments: b.args.String(),
		})
	}
	return resp
}
