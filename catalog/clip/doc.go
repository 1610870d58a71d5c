// Package clip cuts text to a bound without breaking a character. Each
// function answers one need:
//
//   - Bytes fits a limit counted in bytes (a database column, an API's
//     input size, an error kept for a log): the text is cut on a UTF-8
//     sequence boundary and not marked.
//   - Runes fits a limit counted in characters where the text is still
//     used as data (a search query inside a tool's maxLength): cut, not
//     marked.
//   - Shorten fits a limit counted in characters where a person reads the
//     text (a button label, a card title, a quote in an error message):
//     the cut is marked with "…", which counts toward the limit, and
//     whitespace before it is dropped.
//
// Cutting at a word boundary for a product summary is a different need
// and belongs to the view (engine/view.Summary).
//
// The package sits under catalog/ because the domain and everything above
// it cut text; it imports nothing of the project. Adapters, which may not
// import packages under catalog/, reach Shorten through engine/view.
package clip
