// Package analysis is the text analysis both search backends share, so
// the embedded index and Weaviate tokenize, stem and weigh text alike:
//
//   - Words (lex.go): text is split into lower-cased runs of letters and
//     digits ("ё" folded to "е"); a letter–digit change splits too
//     ("16gb"), and hyphenated and letter–digit compounds are also
//     joined up ("wi-fi" as "wifi"). Single letters are not words.
//   - Stems (stem.go): Latin words go through the Snowball English
//     stemmer, Cyrillic ones through the Russian one (plus a rule for the
//     fleeting vowel of "кроссовок"); words with digits are kept as they
//     are. EachTerm and Terms give a field's index terms.
//   - Queries (query.go): QueryWords cuts a query to MaxQueryBytes and at
//     most MaxSlots words, dropping stop words unless nothing else is
//     left. Alternative is one way a query word matches (its stem, a
//     synonym, a typo correction, each with a weight): the embedded index
//     expands a query into alternatives against its catalog
//     (embedded.Index.Expand), and the Weaviate backend searches for
//     them.
//   - Synonyms (synonyms.go, synonyms.txt): groups of interchangeable
//     terms, compiled into the stems they are looked up under.
//   - Attributes (attrs.go): a product's attributes as searchable text,
//     and the keys an attribute filter matches.
//   - Vectors (vector.go): VectorText, what a product's vector is
//     computed from (package vectorizer embeds it).
//   - Prices (prices.go): price phrases in query text ("under 100", "до
//     5000", "20-50"): CutPrices reads them as a price range (the offline
//     planner turns them into filters), WithoutPrices leaves them out of
//     the words a query is ranked by (search.Query.RankText).
//
// The package holds no state: matching against a catalog (term ids, typo
// vocabulary, scores) belongs to the backends.
package analysis
