package weaviate

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-openapi/strfmt"
	"github.com/google/uuid"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/filters"
	"github.com/weaviate/weaviate/entities/models"

	"shopbot/catalog"
	"shopbot/catalog/clip"
	"shopbot/catalog/search"
	"shopbot/catalog/search/analysis"
	"shopbot/catalog/search/vectorizer"
)

var _ search.PassageSearcher = (*Passages)(nil)

// DefaultPassageCollection is the collection passages are stored in.
const DefaultPassageCollection = "ShopbotPassage"

// passageProperties are the BM25 fields of a passage, boosted as the
// embedded passage index weighs them (title and heading twice the text;
// whole numbers, see searchProperties).
var passageProperties = []string{"t_title^2", "t_heading^2", "t_body^1"}

// passageWindow is how many hybrid results a passage query ranks.
const passageWindow = 50

// PassageConfig configures the passage collection of a Backend.
type PassageConfig struct {
	// Collection defaults to DefaultPassageCollection.
	Collection string
	// Embedder computes passage and query vectors (required): bot passes
	// the embedded passage index's, fitted on the same passages.
	Embedder vectorizer.Embedder
	// Expander analyzes query text against the passages' vocabulary
	// (required): embedded.Passages.Expand.
	Expander Expander
}

// Passages is the passage collection (shop pages, reviews next) beside a
// Backend's products, on the same server and client. It is safe for
// concurrent use.
type Passages struct {
	b     *Backend
	class string
	emb   vectorizer.Embedder
	exp   Expander

	mu      sync.Mutex // guards ensured
	ensured bool
}

// Passages returns the backend's passage collection.
func (b *Backend) Passages(cfg PassageConfig) (*Passages, error) {
	class := cmp.Or(cfg.Collection, DefaultPassageCollection)
	if !validClass(class) {
		return nil, fmt.Errorf("weaviate: collection name %q: want a capital letter, then letters, digits or _", class)
	}
	if cfg.Embedder == nil || cfg.Expander == nil {
		return nil, errors.New("weaviate: passages need an embedder and an expander")
	}
	return &Passages{b: b, class: class, emb: cfg.Embedder, exp: cfg.Expander}, nil
}

// Ready reports whether Weaviate answers.
func (x *Passages) Ready(ctx context.Context) error { return x.b.Ready(ctx) }

func (x *Passages) classDef() *models.Class {
	yes, no := new(true), new(false)
	text := func(name, tok string, filterable, searchable bool) *models.Property {
		return &models.Property{Name: name, DataType: []string{"text"}, Tokenization: tok,
			IndexFilterable: boolp(filterable), IndexSearchable: boolp(searchable)}
	}
	return &models.Class{
		Class:             x.class,
		Description:       "Shopbot passages, schema 1; vectors: " + x.emb.Name(),
		Vectorizer:        "none",
		VectorIndexConfig: map[string]any{"distance": "dot"},
		InvertedIndexConfig: &models.InvertedIndexConfig{
			Bm25:      &models.BM25Config{K1: 1.2, B: 0.3}, // b as the embedded passage index's
			Stopwords: &models.StopwordConfig{Preset: "none"},
		},
		Properties: []*models.Property{
			text("key", models.PropertyTokenizationField, true, false),
			text("kind", models.PropertyTokenizationField, true, false),
			text("scope", models.PropertyTokenizationField, true, false),
			{Name: "payload", DataType: []string{"text"}, IndexFilterable: no, IndexSearchable: no},
			text("t_title", models.PropertyTokenizationWhitespace, false, true),
			text("t_heading", models.PropertyTokenizationWhitespace, false, true),
			text("t_body", models.PropertyTokenizationWhitespace, false, true),
			text("terms", models.PropertyTokenizationWhitespace, true, false),
			{Name: "generation", DataType: []string{"int"}, IndexFilterable: yes, IndexRangeFilters: yes},
		},
	}
}

// ensure creates the collection unless it exists.
func (x *Passages) ensure(ctx context.Context) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.ensured {
		return nil
	}
	_, err := x.b.client.Schema().ClassGetter().WithClassName(x.class).Do(ctx)
	switch {
	case err == nil:
	case statusCode(err) == http.StatusNotFound:
		if err := x.b.client.Schema().ClassCreator().WithClass(x.classDef()).Do(ctx); err != nil && !alreadyExists(err) {
			return fmt.Errorf("weaviate: create collection %s: %w", x.class, err)
		}
	default:
		return fmt.Errorf("weaviate: collection %s: %w", x.class, err)
	}
	x.ensured = true
	return nil
}

// passageNamespace derives object ids from passage keys and positions.
var passageNamespace = uuid.MustParse("0d6f4c1e-3b5a-4f7e-8c2d-9a1b7e5f3c61")

