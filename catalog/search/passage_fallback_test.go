package search_test

import (
	"context"
	"errors"
	"testing"

	"shopbot/catalog/search"
)

type passageFunc func(context.Context, search.PassageQuery) ([]search.Passage, error)

func (f passageFunc) SearchPassages(ctx context.Context, q search.PassageQuery) ([]search.Passage, error) {
	return f(ctx, q)
}

func TestPassageFallback(t *testing.T) {
	down := passageFunc(func(context.Context, search.PassageQuery) ([]search.Passage, error) {
		return nil, errors.New("refused")
	})
	slow := passageFunc(func(ctx context.Context, _ search.PassageQuery) ([]search.Passage, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	up := passageFunc(func(context.Context, search.PassageQuery) ([]search.Passage, error) {
		return []search.Passage{{Ref: "primary"}}, nil
	})
	local := passageFunc(func(context.Context, search.PassageQuery) ([]search.Passage, error) {
		return []search.Passage{{Ref: "local"}}, nil
	})
	for _, tc := range []struct {
		name    string
		primary search.PassageSearcher
		want    string
	}{{"up", up, "primary"}, {"down", down, "local"}, {"slow", slow, "local"}} {
		f := search.PassageFallback{Primary: tc.primary, Secondary: local, Timeout: 1}
		if tc.name == "up" {
			f.Timeout = 0
		}
		ps, err := f.SearchPassages(context.Background(), search.PassageQuery{Text: "x"})
		if err != nil || len(ps) != 1 || ps[0].Ref != tc.want {
			t.Errorf("%s: %+v, %v", tc.name, ps, err)
		}
	}
}
