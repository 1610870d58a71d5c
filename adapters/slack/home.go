package slack

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"shopbot/engine"
	"shopbot/engine/view"
)

// homeLines bounds the lines of one cart on the Home tab.
const homeLines = 10

// publishHome shows the user's cart, the channel carts they added to and
// their recent orders on the App Home tab (views.publish); the engine
// builds the Home, this renders it.
func (a *Adapter) publishHome(ctx context.Context, user string) {
	home, err := a.cfg.Shop.Home(ctx, engine.Shopper{Channel: "slack", UserID: user, UserName: a.api.userName(ctx, user, user)})
	if err != nil {
		a.log.ErrorContext(ctx, "slack home not built", "user_id", user, "err", err)
		return
	}
	tab := slack.HomeTabViewRequest{Type: slack.VTHomeTab, Blocks: slack.Blocks{BlockSet: homeBlocks(home)}}
	err = a.api.do(ctx, "views.publish", func(ctx context.Context) error {
		_, err := a.client.PublishViewContext(ctx, slack.PublishViewContextRequest{UserID: user, View: tab})
		return err
	})
	if err != nil {
		a.log.WarnContext(ctx, "slack views.publish failed", "user_id", user, "err", err)
	}
}

func homeBlocks(h *view.Home) []slack.Block {
	blocks := []slack.Block{slack.NewHeaderBlock(plain("Your shopping"))}
	blocks = append(blocks, section("*Your cart*\n"+cartSummary(h.Cart, nil)), slack.NewDividerBlock())
	blocks = append(blocks, section("*Channel carts you added to*"))
	if len(h.Shared) == 0 {
		blocks = append(blocks, section("_None yet: mention me in a channel to shop together._"))
	}
	for _, sc := range h.Shared {
		blocks = append(blocks, section(fmt.Sprintf("<#%s>\n%s", sc.ChatID, cartSummary(sc.Cart, sc.Yours))))
	}
	blocks = append(blocks, slack.NewDividerBlock(), section("*Recent orders*\n"+ordersSummary(h.Orders)))
	return blocks
}

func section(text string) slack.Block {
	return slack.NewSectionBlock(mrkdwn(truncateRunes(text, maxSectionChars)), nil, nil)
}

// cartSummary lists a cart's lines; in a shared cart (yours not nil) each
// line says who added it, "you" for the lines in yours.
func cartSummary(c *view.CartView, yours map[string]bool) string {
	if c == nil || len(c.Lines) == 0 {
		return "_empty_"
	}
	var b strings.Builder
	for i, l := range c.Lines {
		if i == homeLines {
			fmt.Fprintf(&b, "…and %d more\n", len(c.Lines)-i)
			break
		}
		fmt.Fprintf(&b, "%d × %s", l.Qty, escape(truncateRunes(l.Title, 120)))
		switch {
		case yours == nil:
		case yours[l.SKU]:
			b.WriteString(" _(you)_")
		case l.AddedBy != "":
			fmt.Fprintf(&b, " _(%s)_", escape(truncateRunes(l.AddedBy, 60)))
		}
		b.WriteByte('\n')
	}
	if pl := c.PromoLine(); pl != "" {
		fmt.Fprintf(&b, "%s\n", escape(pl))
	}
	fmt.Fprintf(&b, "Total *%s*", escape(c.TotalText))
	return b.String()
}

func ordersSummary(os []view.OrderView) string {
	if len(os) == 0 {
		return "_No orders yet._"
	}
	var b strings.Builder
	for _, o := range os {
		day := ""
		if at, err := time.Parse(time.RFC3339, o.CreatedAt); err == nil {
			day = at.Format("Jan 2")
		}
		fmt.Fprintf(&b, "#%s · %s · %s · %s\n", escape(o.Number), o.Status, escape(o.TotalText), day)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
