package embedded

import "sync"

// scratch holds the per-query working arrays: dense accumulators indexed by
// document id and the typo lookup's buffers. Searches take one from a pool,
// so a query allocates little more than its results.
type scratch struct {
	score       []float32 // BM25F sum per document
	slotScore   []float32 // best alternative of the current slot per document
	mask        []uint32  // matched slots per document
	touched     []int32   // documents with a non-zero mask
	slotTouched []int32   // documents with a non-zero slotScore

	// The vector side of hybrid ranking (hybrid.go).
	vsim   []float32 // exact similarity per document, where vmark
	vmark  []bool
	vdocs  []int32  // documents with vmark set
	coarse []uint16 // coarse distance per document
	hist   []int32

	counts []uint8 // shared trigrams per vocabulary word
	words  []int32
	grams  []uint64
	runes  []rune
	dist   []int
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func getScratch(docs int) *scratch {
	s := scratchPool.Get().(*scratch)
	if len(s.score) < docs {
		n := docs + docs/4
		s.score, s.slotScore, s.mask = make([]float32, n), make([]float32, n), make([]uint32, n)
	}
	return s
}

// release clears what the query touched and returns s to the pool.
func (s *scratch) release() {
	for _, d := range s.touched {
		s.score[d], s.mask[d] = 0, 0
	}
	s.touched = s.touched[:0]
	for _, d := range s.vdocs {
		s.vmark[d] = false
	}
	s.vdocs = s.vdocs[:0]
	scratchPool.Put(s)
}

// vectorArrays sizes the per-document arrays of the vector side.
func (s *scratch) vectorArrays(docs int) {
	if len(s.vsim) < docs {
		n := docs + docs/4
		s.vsim, s.vmark = make([]float32, n), make([]bool, n)
	}
}

// distances returns the per-document distance array (not cleared: every
// document with a vector is written before it is read, and only those
// are).
func (s *scratch) distances(docs int) []uint16 {
	if len(s.coarse) < docs {
		s.coarse = make([]uint16, docs+docs/4)
	}
	return s.coarse[:docs]
}

// histogram returns n zeroed counters.
func (s *scratch) histogram(n int) []int32 {
	if cap(s.hist) < n {
		s.hist = make([]int32, n)
	}
	s.hist = s.hist[:n]
	clear(s.hist)
	return s.hist
}

func (s *scratch) wordCounts(n int) []uint8 {
	if len(s.counts) < n {
		s.counts = make([]uint8, n+n/4)
	}
	return s.counts
}

func (s *scratch) rows(n int) []int {
	if len(s.dist) < n {
		s.dist = make([]int, n)
	}
	return s.dist[:n]
}
