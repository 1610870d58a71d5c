package reviews

// TextMax is how many characters of a review get_reviews_summary quotes.
const TextMax = reviewTextMax

// Passages is how many reviews search_reviews quotes at most.
const Passages = reviewPassages
