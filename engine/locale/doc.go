// Package locale is the one catalogue of what Shopbot says to shoppers:
// the engine's own sentences, the tools' button labels, the offline
// planner's replies and the Telegram adapter's words, one file per
// language in messages/ (en.yaml is complete and the fallback), embedded
// in the binary.
//
// Code names a key ("planner.found", "button.add_to_cart"), never a
// sentence. Each value is a Go text/template: Text renders one with data
// (figures always come from the data, the template adds only words),
// Word returns one as written (labels), Sprintf fills the few written
// with fmt verbs. Lang maps a platform locale ("ru-RU") to a language of
// the catalogue. Adding a language is adding messages/xx.yaml with the
// keys of en.yaml; the tests fail on a key missing in any language and
// render every template of every language.
package locale
