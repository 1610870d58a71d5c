package toolkit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"shopbot/catalog"
	"shopbot/catalog/clip"
	"shopbot/engine/llm"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

// Tool is one function the model (or the offline planner, or a button) can
// call. Each tool lives in its own file, named after the tool.
type Tool struct {
	Name        string
	Description string
	// Schema is the JSON Schema of the arguments: an object with
	// additionalProperties false, enums and bounds. No tool has a user,
	// customer, chat or cart id parameter.
	Schema map[string]any
	// Run executes the tool for the session. args have been validated
	// against Schema. An error becomes a tool error the model can act on.
	Run func(ctx context.Context, s *session.Session, args json.RawMessage) (Result, error)

	compiled *jsonschema.Schema
}

// Result is what a tool returns: compact data for the model, and what the
// adapters render (cards, cart, order, buttons).
type Result struct {
	Data    any // marshalled as the tool message the model reads
	Cards   []view.Card
	Cart    *view.CartView
	Order   *view.OrderView
	Buttons []view.Button
	// Picker asks which variant of a product to add (add_to_cart on a
	// product with variants and no full choice of options).
	Picker *view.Picker
}

// ToolError is a problem the model (or shopper) can fix: a bad argument, an
// unknown SKU, not enough stock. Its message is shown to the model as is.
type ToolError struct {
	Msg string
	// NoOptions marks options given for a product without variants
	// (add_to_cart), so a caller that read them from loose words can add
	// the product as it is.
	NoOptions bool
}

func (e *ToolError) Error() string { return e.Msg }

// Errorf builds a ToolError.
func Errorf(format string, args ...any) error {
	return &ToolError{Msg: fmt.Sprintf(format, args...)}
}

// Toolbox holds the tools by name, their schemas compiled.
type Toolbox struct {
	byName map[string]*Tool
	order  []*Tool
	specs  []llm.ToolSpec
}

// NewToolbox compiles the tools' schemas. A broken schema is a programming
// error and fails here, at startup.
func NewToolbox(tools ...Tool) (*Toolbox, error) {
	tb := &Toolbox{byName: map[string]*Tool{}}
	for i := range tools {
		t := tools[i]
		if err := t.compile(); err != nil {
			return nil, err
		}
		tb.byName[t.Name] = &t
		tb.order = append(tb.order, &t)
		tb.specs = append(tb.specs, llm.ToolSpec{Name: t.Name, Description: t.Description, Parameters: lean(t.Schema)})
	}
	return tb, nil
}

func (t *Tool) compile() error {
	raw, err := json.Marshal(t.Schema)
	if err != nil {
		return fmt.Errorf("engine: tool %s schema: %w", t.Name, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("engine: tool %s schema: %w", t.Name, err)
	}
	c := jsonschema.NewCompiler()
	url := "tool://" + t.Name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return fmt.Errorf("engine: tool %s schema: %w", t.Name, err)
	}
	if t.compiled, err = c.Compile(url); err != nil {
		return fmt.Errorf("engine: tool %s schema: %w", t.Name, err)
	}
	return nil
}

// Has reports whether the toolbox has a tool of that name.
func (tb *Toolbox) Has(name string) bool {
	_, ok := tb.byName[name]
	return ok
}

// Specs describes every tool to the model. String length and object size
// bounds are left out of what the model reads (they cost prompt tokens on every call and
// matter only to hostile input); Call still enforces the full schema.
func (tb *Toolbox) Specs() []llm.ToolSpec { return tb.specs }

// lean copies a schema without minLength/maxLength/maxProperties.
func lean(schema map[string]any) map[string]any {
	out := make(map[string]any, len(schema))
	for k, v := range schema {
		switch k {
		case "minLength", "maxLength", "maxProperties":
			continue
		case "description":
			if v == "" {
				continue
			}
		}
		switch x := v.(type) {
		case map[string]any:
			v = lean(x)
		}
		out[k] = v
	}
	return out
}

// maxArgsBytes bounds tool arguments; the longest legitimate call (a
// checkout with an address) is far below it.
const maxArgsBytes = 4 << 10

