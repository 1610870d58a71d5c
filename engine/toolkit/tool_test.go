package toolkit

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/session"
)

// echo is a tool that returns its decoded argument, or panics when asked.
func echo() Tool {
	return Tool{
		Name: "echo", Description: "echo",
		Schema: Object(map[string]any{"word": Str("a word", 8), "n": Integer("", 1, 3)}, "word"),
		Run: func(_ context.Context, _ *session.Session, raw json.RawMessage) (Result, error) {
			var a struct {
				Word string `json:"word"`
				N    int    `json:"n"`
			}
			if err := DecodeArgs(raw, &a); err != nil {
				return Result{}, err
			}
			if a.Word == "boom" {
				panic("boom")
			}
			return Result{Data: map[string]any{"word": a.Word, "n": a.N}}, nil
		},
	}
}

// TestCallRefusesBadArguments: each kind of bad call comes back as an
// error the model reads, and the tool does not run.
func TestCallRefusesBadArguments(t *testing.T) {
	tb, err := NewToolbox(echo())
	if err != nil {
		t.Fatal(err)
	}
	ctx, s := context.Background(), &session.Session{State: &session.State{}}
	for _, tc := range []struct{ name, args, want string }{
		{"nope", `{}`, "unknown tool"},
		{"echo", `{"word":"` + strings.Repeat("a", maxArgsBytes) + `"}`, "too long"},
		{"echo", `{"word":`, "not valid JSON"},
		{"echo", `{}`, "word"},
		{"echo", `{"word":"far too long"}`, "maxLength"},
		{"echo", `{"word":"hi","n":9}`, "maximum"},
		{"echo", `{"word":"hi","customer_id":7}`, "additional"},
	} {
		_, err := tb.Call(ctx, s, tc.name, tc.args)
		msg, isErr := ModelMessage(Result{}, err)
		if !isErr || !strings.Contains(msg, tc.want) {
			t.Errorf("%s(%.30q) = %s, want an error with %q", tc.name, tc.args, msg, tc.want)
		}
	}
	res, err := tb.Call(ctx, s, "echo", ` `)
	if msg, _ := ModelMessage(res, err); !strings.Contains(msg, "word") {
		t.Errorf("blank arguments are {}: %s", msg)
	}
	res, err = tb.Call(ctx, s, "echo", `{"word":"hi","n":2}`)
	if msg, isErr := ModelMessage(res, err); isErr || msg != `{"n":2,"word":"hi"}` {
		t.Errorf("good call = %s", msg)
	}
}

// TestCallRecoversPanic: a panicking tool is an internal failure, which
// the model reads as a generic one.
func TestCallRecoversPanic(t *testing.T) {
	tb, err := NewToolbox(echo())
	if err != nil {
		t.Fatal(err)
	}
	_, err = tb.Call(context.Background(), &session.Session{State: &session.State{}}, "echo", `{"word":"boom"}`)
	if err == nil || IsUserError(err) {
		t.Fatalf("panic = %v", err)
	}
	if msg, _ := ModelMessage(Result{}, err); strings.Contains(msg, "boom") || !strings.Contains(msg, "failed") {
		t.Errorf("model reads %s", msg)
	}
}

// TestModelMessageClassifiesErrors: catalog errors the shopper can fix
// reach the model without the package prefix; others do not reach it.
func TestModelMessageClassifiesErrors(t *testing.T) {
	msg, _ := ModelMessage(Result{}, errors.Join(catalog.ErrOutOfStock))
	if !strings.Contains(msg, "out of stock") || strings.Contains(msg, "catalog:") {
		t.Errorf("out of stock: %s", msg)
	}
	if msg, _ := ModelMessage(Result{}, errors.New("db: connection reset")); strings.Contains(msg, "connection") {
		t.Errorf("internal error leaks: %s", msg)
	}
}

// TestSpecsAreLean: what the model reads leaves out string bounds and
// empty descriptions, which Call still enforces.
func TestSpecsAreLean(t *testing.T) {
	tb, err := NewToolbox(echo())
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(tb.Specs()[0].Parameters)
	if strings.Contains(string(raw), "maxLength") || strings.Contains(string(raw), `"description":""`) || !strings.Contains(string(raw), `"maximum":3`) {
		t.Errorf("spec = %s", raw)
	}
}
