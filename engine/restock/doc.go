// Package restock delivers back-in-stock alerts.
//
// A shopper subscribes with the notify_when_available tool (or its
// button, or "let me know when it's back"); catalog.SubscribeStockAlert
// keeps the alert with the conversation it came from. Every catalog
// stock write that makes the product sellable again (an admin edit, an
// import, a cancelled or refunded order) marks its waiting alerts due in
// the same transaction (catalog/restock.go). The Worker, started in bot/
// on every replica, claims due alerts with a conditional update
// (catalog.ClaimStockAlerts: one claimant per alert, with a lease), sends
// each one view.NoticeBackInStock through the notifier (the adapters'
// hub: Telegram, Slack) and records the outcome: sent; blocked when the
// adapter reports view.ErrUnreachable (the shopper blocked the bot),
// never tried again; or retried later, up to MaxAttempts. It also expires
// alerts older than catalog.StockAlertTTL. The clock is injected, so
// tests drive it without sleeping.
//
// A replica that dies after sending but before recording the send lets
// the lease lapse and the alert be sent again: at most one duplicate in
// that window, never a lost alert.
package restock
