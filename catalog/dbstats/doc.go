// Package dbstats counts what a database is asked to do: statements
// (round trips), transactions, and the time spent waiting on them. It is
// a Bun query hook (Install), so every query the catalog, the engine and
// its tools run through the hooked *bun.DB is seen, including BEGIN, COMMIT and
// ROLLBACK.
//
// Counts are kept in two places: a process-wide total on the Hook (what
// `shopbot bench` divides by the turns it ran), and an optional per-call
// Counter carried in the context (With), which the statement-budget
// tests use to count one turn's statements exactly. Statements that do
// not go through Bun (the chat lock sessions of catalog/chatlock) are
// added by their owner with Counter.Add.
package dbstats
