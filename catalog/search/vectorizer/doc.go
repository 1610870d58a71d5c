// Package vectorizer turns product texts and search queries into vectors
// for the vector half of hybrid search (what Weaviate calls a vectorizer;
// its own modules are off and these are used instead). It owns the
// Embedder interface and two implementations, chosen by EMBEDDINGS:
//
//   - Local (the default): no network and no downloaded weights. A text is
//     cut into lower-cased words (letters and digits of any script, "ё"
//     folded to "е"); every word contributes itself and its character
//     3-, 4- and 5-grams, padded at the word's ends ("<ру", "овок>"). Each
//     of these features is hashed to one of Dim coordinates with a hashed
//     sign (so collisions cancel out on average instead of piling up),
//     weighted by its count times its inverse document frequency, and the
//     vector is scaled to unit length. Fit learns the idf from the catalog
//     itself; features the catalog never used then weigh nothing, so a
//     query is compared only through what it shares with some product. A
//     typo ("runing") or another form of a word ("кроссовок") keeps most
//     n-grams of the word meant and lands close to it.
//   - OpenAI: the embeddings endpoint of any OpenAI-compatible server
//     through openai-go, at most 256 inputs per request, with vectors
//     cached in memory by a hash of model and text, so unchanged products
//     and repeated queries cost no request.
//
// The embedded search index (../embedded) embeds every product when it is
// built or changed and each query when it is searched, and fuses cosine
// similarity with its keyword score. vectorizertest fakes the embeddings
// endpoint for tests.
package vectorizer
