-- The shop's own search synonyms (catalog/search_synonyms.go): groups of
-- interchangeable terms the merchant adds in the panel (Search synonyms),
-- expanded with the built-in lexicon by both search backends. terms is the
-- normalized group ("couch, sofa": lower-cased, trimmed, sorted, unique),
-- unique so adding the same group twice keeps one.
CREATE TABLE search_synonyms (
    id         INTEGER PRIMARY KEY,
    terms      TEXT NOT NULL UNIQUE CHECK (terms <> ''),
    created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);
