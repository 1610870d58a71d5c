package openai

// Whether the configured server answers and takes the key, asked once on
// demand (the process's channel status), apart from any shopper's turn.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	sdk "github.com/openai/openai-go/v3"
)

// KeyRefusedError is the server refusing the API key (401 or 403).
type KeyRefusedError struct {
	Status string // "401 Unauthorized"
}

func (e *KeyRefusedError) Error() string {
	return "openai: the server refused the API key (" + e.Status + ")"
}

// Reach is what Check learned of the server.
type Reach struct {
	// Listed: the server lists its models (GET /models answered). Servers
	// without the list (404) are reachable but not Listed.
	Listed bool
	// HasModel: the configured model is among those listed.
	HasModel bool
	// Models is how many models the server lists.
	Models int
}

// Check asks the server for its models (GET /models, one attempt, no
// retries): the cheapest call that proves the server is reachable and
// takes the key. 404 counts as reachable (an OpenAI-compatible server
// need not have the list); 401 and 403 are a *KeyRefusedError; other
// failures never carry the key.
func (o *Client) Check(ctx context.Context) (Reach, error) {
	if o.configErr != nil {
		return Reach{}, fmt.Errorf("openai: %w", o.configErr)
	}
	page, err := o.models.List(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return Reach{}, fmt.Errorf("openai: list models: %w", ctx.Err())
		}
		return o.checkError(err)
	}
	r := Reach{Listed: true, Models: len(page.Data)}
	r.HasModel = slices.ContainsFunc(page.Data, func(m sdk.Model) bool { return m.ID == o.model })
	return r, nil
}

func (o *Client) checkError(err error) (Reach, error) {
	f := o.classify(err)
	switch f.status {
	case http.StatusNotFound:
		return Reach{}, nil
	case http.StatusUnauthorized, http.StatusForbidden:
		return Reach{}, &KeyRefusedError{Status: fmt.Sprintf("%d %s", f.status, http.StatusText(f.status))}
	}
	return Reach{}, errors.New("openai: list models: " + f.reason)
}
