package weaviate

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/weaviate/weaviate-go-client/v4/weaviate/filters"
)

// hit is one object of a Get answer.
type hit struct {
	Payload    string `json:"payload"`
	SKU        string `json:"sku"`
	Terms      string `json:"terms"`
	Category   string `json:"category_top"`
	Additional struct {
		Score string `json:"score"`
	} `json:"_additional"`
	rank    float64
	matched int
}

// query runs a GraphQL Get of the collection and decodes its objects.
func (b *Backend) query(ctx context.Context, get string) ([]hit, error) {
	return b.queryClass(ctx, b.class, get)
}

// queryClass runs a GraphQL Get and decodes the objects of class.
func (b *Backend) queryClass(ctx context.Context, class, get string) ([]hit, error) {
	resp, err := b.client.GraphQL().Raw().WithQuery("{Get{" + get + "}}").Do(ctx)
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("weaviate: query: %w", ctx.Err())
	}
	if err != nil {
		return nil, fmt.Errorf("weaviate: query: %w", err)
	}
	if len(resp.Errors) > 0 {
		msgs := make([]string, len(resp.Errors))
		for i, e := range resp.Errors {
			msgs[i] = e.Message
		}
		return nil, fmt.Errorf("weaviate: query: %s", strings.Join(msgs, "; "))
	}
	raw, err := json.Marshal(resp.Data)
	if err != nil {
		return nil, fmt.Errorf("weaviate: query: %w", err)
	}
	var data struct {
		Get map[string][]hit `json:"Get"`
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		return nil, fmt.Errorf("weaviate: query: decode: %w", err)
	}
	return data.Get[class], nil
}

// args joins GraphQL arguments, leaving out empty ones.
func args(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "(" + strings.Join(out, ", ") + ")"
}

// whereArg renders a filter as a GraphQL argument ("" for none).
func whereArg(w *filters.WhereBuilder) string {
	if w == nil {
		return ""
	}
	return w.String()
}

// quote is a GraphQL string literal.
func quote(s string) string { return strconv.Quote(clean(s)) }

// vectorLiteral is a GraphQL list of numbers.
func vectorLiteral(v []float32) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.FormatFloat(float64(x), 'g', 7, 32))
	}
	sb.WriteByte(']')
	return sb.String()
}

// sortArg renders a sort: paths with "asc" or "desc".
func sortArg(keys ...[2]string) string {
	if len(keys) == 0 {
		return ""
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf(`{path:[%q], order:%s}`, k[0], k[1])
	}
	return "sort:[" + strings.Join(parts, ", ") + "]"
}
