package engine

// The wire side of the OpenAI client: request parameters and the
// assembly of a streamed completion.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/openai/openai-go/v3"

	"shopbot/catalog"
)

// params builds the wire request. Tools go out as plain function tools:
// strict mode would demand every property be required, and our schemas
// have optional ones. They are encoded once per tool set (the engine sends
// the same set on every call) and spliced into the body as raw JSON: the
// SDK's reflective encoder would otherwise spend more time on the schemas
// than on everything else in the request.
func (o *OpenAI) params(req ChatRequest) (openai.ChatCompletionNewParams, json.RawMessage, error) {
	msgs, err := messagesParam(req.Messages)
	if err != nil {
		return openai.ChatCompletionNewParams{}, nil, err
	}
	p := openai.ChatCompletionNewParams{
		Model:         o.model,
		Messages:      msgs,
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if len(req.Tools) == 0 {
		return p, nil, nil // the API rejects tool_choice without tools
	}
	tools, err := o.tools.encode(req.Tools)
	if err != nil {
		return openai.ChatCompletionNewParams{}, nil, fmt.Errorf("encode tool schemas: %w", err)
	}
	p.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("auto")}
	p.ParallelToolCalls = openai.Bool(true)
	return p, tools, nil
}

// toolsCache remembers the wire encoding of the last tool set.
type toolsCache struct {
	mu    sync.Mutex
	first *ToolSpec // identity of the cached set: its first element
	n     int
	raw   json.RawMessage
}

func (c *toolsCache) encode(specs []ToolSpec) (json.RawMessage, error) {
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

func messagesParam(msgs []ChatMessage) ([]openai.ChatCompletionMessageParamUnion, error) {
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(msgs))
	for i, m := range msgs {
		switch m.Role {
		case catalog.RoleSystem:
			out = append(out, openai.SystemMessage(m.Content))
		case catalog.RoleUser:
			out = append(out, openai.UserMessage(m.Content))
		case catalog.RoleAssistant:
			out = append(out, assistantParam(m))
		case catalog.RoleTool:
			out = append(out, openai.ToolMessage(m.Content, m.ToolCallID))
		default:
			return nil, fmt.Errorf("message %d: role %q cannot be sent to the model", i, m.Role)
		}
	}
	return out, nil
}

// assistantParam replays an assistant turn. Content is left out (null)
// when the turn only called tools, as the API itself returns it.
func assistantParam(m ChatMessage) openai.ChatCompletionMessageParamUnion {
	var a openai.ChatCompletionAssistantMessageParam
	if m.Content != "" || len(m.ToolCalls) == 0 {
		a.Content.OfString = openai.String(m.Content)
	}
	for _, tc := range m.ToolCalls {
		a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID: tc.ID,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
					Name:      tc.Name,
					Arguments: cmp.Or(tc.Arguments, "{}"), // servers parse it as JSON
				},
			},
		})
	}
	return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}
}

// streamAccumulator assembles one streamed completion. Only choice 0 counts: we
// never ask for more than one.
type streamAccumulator struct {
	text     strings.Builder
	calls    []*toolCallBuilder
	byIndex  map[int64]*toolCallBuilder
	model    string
	usage    openai.CompletionUsage
	finished bool
}

type toolCallBuilder struct {
	id, name string
	args     strings.Builder
}

// add folds one chunk in and returns its new text.
func (a *streamAccumulator) add(c openai.ChatCompletionChunk) string {
	a.model = cmp.Or(a.model, c.Model)
	if c.Usage.PromptTokens != 0 || c.Usage.CompletionTokens != 0 {
		a.usage = c.Usage
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
func (a *streamAccumulator) addToolCall(d openai.ChatCompletionChunkChoiceDeltaToolCall) {
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

func (a *streamAccumulator) response(configuredModel string) ChatResponse {
	resp := ChatResponse{
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
