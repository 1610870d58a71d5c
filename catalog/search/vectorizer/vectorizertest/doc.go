// Package vectorizertest is a fake of the OpenAI embeddings endpoint for tests,
// the way net/http/httptest fakes servers. Production code never imports
// it.
//
// A Server listens on loopback and speaks the real POST /v1/embeddings
// wire format, so the code under test runs the same openai-go client it
// runs in production:
//
//	srv := vectorizertest.NewServer(t, func(text string) []float32 { … })
//	e := vectorizer.NewOpenAI(vectorizer.OpenAIConfig{BaseURL: srv.URL})
//
// The vector function decides each text's vector (nil: a pseudo-random
// one derived from the text). Requests the real API would reject (no
// model, no input, an empty string, more than 2,048 inputs) get a 400 and
// fail the test. Fail makes the next requests answer with an error status.
// Every request is kept (Requests) so a test can count them and see their
// batches.
package vectorizertest