// Call validates the arguments and runs the named tool. Unknown tools,
// malformed JSON and schema violations come back as a ToolError; a panic in
// a tool is recovered into an error, never a crash.
func (tb *Toolbox) Call(ctx context.Context, s *session.Session, name string, args string) (res Result, err error) {
	t, ok := tb.byName[name]
	if !ok {
		return Result{}, Errorf("unknown tool %q; use one of the tools listed", clip.Shorten(name, 40))
	}
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	if len(args) > maxArgsBytes {
		return Result{}, Errorf("arguments too long (%d bytes, at most %d)", len(args), maxArgsBytes)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(args))
	if err != nil {
		return Result{}, Errorf("arguments are not valid JSON: %v", err)
	}
	if err := t.compiled.Validate(inst); err != nil {
		return Result{}, Errorf("arguments do not match the schema: %s", schemaMessage(err))
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("engine: tool %s panicked: %v", name, p)
		}
	}()
	return t.Run(ctx, s, json.RawMessage(args))
}

// schemaMessage flattens a validation error into one line for the model.
func schemaMessage(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	var parts []string
	var walk func(u *jsonschema.OutputUnit)
	walk = func(u *jsonschema.OutputUnit) {
		if u.Error != nil {
			loc := u.InstanceLocation
			if loc == "" {
				loc = "arguments"
			}
			parts = append(parts, loc+": "+u.Error.String())
		}
		for i := range u.Errors {
			walk(&u.Errors[i])
		}
	}
	walk(ve.BasicOutput())
	if len(parts) == 0 {
		return strings.ReplaceAll(err.Error(), "\n", "; ")
	}
	return strings.Join(parts, "; ")
}

// DecodeArgs decodes validated arguments into a tool's typed struct.
func DecodeArgs(args json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Errorf("arguments: %v", err)
	}
	return nil
}

// ToMinor converts a decimal amount in the shop currency (as the model
// writes prices) to minor units, rounding to the nearest unit.
func ToMinor(amount float64, currency string) (int64, error) {
	if amount < 0 || math.IsNaN(amount) || math.IsInf(amount, 0) || amount > 1e9 {
		return 0, Errorf("price %v out of range (0 to 1000000000)", amount)
	}
	digits, ok := catalog.CurrencyDigits(currency)
	if !ok {
		digits = 2
	}
	return int64(math.Round(amount * math.Pow10(digits))), nil
}

// userErrors are catalog errors the shopper or model can act on; their
// message goes to the model. Anything else is an internal failure.
var userErrors = []error{
	catalog.ErrNotFound, catalog.ErrOutOfStock, catalog.ErrInvalid, catalog.ErrEmptyCart,
	catalog.ErrIdempotencyKey, catalog.ErrInvalidTransition,
}

// IsUserError reports an error the shopper or model caused and can fix.
func IsUserError(err error) bool {
	var te *ToolError
	if errors.As(err, &te) {
		return true
	}
	for _, ue := range userErrors {
		if errors.Is(err, ue) {
			return true
		}
	}
	return false
}

// ModelMessage is the one place a tool's outcome becomes what the model
// reads: data as compact JSON, or {"error": "..."}.
func ModelMessage(res Result, err error) (content string, isErr bool) {
	if err == nil {
		return JSON(res.Data), false
	}
	var te *ToolError
	if errors.As(err, &te) {
		return JSON(map[string]string{"error": te.Msg}), true
	}
	if IsUserError(err) {
		return JSON(map[string]string{"error": strings.ReplaceAll(err.Error(), "catalog: ", "")}), true
	}
	return JSON(map[string]string{"error": "the tool failed; try again later or tell the shopper"}), true
}

// FoundNothing marks a search result's content (a JSON object) with
// catalog.SearchFoundNothing: the shopper was told nothing matches,
// whatever the search returned, so the dashboard counts the search among
// those that found nothing. Content that is no object stays as it is.
func FoundNothing(content string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(content), &m) != nil || m == nil {
		return content
	}
	m[catalog.SearchFoundNothing] = json.RawMessage("true")
	return JSON(m)
}

// JSON encodes compactly without HTML escaping: the model reads
// "Shoes > Running", not "Shoes \u003e Running".
func JSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return `{"error":"result could not be encoded"}`
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Lookup returns the named tool (a copy; its schema is shared, read it
// only), for a door that describes the tools to someone else (an MCP
// server, adapters/mcp).
func (tb *Toolbox) Lookup(name string) (Tool, bool) {
	t, ok := tb.byName[name]
	if !ok {
		return Tool{}, false
	}
	return *t, true
}
