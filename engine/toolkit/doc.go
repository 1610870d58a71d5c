// Package toolkit is what every shopping tool is built from, apart from
// the tools themselves (engine/tools and its sub-packages).
//
// A Tool (tool.go) is a name, a strict JSON schema (schema.go builders:
// additionalProperties false, bounds and enums) and a Run function over a
// session.Session. Toolbox.Call is the way in: it validates the arguments
// against the schema, decodes them into the tool's typed struct
// (DecodeArgs) and recovers a panic into an error. A Result carries
// compact data for the model and what the adapters render (view.Card,
// view.CartView, view.OrderView, view.Button, view.Picker). ModelMessage
// is the one place an outcome becomes what the model reads: {"error": ...}
// for a ToolError or a catalog error the shopper can fix, a generic
// failure for anything else.
//
// Tools read through narrow interfaces (store.go: Products, Carts,
// Orders, Deliveries, ReviewReader, PassageSearcher; Store implements the
// first ones over catalog and a bun.IDB, and a test may pass a fake) and
// write through Writes (writes.go), only inside an effect: Effects.Apply
// (effects.go) opens the transaction (WriteStore.BeginEffect) in which the
// writes and the effect's journal row commit together, or roll back
// together. DBWrites is the WriteStore over a database (a bun.Tx per
// effect, the catalog's functions on it).
//
// Side effects are idempotent per turn. Each one — a cart change, the
// order, the saved contact, a handoff — commits in its own short
// transaction with a row of the effects journal (EffectTx.ClaimEffect),
// keyed by the turn (conversation + DedupKey) and the effect (kind, hash
// of canonical arguments, occurrence in the turn); a turn run again after
// a crash finds its rows and skips them. A notice owed to the merchant is
// written with its effect and claimed once after the commit
// (catalog.TakeEffectNotice).
//
// Button labels (labels.go) name keys of the text catalogue
// (engine/locale). Imports run one way: toolkit imports catalog,
// catalog/search, engine/session, engine/view, engine/locale and
// engine/llm, never a tool package or the engine.
package toolkit
