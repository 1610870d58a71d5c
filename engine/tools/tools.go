package tools

import (
	"context"
	"time"

	"shopbot/engine/toolkit"
	"shopbot/engine/tools/aftersale"
	"shopbot/engine/tools/checkout"
	"shopbot/engine/tools/purchases"
	"shopbot/engine/tools/reviews"
)

// Tools returns every shopping tool, in the order the model sees them.
func Tools(d *Deps) []toolkit.Tool {
	return []toolkit.Tool{
		searchProductsTool(d),
		getProductDetailsTool(d),
		getAvailabilityTool(d),
		notifyWhenAvailableTool(d),
		compareProductsTool(d),
		getSimilarProductsTool(d),
		getCategoriesTool(d),
		getTopSellingProductsTool(d),
		reviews.SummaryTool(d.reviews()),
		reviews.SearchTool(d.reviews()),
		searchShopInfoTool(d),
		addToCartTool(d),
		updateCartItemTool(d),
		removeFromCartTool(d),
		viewCartTool(d),
		applyPromoCodeTool(d),
		checkout.Tool(d.checkout()),
		checkout.DeliveryOptionsTool(d.checkout()),
		getOrderStatusTool(d),
		cancelOrderTool(d),
		aftersale.ChangeAddressTool(d.aftersale()),
		aftersale.ChangeItemsTool(d.aftersale()),
		aftersale.ReturnTool(d.aftersale()),
		purchases.StatisticsTool(d.purchases()),
		purchases.ShoppingListTool(d.purchases()),
		requestHumanTool(d),
	}
}

// AgentOnly are the tools only agents call (checkout.AgentOnly); the
// chat model never sees them.
func AgentOnly(d *Deps) []toolkit.Tool { return checkout.AgentOnly(d.checkout()) }

// checkout is what the checkout tools read and write: d's stores and
// effects, asked for at each call.
func (d *Deps) checkout() *checkout.Deps {
	return &checkout.Deps{Carts: d.carts, Orders: d.orders, Deliveries: d.deliveries,
		Apply: d.apply, DeliverPending: d.deliverPending, PaymentLink: d.PaymentLink}
}

// purchases is what the purchase tools read: d's stores, asked for at
// each call.
func (d *Deps) purchases() purchases.Deps {
	return purchases.Deps{Orders: d.orders, Products: d.products, Now: d.Now}
}

// aftersale is what the after-sale tools read and write: d's stores and
// effects, asked for at each call.
func (d *Deps) aftersale() aftersale.Deps {
	return aftersale.Deps{Orders: d.orders, Apply: d.apply, Now: d.Now,
		ReturnWindow: func() time.Duration { return d.ReturnWindow }}
}

// reviews is what the review tools read: d's stores, asked for at each
// call.
func (d *Deps) reviews() reviews.Deps {
	return reviews.Deps{Products: d.products, Passages: func() toolkit.PassageSearcher { return d.Passages }}
}

// ReviewSearch is search_reviews' result (reviews.Quotes).
type ReviewSearch = reviews.Quotes

// ReviewPassage is one review search_reviews quotes (reviews.Quote).
type ReviewPassage = reviews.Quote

// SearchReviews finds the reviews that speak to query (reviews.Search);
// the offline planner calls it too.
func SearchReviews(ctx context.Context, d *Deps, query, sku string) (ReviewSearch, error) {
	return reviews.Search(ctx, d.reviews(), query, sku)
}
