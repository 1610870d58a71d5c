package admin

import (
	"fmt"
	"net/http"
	"strconv"

	"shopbot/catalog"
)

// productReviewsMax is how many of a product's reviews the page lists,
// newest first.
const productReviewsMax = 200

// productReviewsPage is /admin/products/{id}/reviews: the product's
// reviews, hidden ones too, each with a hide or show button. A hidden
// review leaves search_reviews, the summary quotes and the rating.
type productReviewsPage struct {
	ID      int64
	SKU     string
	Title   string
	Rating  float64
	Count   int
	Reviews []catalog.Review
	Max     int
}

func (s *Server) productReviews(w http.ResponseWriter, r *http.Request) {
	p, err := productByID(r.Context(), s.db, r.PathValue("id"))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	rs, err := catalog.ProductReviews(r.Context(), s.db, p.ID, productReviewsMax)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	pg := productReviewsPage{ID: p.ID, SKU: p.SKU, Title: p.Title, Rating: p.RatingAvg, Count: p.RatingCount, Reviews: rs, Max: productReviewsMax}
	s.render(w, r, http.StatusOK, "product_reviews", "Reviews of "+p.Title, "products", pg)
}

func (s *Server) hideReview(w http.ResponseWriter, r *http.Request) { s.setReviewHidden(w, r, true) }
func (s *Server) showReview(w http.ResponseWriter, r *http.Request) { s.setReviewHidden(w, r, false) }

// setReviewHidden hides or shows one of the product's reviews; a review
// of another product is not found here.
func (s *Server) setReviewHidden(w http.ResponseWriter, r *http.Request, hidden bool) {
	p, err := productByID(r.Context(), s.db, r.PathValue("id"))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	id, err := strconv.ParseInt(r.PathValue("review"), 10, 64)
	if err != nil || id <= 0 {
		s.renderError(w, r, notFound("Review"))
		return
	}
	rv, err := catalog.GetReview(r.Context(), s.db, id)
	if err != nil || rv.ProductID != p.ID {
		s.renderError(w, r, notFound("Review"))
		return
	}
	if err := catalog.SetReviewHidden(r.Context(), s.db, id, hidden); err != nil {
		s.renderError(w, r, err)
		return
	}
	msg := fmt.Sprintf("Hid the review by %s: shoppers and the assistant no longer see it.", rv.Author)
	if !hidden {
		msg = fmt.Sprintf("Showed the review by %s again.", rv.Author)
	}
	redirect(w, r, fmt.Sprintf("/admin/products/%d/reviews", p.ID), msg)
}