// UpsertPassages rewrites the passages of these sources (catalog.PassageKey)
// from db: the current ones are written, then older objects of the
// sources (a passage since cut, a source deleted) are removed. It is the
// change-feed worker's PassageIndex (indexer.Config.Passages).
func (x *Passages) UpsertPassages(ctx context.Context, db search.PassageCatalog, keys ...string) error {
	if len(keys) == 0 {
		return nil
	}
	if err := x.ensure(ctx); err != nil {
		return err
	}
	gen := generation()
	ps, err := db.PassagesOf(ctx, keys)
	if err != nil {
		return fmt.Errorf("weaviate: upsert passages: %w", err)
	}
	for lo := 0; lo < len(ps); lo += importBatch {
		if err := x.put(ctx, ps[lo:min(lo+importBatch, len(ps))], gen); err != nil {
			return err
		}
	}
	for lo := 0; lo < len(keys); lo += importBatch {
		w := filters.Where().WithOperator(filters.And).WithOperands([]*filters.WhereBuilder{
			filters.Where().WithPath([]string{"key"}).WithOperator(filters.ContainsAny).WithValueText(cleanAll(keys[lo:min(lo+importBatch, len(keys))])...),
			filters.Where().WithPath([]string{"generation"}).WithOperator(filters.LessThan).WithValueInt(gen),
		})
		if err := x.deleteWhere(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

// Rebuild writes every passage of db and removes objects older than the
// rebuild.
func (x *Passages) Rebuild(ctx context.Context, db search.PassageCatalog) error {
	if err := x.ensure(ctx); err != nil {
		return err
	}
	gen := generation()
	err := db.EachPassage(ctx, importBatch, func(ps []catalog.Passage) error { return x.put(ctx, ps, gen) })
	if err != nil {
		return fmt.Errorf("weaviate: rebuild passages: %w", err)
	}
	return x.deleteWhere(ctx, filters.Where().WithPath([]string{"generation"}).WithOperator(filters.LessThan).WithValueInt(gen))
}

func (x *Passages) deleteWhere(ctx context.Context, w *filters.WhereBuilder) error {
	resp, err := x.b.client.Batch().ObjectsBatchDeleter().WithClassName(x.class).WithWhere(w).WithOutput("minimal").Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate: delete passages: %w", err)
	}
	if resp.Results != nil && resp.Results.Failed > 0 {
		return fmt.Errorf("weaviate: delete passages: %d of %d failed", resp.Results.Failed, resp.Results.Matches)
	}
	return nil
}

// storedPassage is a passage's payload: what a search returns of it.
type storedPassage struct {
	Kind    catalog.PassageKind `json:"kind"`
	Ref     string              `json:"ref"`
	Seq     int                 `json:"seq"`
	Scope   string              `json:"scope,omitempty"`
	Title   string              `json:"title"`
	Heading string              `json:"heading,omitempty"`
	Body    string              `json:"body"`
}

// put embeds passages and imports them in one batch.
func (x *Passages) put(ctx context.Context, ps []catalog.Passage, gen int64) error {
	if len(ps) == 0 {
		return nil
	}
	texts := make([]string, len(ps))
	for i := range ps {
		texts[i] = analysis.PassageVectorText(&ps[i])
	}
	vecs, err := x.emb.Embed(ctx, texts)
	if err == nil && len(vecs) != len(ps) {
		err = errors.New("embedder returned a wrong number of vectors")
	}
	if err != nil {
		return fmt.Errorf("weaviate: embed %d passages: %w", len(ps), err)
	}
	objs := make([]*models.Object, len(ps))
	for i := range ps {
		p := &ps[i]
		payload, err := json.Marshal(storedPassage{p.Kind, p.Ref, p.Seq, p.Scope, p.Title, p.Heading, p.Body})
		if err != nil {
			return fmt.Errorf("weaviate: encode passage %s: %w", p.Key(), err)
		}
		title, heading, body := terms(p.Title), terms(analysis.PassageHeading(p)), terms(p.Body)
		objs[i] = &models.Object{
			Class: x.class,
			ID:    strfmt.UUID(uuid.NewSHA1(passageNamespace, []byte(p.Key()+"#"+strconv.Itoa(p.Seq))).String()),
			Properties: map[string]any{
				"key": clean(p.Key()), "kind": clean(string(p.Kind)), "scope": clean(p.Scope), "payload": string(payload),
				"t_title": title, "t_heading": heading, "t_body": body,
				"terms": strings.Join([]string{title, heading, body}, " "), "generation": gen,
			},
			Vector: vecs[i],
		}
	}
	resp, err := x.b.client.Batch().ObjectsBatcher().WithObjects(objs...).Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate: import %d passages: %w", len(ps), err)
	}
	for _, r := range resp {
		if r.Result != nil && r.Result.Errors != nil && len(r.Result.Errors.Error) > 0 {
			return fmt.Errorf("weaviate: import passages: %s", r.Result.Errors.Error[0].Message)
		}
	}
	return nil
}

// SearchPassages implements search.PassageSearcher: a hybrid query over
// the passages of q's kind (and scope), its window ranked as products'
// (rank: a word matched or the similarity floor reached, coordination
// factor).
func (x *Passages) SearchPassages(ctx context.Context, q search.PassageQuery) ([]search.Passage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	slots := x.exp.Expand(q.Text)
	if len(slots) == 0 && len(analysis.QueryWords(q.Text)) == 0 {
		return nil, nil
	}
	if err := x.ensure(ctx); err != nil {
		return nil, err
	}
	where := filters.Where().WithPath([]string{"kind"}).WithOperator(filters.Equal).WithValueText(clean(string(q.Kind)))
	if q.Scope != "" {
		where = and(where, filters.Where().WithPath([]string{"scope"}).WithOperator(filters.Equal).WithValueText(clean(q.Scope)))
	}
	qvec := x.queryVector(ctx, q.Text)
	bm := bm25Text(slots)
	if bm == "" && qvec == nil {
		return nil, nil
	}
	get := x.class + args(whereArg(where), x.searchArg(bm, qvec), "limit:"+strconv.Itoa(passageWindow)) + "{payload terms _additional{score}}"
	hits, err := x.b.queryClass(ctx, x.class, get)
	if err != nil {
		return nil, err
	}
	return x.rank(ctx, hits, slots, qvec, q.PassageLimit())
}

func (x *Passages) searchArg(bm string, qvec []float32) string {
	props := make([]string, len(passageProperties))
	for i, p := range passageProperties {
		props[i] = strconv.Quote(p)
	}
	propList := "properties:[" + strings.Join(props, ",") + "]"
	switch {
	case qvec == nil:
		return "bm25:{query:" + quote(bm) + ", " + propList + "}"
	case bm == "":
		return "nearVector:{vector:" + vectorLiteral(qvec) + ", distance:" + strconv.FormatFloat(-float64(x.b.floor), 'g', 6, 32) + "}"
	}
	return "hybrid:{query:" + quote(bm) + ", vector:" + vectorLiteral(qvec) +
		", alpha:" + strconv.FormatFloat(float64(x.b.alpha), 'g', 4, 32) +
		", fusionType:relativeScoreFusion, " + propList + "}"
}

func (x *Passages) queryVector(ctx context.Context, text string) []float32 {
	if x.b.alpha == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, queryEmbedTimeout)
	defer cancel()
	vecs, err := x.emb.Embed(ctx, []string{clip.Bytes(text, analysis.MaxQueryBytes)})
	if err != nil || len(vecs) != 1 || !slices.ContainsFunc(vecs[0], func(f float32) bool { return f != 0 }) {
		return nil
	}
	return vecs[0]
}

