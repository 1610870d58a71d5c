// Package turnsave is the group commit of turns' ends on Postgres: the
// turns that finish while one save is on its way are saved together by
// the next, in one statement (catalog.SaveTurnGroup), so a busy engine
// sends one round trip, takes one pooled connection and commits once
// for several turns. The engine asks Grouped for each turn's writes and
// saves those through Save; SQLite groups the turns' transactions
// instead (catalog/groupcommit.Tx). It lives beside the engine, not in
// catalog, because catalog/groupcommit's tests import catalog.
package turnsave
