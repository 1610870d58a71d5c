package tools

import (
	"encoding/json"

	"shopbot/engine/session"
	"shopbot/engine/toolkit"
)

// The toolkit's vocabulary (engine/toolkit) under the names the tool
// files and the tools' callers use: what a tool is, returns and fails
// with, and the stores it reads and writes through.
type (
	Tool            = toolkit.Tool
	Result          = toolkit.Result
	ToolError       = toolkit.ToolError
	Toolbox         = toolkit.Toolbox
	Products        = toolkit.Products
	Carts           = toolkit.Carts
	Orders          = toolkit.Orders
	Deliveries      = toolkit.Deliveries
	ReviewReader    = toolkit.ReviewReader
	Store           = toolkit.Store
	Writes          = toolkit.Writes
	WriteStore      = toolkit.WriteStore
	EffectTx        = toolkit.EffectTx
	PassageSearcher = toolkit.PassageSearcher
	LabelKey        = toolkit.LabelKey
)

// The button labels (toolkit/labels.go).
const (
	BtnConfirm      = toolkit.BtnConfirm
	BtnEditCart     = toolkit.BtnEditCart
	BtnAdd          = toolkit.BtnAdd
	BtnAddToCart    = toolkit.BtnAddToCart
	BtnMoreLikeThis = toolkit.BtnMoreLikeThis
	BtnCheckout     = toolkit.BtnCheckout
	BtnViewCart     = toolkit.BtnViewCart
	BtnNotifyMe     = toolkit.BtnNotifyMe
)

// Label is a button label in the session's language (toolkit.Label).
func Label(s *session.Session, key LabelKey) string { return toolkit.Label(s, key) }

// Errorf builds a ToolError.
func Errorf(format string, args ...any) error { return toolkit.Errorf(format, args...) }

// DecodeArgs decodes validated arguments into a tool's typed struct.
func DecodeArgs(args json.RawMessage, v any) error { return toolkit.DecodeArgs(args, v) }

// NewToolbox compiles the tools' schemas (toolkit.NewToolbox).
func NewToolbox(tools ...Tool) (*Toolbox, error) { return toolkit.NewToolbox(tools...) }

// ModelMessage is what the model reads of a tool's outcome (toolkit.ModelMessage).
func ModelMessage(res Result, err error) (content string, isErr bool) {
	return toolkit.ModelMessage(res, err)
}

// IsUserError reports an error the shopper or model caused and can fix.
func IsUserError(err error) bool { return toolkit.IsUserError(err) }

// ToMinor converts a decimal amount in the shop currency to minor units.
func ToMinor(amount float64, currency string) (int64, error) {
	return toolkit.ToMinor(amount, currency)
}

// FoundNothing marks a search result's content as finding nothing.
func FoundNothing(content string) string { return toolkit.FoundNothing(content) }

// JSON encodes compactly without HTML escaping.
func JSON(v any) string { return toolkit.JSON(v) }
