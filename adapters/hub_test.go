package adapters

import (
	"context"
	"errors"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/view"
)

type recorder struct{ got []view.Notice }

func (r *recorder) Notify(_ context.Context, n view.Notice) error {
	r.got = append(r.got, n)
	return nil
}

func TestHubRoutesShopperAndMerchantNotices(t *testing.T) {
	h := NewHub()
	tg, slack, team := &recorder{}, &recorder{}, &recorder{}
	h.Shoppers("telegram", tg)
	h.Shoppers("slack", slack)
	h.Merchants(team)
	ctx := context.Background()

	status := view.Notice{Kind: view.NoticeOrderStatus, Where: catalog.ConversationKey{Channel: "telegram", ChatID: "42"}}
	if err := h.Notify(ctx, status); err != nil {
		t.Fatal(err)
	}
	placed := view.Notice{Kind: view.NoticeOrderPlaced, Where: catalog.ConversationKey{Channel: "telegram", ChatID: "42"}}
	if err := h.Notify(ctx, placed); err != nil {
		t.Fatal(err)
	}
	if len(tg.got) != 1 || tg.got[0].Kind != view.NoticeOrderStatus {
		t.Errorf("telegram got %+v, want the status notice only", tg.got)
	}
	if len(slack.got) != 0 {
		t.Errorf("slack got %+v, want nothing", slack.got)
	}
	if len(team.got) != 1 || team.got[0].Kind != view.NoticeOrderPlaced {
		t.Errorf("merchants got %+v, want the new order only", team.got)
	}

	web := view.Notice{Kind: view.NoticeMerchantReply, Where: catalog.ConversationKey{Channel: "web", ChatID: "s"}}
	if err := h.Notify(ctx, web); !errors.Is(err, ErrNoRoute) {
		t.Errorf("notice to an unregistered channel: err = %v, want ErrNoRoute", err)
	}
	csat := view.Notice{Kind: view.NoticeCSAT, Where: catalog.ConversationKey{Channel: "telegram", ChatID: "1"}}
	if err := h.Notify(ctx, csat); err != nil || tg.got[len(tg.got)-1].Kind != view.NoticeCSAT {
		t.Errorf("rating prompt to telegram: %v, got %+v", err, tg.got)
	}
	if err := h.Notify(ctx, view.Notice{Kind: "bogus"}); err == nil {
		t.Error("unknown kind: want an error")
	}
}