// rank keeps the hits that match a word or reach the similarity floor,
// scored by Weaviate's fused score times the coordination factor
// (1+matched)/(1+words), and returns the best limit.
func (x *Passages) rank(ctx context.Context, hits []hit, slots [][]analysis.Alternative, qvec []float32, limit int) ([]search.Passage, error) {
	type scored struct {
		p     storedPassage
		score float64
	}
	var out []scored
	var unmatched []int
	var texts []string
	for _, h := range hits {
		var p storedPassage
		if err := json.Unmarshal([]byte(h.Payload), &p); err != nil {
			return nil, fmt.Errorf("weaviate: decode passage: %w", err)
		}
		m := matched(h.Terms, slots)
		score, _ := strconv.ParseFloat(h.Additional.Score, 64)
		out = append(out, scored{p, score * float64(1+m) / float64(1+len(slots))})
		if m == 0 {
			unmatched = append(unmatched, len(out)-1)
			texts = append(texts, analysis.PassageVectorText(&catalog.Passage{Title: p.Title, Heading: p.Heading, Body: p.Body}))
		}
	}
	drop := map[int]bool{}
	if len(texts) > 0 {
		vecs, err := x.emb.Embed(ctx, texts)
		for j, i := range unmatched {
			if qvec == nil || err != nil || len(vecs) != len(texts) || dot(qvec, vecs[j]) < x.b.floor {
				drop[i] = true
			}
		}
	}
	kept := out[:0]
	for i, s := range out {
		if !drop[i] && s.score > 0 {
			kept = append(kept, s)
		}
	}
	slices.SortStableFunc(kept, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.p.Ref, b.p.Ref), cmp.Compare(a.p.Seq, b.p.Seq))
	})
	res := make([]search.Passage, 0, min(limit, len(kept)))
	for _, s := range kept[:min(limit, len(kept))] {
		res = append(res, search.Passage{Kind: s.p.Kind, Ref: s.p.Ref, Seq: s.p.Seq, Scope: s.p.Scope,
			Title: s.p.Title, Heading: s.p.Heading, Text: s.p.Body, Score: min(s.score, 1)})
	}
	return res, nil
}
