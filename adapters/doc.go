// Package adapters groups the channel adapters, one subpackage per platform
// (telegram, slack, web, console). Each adapter verifies and de-duplicates
// incoming platform updates (catalog.MarkProcessed), turns them into engine
// turns carrying the platform-verified identity (catalog.Identity), and
// renders the engine's replies natively. Adapters hold no business logic.
//
// No adapter is implemented yet; `shopbot serve` reports each as off.
package adapters
