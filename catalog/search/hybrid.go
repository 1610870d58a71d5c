package search

// Hybrid ranking defaults, shared by both backends so they fuse keyword
// and vector scores alike.
const (
	// DefaultAlpha is the weight of vector similarity in the fused score
	// (0 keywords only, 1 vectors only).
	DefaultAlpha = 0.35
	// DefaultMinSimilarity keeps products that merely share a few letter
	// n-grams with a query out of its results. With the Local embedder,
	// nonsense stays under 0.11 against every product of the demo catalog
	// and under 0.1 in the 100,000-product synthetic one (nonsense_max_sim
	// in the embedded index's BenchmarkSearch100kHybrid), while words run
	// together that the keyword side cannot split ("airfryer",
	// "powerbank") score 0.2–0.25 against the product meant. (A single
	// misspelt word often scores less, but keyword typo tolerance finds
	// those.) It is untested with OpenAI's models, whose similarities run
	// higher: tune it there.
	DefaultMinSimilarity = 0.2
)
