package demo

import (
	"reflect"
	"testing"
)

// TestReviewsWorthSearching: every demo review has a title, some are
// critical about a real problem, the count is as hand-written, and the
// shop is the same at every load.
func TestReviewsWorthSearching(t *testing.T) {
	ps, err := Products()
	if err != nil {
		t.Fatal(err)
	}
	stars := map[int]int{}
	total := 0
	for _, p := range ps {
		for _, r := range p.Reviews {
			total++
			stars[r.Rating]++
			if r.Title == "" || r.Text == "" || r.Author == "" {
				t.Errorf("%s: review %+v lacks a title, text or author", p.Input.SKU, r)
			}
		}
	}
	if total != 904 {
		t.Errorf("%d demo reviews, want the 904 written", total)
	}
	// A real shop's spread: mostly good, a few critical.
	if stars[1] < 5 || stars[2] < 20 || stars[3] < 50 || stars[5] < total/3 {
		t.Errorf("ratings spread %v of %d", stars, total)
	}
	again, err := Products()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ps, again) {
		t.Error("two loads of the demo differ")
	}
}

func TestReviewTitle(t *testing.T) {
	for _, c := range []struct {
		r    Review
		want []string
	}{
		{Review{Rating: 5, Text: "Comfortable for a whole workday and the battery lasts over a week for me."}, []string{"So comfortable", "Comfortable all day"}},
		{Review{Rating: 2, Text: "Battery died after a month."}, []string{"Battery fades fast"}},
		{Review{Rating: 4, Text: "Runs half a size large. Great cushioning otherwise."}, []string{"Runs large"}},
		{Review{Rating: 5, Text: "Consistent fit and they last me around 600 km."}, []string{"True to size", "Fits perfectly"}},
		{Review{Rating: 4, Text: "Лёгкие и удобные, но шнурки длинные."}, []string{"Удобно, но есть нюансы"}},
		{Review{Rating: 1, Text: "Nothing to say."}, []string{"Would not buy again", "Very disappointed"}},
	} {
		got := reviewTitle(c.r, 0)
		found := false
		for _, w := range c.want {
			found = found || got == w
		}
		if !found {
			t.Errorf("title of %q = %q, want one of %v", c.r.Text, got, c.want)
		}
	}
}

// BenchmarkEnrichReviews is what titling and the critical reviews add to
// a demo load.
func BenchmarkEnrichReviews(b *testing.B) {
	ps, err := Products()
	if err != nil {
		b.Fatal(err)
	}
	raw := make([]Product, len(ps))
	for b.Loop() {
		for i, p := range ps {
			raw[i] = p
			raw[i].Reviews = append([]Review(nil), p.Reviews...)
			for j := range raw[i].Reviews {
				raw[i].Reviews[j].Title = ""
			}
		}
		enrichReviews(raw)
	}
}

// BenchmarkProducts is the whole parse of the demo catalog, for scale.
func BenchmarkProducts(b *testing.B) {
	for b.Loop() {
		if _, err := Products(); err != nil {
			b.Fatal(err)
		}
	}
}
