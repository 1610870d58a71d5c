package slack

import (
	"context"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"shopbot/catalog"
)

// Home tab sizes.
const (
	homeCarts  = 5
	homeOrders = 5
	homeLines  = 10
)

// publishHome shows the user's cart, the channel carts they added to and
// their recent orders on the App Home tab (views.publish).
func (a *Adapter) publishHome(ctx context.Context, user string) {
	blocks, err := a.homeBlocks(ctx, user)
	if err != nil {
		a.log.ErrorContext(ctx, "slack home not built", "user_id", user, "err", err)
		return
	}
	view := slack.HomeTabViewRequest{Type: slack.VTHomeTab, Blocks: slack.Blocks{BlockSet: blocks}}
	err = a.api.do(ctx, "views.publish", func(ctx context.Context) error {
		_, err := a.client.PublishViewContext(ctx, slack.PublishViewContextRequest{UserID: user, View: view})
		return err
	})
	if err != nil {
		a.log.WarnContext(ctx, "slack views.publish failed", "user_id", user, "err", err)
	}
}

func (a *Adapter) homeBlocks(ctx context.Context, user string) ([]slack.Block, error) {
	c, err := catalog.ResolveCustomer(ctx, a.cfg.DB, catalog.Identity{
		Channel: "slack", PlatformUserID: user, DisplayName: a.api.userName(ctx, user, user),
	})
	if err != nil {
		return nil, err
	}
	own, err := catalog.GetCart(ctx, a.cfg.DB, catalog.PersonalCart(c.ID))
	if err != nil {
		return nil, err
	}
	shared, err := catalog.SharedCartsAddedTo(ctx, a.cfg.DB, "slack", c.ID, homeCarts)
	if err != nil {
		return nil, err
	}
	orders, err := catalog.ListCustomerOrders(ctx, a.cfg.DB, c.ID, homeOrders)
	if err != nil {
		return nil, err
	}
	blocks := []slack.Block{slack.NewHeaderBlock(plain("Your shopping"))}
	blocks = append(blocks, section("*Your cart*\n"+cartSummary(own, 0)), slack.NewDividerBlock())
	blocks = append(blocks, section("*Channel carts you added to*"))
	if len(shared) == 0 {
		blocks = append(blocks, section("_None yet: mention me in a channel to shop together._"))
	}
	for i := range shared {
		blocks = append(blocks, section(fmt.Sprintf("<#%s>\n%s", shared[i].ChatID, cartSummary(&shared[i], c.ID))))
	}
	blocks = append(blocks, slack.NewDividerBlock(), section("*Recent orders*\n"+ordersSummary(orders)))
	return blocks, nil
}

func section(text string) slack.Block {
	return slack.NewSectionBlock(mrkdwn(truncateRunes(text, maxSectionChars)), nil, nil)
}

// cartSummary lists a cart's lines; in a shared cart the lines the
// customer (me) added are marked.
func cartSummary(c *catalog.Cart, me int64) string {
	if len(c.Items) == 0 {
		return "_empty_"
	}
	var b strings.Builder
	for i, it := range c.Items {
		if i == homeLines {
			fmt.Fprintf(&b, "…and %d more\n", len(c.Items)-i)
			break
		}
		if it.Product == nil {
			continue
		}
		fmt.Fprintf(&b, "%d × %s", it.Quantity, escape(truncateRunes(it.Product.Title, 120)))
		if me != 0 && it.Adder != nil {
			who := escape(truncateRunes(it.Adder.DisplayName, 60))
			if it.Adder.ID == me {
				who = "you"
			}
			fmt.Fprintf(&b, " _(%s)_", who)
		}
		b.WriteByte('\n')
	}
	total, cur := c.Total()
	fmt.Fprintf(&b, "Total *%s*", escape(catalog.FormatPrice(total, cur)))
	return b.String()
}

func ordersSummary(os []catalog.Order) string {
	if len(os) == 0 {
		return "_No orders yet._"
	}
	var b strings.Builder
	for _, o := range os {
		fmt.Fprintf(&b, "#%s · %s · %s · %s\n", escape(o.Number), o.Status,
			escape(catalog.FormatPrice(o.Total, o.Currency)), o.CreatedAt.Format("Jan 2"))
	}
	return strings.TrimSuffix(b.String(), "\n")
}
