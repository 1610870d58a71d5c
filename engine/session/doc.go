// Package session is the conversation's memory as the engine, the tools
// and the offline planner share it: who is asking and in which chat
// (Session, built by the engine from the platform-verified turn), what the
// shopper was shown and can refer to (State: the cards shown, the list
// being paged, the product in focus, the checkout in progress, the
// language), and the turn's view of the effects journal (Journal), which
// keys every side effect by the turn so a turn run again after a crash
// makes none of them twice.
//
// State is saved in the conversation row as JSON after each turn
// (Encode) and loaded before the next (LoadState); broken state starts
// afresh rather than failing the turn. Tools change it through the
// session they are given; nothing here does I/O.
package session
