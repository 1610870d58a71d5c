package intent

import (
	"shopbot/engine/session"
	"testing"
)

func TestMatchBackInStock(t *testing.T) {
	st := &session.State{Shown: []string{"A", "B"}, Focus: "A"}
	for _, tc := range []struct {
		text  string
		kind  Kind
		query string
		ref   Ref
	}{
		{"let me know when the desk lamp is back", IntentNotifyBack, "desk lamp", Ref{}},
		{"Notify me when it's back in stock", IntentNotifyBack, "", Ref{Focus: true}},
		{"tell me when the second one is available", IntentNotifyBack, "", Ref{Pos: 2}},
		{"сообщите, когда появится настольная лампа", IntentNotifyBack, "настольная лампа", Ref{}},
		{"сообщите когда появится", IntentNotifyBack, "", Ref{Focus: true}},
		// Not alerts: no "when … back", or no ask.
		{"tell me about the desk lamp", "", "", Ref{}},
		{"is the desk lamp in stock?", "", "", Ref{}},
		{"when will you ship my order", "", "", Ref{}},
	} {
		in := Parse(tc.text, "en", st)
		if tc.kind == "" {
			if in.Kind == IntentNotifyBack {
				t.Errorf("%q: parsed as a back-in-stock request", tc.text)
			}
			continue
		}
		if in.Kind != tc.kind {
			t.Errorf("%q: kind %s, want %s", tc.text, in.Kind, tc.kind)
			continue
		}
		if tc.kind != IntentNotifyBack {
			continue
		}
		if in.Query != tc.query {
			t.Errorf("%q: query %q, want %q", tc.text, in.Query, tc.query)
		}
		if tc.query == "" && (len(in.Refs) != 1 || in.Refs[0] != tc.ref) {
			t.Errorf("%q: refs %+v, want %+v", tc.text, in.Refs, tc.ref)
		}
	}
}
