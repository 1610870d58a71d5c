package tools

// Tools returns every shopping tool, in the order the model sees them.
func Tools(d *Deps) []Tool {
	return []Tool{
		searchProductsTool(d),
		getProductDetailsTool(d),
		getAvailabilityTool(d),
		notifyWhenAvailableTool(d),
		compareProductsTool(d),
		getSimilarProductsTool(d),
		getCategoriesTool(d),
		getTopSellingProductsTool(d),
		getReviewsSummaryTool(d),
		searchReviewsTool(d),
		searchShopInfoTool(d),
		addToCartTool(d),
		updateCartItemTool(d),
		removeFromCartTool(d),
		viewCartTool(d),
		applyPromoCodeTool(d),
		checkoutTool(d),
		getDeliveryOptionsTool(d),
		getOrderStatusTool(d),
		cancelOrderTool(d),
		getPurchaseStatisticsTool(d),
		generateShoppingListTool(d),
		requestHumanTool(d),
	}
}
