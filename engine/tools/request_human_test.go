package tools

import (
	"context"
	"shopbot/engine/toolkit"
	"strings"
	"testing"

	"shopbot/catalog"
)

func TestRequestHuman(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	res := e.call(t, "request_human", `{"reason":"The shopper wants to return a\nbroken kettle"}`)
	var d struct{ Status, Message string }
	toolData(t, res, &d)
	if d.Status != "requested" || !strings.Contains(d.Message, "team member") {
		t.Errorf("data = %+v", d)
	}
	c, err := catalog.GetConversation(ctx, e.db, e.session.Conversation.ID)
	if err != nil || !c.NeedsHuman || c.NeedsHumanReason != "The shopper wants to return a broken kettle" {
		t.Errorf("conversation = %+v, %v", c, err)
	}
	for _, tc := range []struct{ args, want string }{
		{`{}`, "reason"},
		{`{"reason":"hi"}`, "minLength"},
		{`{"reason":"` + strings.Repeat("a", 501) + `"}`, "maxLength"},
		{`{"reason":"   \n  "}`, "at least 3 characters"},
	} {
		_, err := e.tools.Call(ctx, e.session, "request_human", tc.args)
		if msg, isErr := toolkit.ModelMessage(toolkit.Result{}, err); !isErr || !strings.Contains(msg, tc.want) {
			t.Errorf("request_human(%s): %s, want %q", tc.args, msg, tc.want)
		}
	}
}
