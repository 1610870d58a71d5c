package demo

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
)

// synProduct is one line of the `shopbot import` JSONL format, fields in
// the documented order.
type synProduct struct {
	SKU         string            `json:"sku"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Brand       string            `json:"brand"`
	Category    string            `json:"category"`
	Price       string            `json:"price"`
	Currency    string            `json:"currency"`
	Stock       int               `json:"stock"`
	ImageURL    string            `json:"image_url"`
	Attributes  map[string]string `json:"attributes"`
}

// synSub is a subcategory: path below the top level (1–2 names), product
// nouns, fitting adjectives, price range in whole dollars and the attribute
// keys a product draws 2–5 from. Lists are "|"-separated; an attribute may
// override the top-level values as "key=a/b/c".
type synSub struct {
	path, nouns, adjs string
	lo, hi            int
	attrs             string
}

// synTop is a top-level category. vals holds "key=a|b;key2=c|d" values for
// attribute keys; color, weight and pack_size have global defaults.
type synTop struct {
	name, brands, vals, taglines string
	subs                         []synSub
}

var synTables = []synTop{
	{"Apparel", "Nordvik|Fjellmark|Loomwell|Harbor & Pine|Urbanthread",
		"material=cotton|organic cotton|merino wool|nylon|polyester|linen|fleece|denim;size=XS|S|M|L|XL|XXL",
		"Machine washable and made to keep its shape.|Cut for easy layering with a true-to-size fit.|Finished with reinforced seams for years of wear.", []synSub{
			{"Jackets > Rain", "rain jacket|shell jacket|anorak", "Waterproof|Packable|Lightweight|Breathable", 49, 229, "color|material=nylon/polyester|size|weight"},
			{"Jackets > Winter", "parka|puffer jacket|insulated coat", "Insulated|Hooded|Quilted|Windproof", 89, 449, "color|material=nylon/polyester/wool blend|size|weight"},
			{"Tops", "t-shirt|hoodie|flannel shirt|crewneck sweater|polo shirt", "Classic|Relaxed-Fit|Slim-Fit|Everyday|Soft", 12, 89, "color|material=cotton/organic cotton/merino wool/linen/fleece|size"},
			{"Bottoms", "chinos|joggers|jeans|hiking pants|shorts", "Stretch|Slim-Fit|Relaxed-Fit|Classic", 19, 119, "color|material=cotton/denim/nylon/linen|size"},
			{"Accessories", "beanie|scarf|baseball cap|belt|gloves", "Classic|Knit|Warm|Everyday", 8, 59, "color|material=wool/cotton/leather/fleece|size"}}},
	{"Shoes", "AeroStride|Trailcrest|Kestrel|Stompwell|Vantage",
		"material=mesh|leather|suede|knit|canvas|synthetic|rubber;size=36|37|38|39|40|41|42|43|44|45|46",
		"The grippy rubber outsole handles wet pavement.|A cushioned insole keeps feet comfortable all day.|True to size; half sizes should size up.", []synSub{
			{"Running", "running shoes|trail runners|racing flats", "Cushioned|Lightweight|Responsive|Breathable", 49, 219, "color|material=mesh/knit|size|weight"},
			{"Hiking", "hiking boots|approach shoes|hiking shoes", "Waterproof|Rugged|Mid-Cut|Grippy", 69, 259, "color|material=leather/suede/synthetic|size|weight"},
			{"Casual", "sneakers|loafers|slip-ons|canvas shoes", "Classic|Everyday|Low-Top|Minimal", 29, 149, "color|material=canvas/leather/suede/knit|size"},
			{"Boots > Chelsea", "chelsea boots|ankle boots", "Pull-On|Weatherproof|Classic", 79, 299, "color|material=leather/suede|size|weight"},
			{"Sandals", "slides|sport sandals|flip-flops", "Cushioned|Quick-Dry|Adjustable", 15, 99, "color|material=rubber/synthetic/leather|size"}}},
	{"Electronics", "Auralis|Voltaro|Pixelon|Sonique|Kinetix",
		"material=aluminum|plastic|silicone|fabric;capacity=64 GB|128 GB|256 GB|512 GB|1 TB",
		"Backed by a two-year limited warranty.|Charges over USB-C and sets up in minutes.|Firmware updates add features over time.", []synSub{
			{"Headphones", "wireless earbuds|over-ear headphones|on-ear headphones|sport earphones", "Compact|Noise-Cancelling|Studio|Sport", 19, 399, "color|material=plastic/aluminum|weight"},
			{"Tablets & E-Readers", "tablet|e-reader|drawing tablet", "10-Inch|Slim|Lightweight|Glare-Free", 79, 899, "color|capacity|weight"},
			{"Storage", "portable SSD|USB flash drive|microSD card|external hard drive", "High-Speed|Rugged|Compact|Pocket", 9, 299, "capacity|color|weight"},
			{"Smart Home", "smart plug|video doorbell|smart speaker|Wi-Fi camera", "Voice-Controlled|Compact|Indoor|Wireless", 15, 249, "color|material=plastic/aluminum|weight"},
			{"Accessories > Chargers", "USB-C charger|wireless charging pad|power bank|car charger", "Fast|Compact|Dual-Port|Foldable", 9, 89, "color|material=plastic/aluminum|weight"}}},
	{"Home", "Oakhaven|Linden & Co.|Hearthstone|Casa Nova|Dunmore",
		"material=cotton|linen|velvet|oak|walnut|ceramic|rattan|wool;size=Twin|Full|Queen|King",
		"Designed to fit small apartments and family homes alike.|Arrives in recyclable packaging.|Pairs well with warm wood and neutral tones.", []synSub{
			{"Furniture", "sofa|armchair|coffee table|bookshelf|side table", "Mid-Century|Modern|Rustic|Compact", 79, 1899, "color|material=oak/walnut/velvet/linen/rattan|weight"},
			{"Bedding", "duvet cover set|sheet set|quilt|pillow pair", "Breathable|Soft-Washed|Cooling|Cozy", 25, 249, "color|material=cotton/linen/percale cotton/flannel|size"},
			{"Decor > Lighting", "table lamp|floor lamp|pendant light", "Dimmable|Minimalist|Vintage|Modern", 29, 349, "color|material=ceramic/brass/glass/rattan|weight"},
			{"Decor > Rugs", "area rug|runner rug|doormat", "Hand-Woven|Washable|Low-Pile|Boho", 19, 599, "color|material=wool/jute/cotton|weight"},
			{"Storage & Organization", "storage basket|shoe rack|closet organizer|storage bins", "Stackable|Foldable|Woven|Sturdy", 12, 149, "color|material=rattan/seagrass/metal/fabric|pack_size"}}},
	{"Kitchen", "Ironhearth|Copperline|Mesa Kitchen|Brightforge|Saltwell",
		"material=stainless steel|cast iron|ceramic|glass|bamboo|silicone|carbon steel;capacity=0.5 l|1 l|1.5 l|1.7 l|3 qt|5.5 qt|6 qt;size=8 in|10 in|12 in",
		"Dishwasher safe for easy cleanup.|Built for daily use in busy home kitchens.|Works on gas, electric and induction cooktops.", []synSub{
			{"Cookware", "skillet|Dutch oven|saucepan|stockpot|wok", "Nonstick|Pre-Seasoned|Tri-Ply|Enameled", 19, 349, "color|material=stainless steel/cast iron/carbon steel/hard-anodized aluminum|size|weight|capacity"},
			{"Small Appliances", "electric kettle|blender|toaster|coffee maker|air fryer", "Compact|Programmable|Quiet|High-Speed", 24, 499, "color|capacity|weight|material=stainless steel/plastic/glass"},
			{"Cutlery", "chef's knife|knife block set|paring knife|bread knife", "Forged|Hand-Honed|Razor-Sharp|Balanced", 12, 399, "material=stainless steel/high-carbon steel/damascus steel|size|weight|pack_size"},
			{"Storage > Food Containers", "glass food containers|lunch box|vacuum canister|spice jars", "Airtight|Leak-Proof|Stackable|Microwave-Safe", 9, 79, "material=glass/bpa-free plastic/stainless steel|capacity|pack_size|color"},
			{"Tableware", "dinner plates|coffee mugs|pasta bowls|wine glasses", "Stoneware|Handmade|Stackable|Everyday", 14, 149, "color|material=stoneware/porcelain/glass|pack_size"}}},
	{"Grocery", "Ridgeback Roasters|Green Acre|Harvest Lane|Mill & Meadow|Saltmarsh",
		"flavor=original|dark chocolate|sea salt|vanilla|honey|cinnamon|lemon;capacity=250 ml|500 ml|750 ml|1 l",
		"Packed in a resealable bag to stay fresh.|Made without artificial colors or preservatives.|Sourced from family-run farms.", []synSub{
			{"Coffee & Tea", "ground coffee|whole bean coffee|green tea|chai tea bags|cold brew concentrate", "Organic|Medium-Roast|Dark-Roast|Fair Trade", 5, 39, "flavor|weight|pack_size"},
			{"Snacks", "granola bars|trail mix|kettle chips|almonds|dark chocolate bar", "Organic|Gluten-Free|Crunchy|Lightly Salted", 2, 29, "flavor|weight|pack_size"},
			{"Pantry > Pasta & Grains", "spaghetti|basmati rice|rolled oats|quinoa", "Organic|Whole Grain|Bronze-Cut|Artisan", 2, 24, "weight|pack_size"},
			{"Pantry > Oils & Sauces", "extra virgin olive oil|pasta sauce|hot sauce|maple syrup", "Cold-Pressed|Organic|Small-Batch|Smoky", 3, 34, "flavor|capacity|pack_size"},
			{"Beverages", "sparkling water|kombucha|oat milk|sports drink", "Unsweetened|Organic|Low-Sugar|Refreshing", 3, 39, "flavor|capacity|pack_size"}}},
	{"Toys", "Brickwise|Tinkerly|Puzzleworks|Wildwood Toys|Starhop",
		"material=abs plastic|wood|plush|cardboard|silicone;size=small|medium|large;age_range=3+|5+|8+|12+",
		"Tested to meet toy safety standards.|A great gift for birthdays and holidays.|Encourages creativity and hands-on play.", []synSub{
			{"Building Sets", "building set|marble run|magnetic tiles", "Creative|Deluxe|Starter|Space-Themed", 12, 149, "material=abs plastic/wood|age_range|pack_size|color"},
			{"Puzzles", "jigsaw puzzle|3D puzzle|brain teaser set", "1000-Piece|Panoramic|Wooden|Family", 8, 49, "material=cardboard/wood|age_range|size"},
			{"Plush", "teddy bear|plush dinosaur|stuffed bunny", "Cuddly|Soft|Jumbo|Mini", 9, 59, "color|material=plush/cotton|size|age_range"},
			{"Games > Board Games", "board game|card game|strategy game", "Family|Cooperative|Party|Classic", 12, 79, "age_range|pack_size|weight"},
			{"Outdoor Play", "kite|water blaster|bubble machine|balance bike", "Colorful|Kid-Safe|Sturdy|Backyard", 9, 149, "color|material=plastic/steel/nylon|age_range|weight"}}},
	{"Sports & Outdoors", "Timberline Ridge|Summitry|Northbound|Kestrel Outdoor|Tidewater",
		"material=ripstop nylon|polyester|aluminum|carbon fiber|neoprene|steel|rubber;size=S|M|L|XL;capacity=1 person|2 person|4 person|6 person",
		"Tested in the field by our gear team.|Packs down small for travel.|Built to handle rain, mud and rough trails.", []synSub{
			{"Camping > Tents", "dome tent|backpacking tent|cabin tent", "3-Season|Ultralight|Freestanding|Family", 59, 699, "capacity|color|material=ripstop nylon/polyester|weight"},
			{"Hiking > Backpacks", "daypack|hiking backpack|hydration pack", "Ventilated|Lightweight|Rain-Ready|Trail", 29, 299, "color|material=nylon/ripstop nylon/polyester|size|weight"},
			{"Fitness", "yoga mat|dumbbell set|resistance bands|kettlebell", "Non-Slip|Adjustable|Home Gym|Durable", 9, 399, "color|material=rubber/steel/tpe/neoprene|weight|pack_size"},
			{"Cycling", "bike helmet|bike light set|cycling gloves", "Aero|Reflective|Padded|Commuter", 12, 249, "color|material=polycarbonate/nylon/leather|size"},
			{"Water Sports", "kayak paddle|wetsuit|snorkel set", "Adjustable|Quick-Dry|Thermal|Travel", 19, 499, "color|material=neoprene/carbon fiber/silicone|size|weight"}}},
	{"Beauty", "Lumeva|Clearmont|Velour Lab|Petal & Pine|Solenne",
		"color=nude|rose|berry|coral|classic red|plum;capacity=15 ml|30 ml|50 ml|100 ml|200 ml|500 ml;scent=unscented|lavender|citrus|rose|sandalwood|eucalyptus;skin_type=dry|oily|combination|sensitive|all",
		"Dermatologist tested and cruelty-free.|Free from parabens and sulfates.|A little goes a long way.", []synSub{
			{"Skincare", "face moisturizer|serum|cleanser|sunscreen SPF 50", "Hydrating|Fragrance-Free|Brightening|Gentle", 8, 79, "capacity|skin_type|scent"},
			{"Hair Care", "shampoo|conditioner|hair oil|styling cream", "Nourishing|Sulfate-Free|Volumizing|Repairing", 6, 49, "capacity|scent|pack_size"},
			{"Makeup > Lips", "lipstick|lip balm|lip gloss", "Long-Wear|Tinted|Matte|Moisturizing", 5, 39, "color|capacity|pack_size"},
			{"Fragrance", "eau de parfum|eau de toilette|body mist", "Floral|Woody|Fresh|Warm", 19, 149, "scent|capacity"},
			{"Bath & Body", "body wash|hand cream|bath bombs|body lotion", "Soothing|Rich|Foaming|Natural", 5, 39, "scent|capacity|pack_size|skin_type"}}},
	{"Books", "Harrow & Vale|Greywater Books|Lanternfish Press|Ashgrove|Northlight",
		"format=hardcover|paperback|large print;language=English|Spanish|French|German;pages=128|192|256|320|384|448|512",
		"A favorite pick for book clubs.|Printed on acid-free paper.|Includes a reader's guide at the back.", []synSub{
			{"Fiction > Mystery", "mystery novel|detective thriller|cozy mystery", "Gripping|Award-Winning|Bestselling", 9, 32, "format|language|pages|weight"},
			{"Fiction > Fantasy", "fantasy epic|fantasy novel|dragon saga", "Sweeping|Bestselling|Enchanting", 9, 34, "format|language|pages|weight"},
			{"Cookbooks", "cookbook|baking book|vegetarian cookbook", "Illustrated|Everyday|Seasonal", 14, 45, "format|language|pages|weight"},
			{"Children's", "picture book|bedtime story collection|activity book", "Illustrated|Rhyming|Interactive", 5, 24, "format|language|pages"},
			{"Science & Nature", "field guide to birds|popular science book|astronomy guide", "Illustrated|Pocket|Essential", 12, 59, "format|language|pages|weight"}}},
	{"Office", "Hartwell & Co.|Paperloft|Deskline|Inkwell|Ardent",
		"material=paper|leather|aluminum|steel|bamboo|mesh|plastic;size=A4|A5|A6|Letter",
		"Designed for home offices and busy desks.|Backed by a one-year warranty.|Made with responsibly sourced materials.", []synSub{
			{"Stationery > Notebooks", "dotted notebook|ruled journal|sketchbook|planner", "Hardcover|Refillable|Lay-Flat|Pocket", 6, 39, "color|material=paper/leather/linen|size|pack_size"},
			{"Stationery > Pens", "gel pens|fountain pen|fineliner set|highlighters", "Smooth|Quick-Dry|Refillable|Fine-Point", 4, 89, "color|material=plastic/aluminum/brass|pack_size"},
			{"Furniture", "office chair|standing desk|monitor stand|footrest", "Ergonomic|Height-Adjustable|Compact|Sturdy", 29, 899, "color|material=steel/mesh/bamboo/oak|weight"},
			{"Organization", "desk organizer|file cabinet|cable management box|document trays", "Stackable|Minimal|Lockable|Modular", 9, 249, "color|material=bamboo/steel/plastic|size"},
			{"Supplies", "printer paper|sticky notes|paper clips|labels", "Bright White|Recycled|Premium|Heavy-Duty", 3, 59, "size|pack_size|color"}}},
	{"Pets", "Hearthfield|Pawsome|Whisker & Tail|Barkley|Fetchworks",
		"material=nylon|rubber|cotton|plush|stainless steel|ceramic;size=XS|S|M|L|XL;flavor=chicken|salmon|beef|lamb|turkey",
		"Vet approved and made in small batches.|Easy to clean and built to last.|Loved by dogs and cats of every size.", []synSub{
			{"Dog Food", "dry dog food|wet dog food|dog treats|dental chews", "Grain-Free|High-Protein|Natural|Puppy", 4, 89, "flavor|weight|pack_size"},
			{"Cat Food", "dry cat food|wet cat food|cat treats", "Grain-Free|Indoor|Natural|Kitten", 3, 69, "flavor|weight|pack_size"},
			{"Toys", "chew toy|rope toy|cat teaser wand|squeaky ball", "Durable|Interactive|Tough|Floating", 4, 29, "color|material=rubber/nylon/rope/plush|size|pack_size"},
			{"Beds & Crates > Beds", "dog bed|cat bed|bolster bed", "Washable|Calming|Orthopedic|Cozy", 19, 199, "color|material=plush/cotton/memory foam|size|weight"},
			{"Accessories", "dog leash|harness|collar|food bowl", "Reflective|No-Pull|Adjustable|Non-Slip", 6, 79, "color|material=nylon/leather/stainless steel/ceramic|size"}}},
}

var synDefaults = "color=black|white|navy|gray|charcoal|olive|red|forest green|sand|burgundy|sky blue|tan|mustard|blush pink;pack_size=1|2|3|4|6|12|24"

// Parsed forms of synTables, built once.
type synSubP struct {
	category           string
	nouns, adjs, attrs []string
	lo, hi             int
	vals               map[string][]string
}
type synTopP struct {
	brands, taglines []string
	vals             map[string][]string
	subs             []synSubP
}

var synParsed = func() []synTopP {
	defaults := synVals(synDefaults)
	out := make([]synTopP, len(synTables))
	for i, t := range synTables {
		p := synTopP{brands: strings.Split(t.brands, "|"), taglines: strings.Split(t.taglines, "|"), vals: synVals(t.vals)}
		for k, v := range defaults {
			if _, ok := p.vals[k]; !ok {
				p.vals[k] = v
			}
		}
		for _, s := range t.subs {
			sp := synSubP{category: t.name + " > " + s.path, nouns: strings.Split(s.nouns, "|"),
				adjs: strings.Split(s.adjs, "|"), lo: s.lo, hi: s.hi, vals: map[string][]string{}}
			for _, a := range strings.Split(s.attrs, "|") {
				k, v, ok := strings.Cut(a, "=")
				if sp.attrs = append(sp.attrs, k); ok {
					sp.vals[k] = strings.Split(v, "/")
				}
			}
			p.subs = append(p.subs, sp)
		}
		out[i] = p
	}
	return out
}()

func synVals(s string) map[string][]string {
	m := map[string][]string{}
	for _, kv := range strings.Split(s, ";") {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = strings.Split(v, "|")
	}
	return m
}

// WriteSynthetic writes n synthetic products as JSONL to w. The same seed
// always produces the same bytes.
func WriteSynthetic(w io.Writer, n int, seed int64) error {
	if n < 0 {
		return errors.New("demo: synthetic catalog size must not be negative")
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x5eed_c0ffee_5a1e))
	bw := bufio.NewWriterSize(w, 256<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	p := synProduct{Currency: "USD", Attributes: map[string]string{}}
	var keys [8]string
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		top := &synParsed[r.IntN(len(synParsed))]
		sub := &top.subs[r.IntN(len(top.subs))]
		noun, adj := pick(r, sub.nouns), pick(r, sub.adjs)
		p.Brand, p.Category = pick(r, top.brands), sub.category

		s := strconv.Itoa(i)
		p.SKU = "SYN-" + strings.Repeat("0", max(0, 7-len(s))) + s
		p.Price, p.Stock, p.ImageURL = synPrice(r, sub.lo, sub.hi), 0, ""
		if r.IntN(20) != 0 {
			p.Stock = 1 + r.IntN(500)
		}
		if r.IntN(5) != 0 {
			p.ImageURL = "https://picsum.photos/seed/" + p.SKU + "/800/800"
		}

		// Draw 2–5 distinct attribute keys (partial Fisher–Yates).
		k := copy(keys[:], sub.attrs)
		want := 2 + r.IntN(min(5, k)-1)
		clear(p.Attributes)
		for j := range want {
			x := j + r.IntN(k-j)
			keys[j], keys[x] = keys[x], keys[j]
			if keys[j] == "weight" {
				p.Attributes["weight"] = synWeight(r, sub.hi)
			} else if v := sub.vals[keys[j]]; v != nil {
				p.Attributes[keys[j]] = pick(r, v)
			} else {
				p.Attributes[keys[j]] = pick(r, top.vals[keys[j]])
			}
		}
		a := p.Attributes

		sb.Reset()
		sb.WriteString(p.Brand + " " + adj + " " + synTitle(noun))
		switch {
		case a["color"] != "":
			sb.WriteString(", " + synTitle(a["color"]))
		case a["capacity"] != "":
			sb.WriteString(", " + a["capacity"])
		case a["format"] != "":
			sb.WriteString(", " + synTitle(a["format"]))
		case a["pack_size"] != "" && a["pack_size"] != "1":
			sb.WriteString(", Pack of " + a["pack_size"])
		}
		p.Title = sb.String()

		sb.Reset()
		sb.WriteString("The " + strings.ToLower(adj) + " " + noun + " from " + p.Brand)
		c, m := a["color"], a["material"]
		switch {
		case c != "" && m != "":
			sb.WriteString(", in " + c + " and made from " + m)
		case c != "":
			sb.WriteString(", in " + c)
		case m != "":
			sb.WriteString(", made from " + m)
		}
		if !strings.HasSuffix(p.Brand, ".") || c+m != "" {
			sb.WriteByte('.') // no "Co.." when the brand ends the sentence
		}
		if r.IntN(4) != 0 {
			sb.WriteString(" " + pick(r, top.taglines))
		}
		p.Description = sb.String()

		if err := enc.Encode(&p); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func pick(r *rand.Rand, s []string) string { return s[r.IntN(len(s))] }

// synPrice skews toward the low end of [lo, hi] dollars and uses retail
// endings (.99, .49, .00); the result stays within 1.00–3000.00.
func synPrice(r *rand.Rand, lo, hi int) string {
	u := r.Float64()
	cents := (lo + int(float64(hi-lo)*u*u)) * 100
	switch e := r.IntN(20); {
	case e < 12:
		cents -= 1
	case e < 15:
		cents -= 51
	}
	cents = min(max(cents, 100), 300000)
	return strconv.Itoa(cents/100) + "." + strconv.Itoa(cents/10%10) + strconv.Itoa(cents%10)
}

// synWeight returns a shipping weight loosely tied to the price ceiling.
func synWeight(r *rand.Rand, hi int) string {
	g := (50 + r.IntN(450)) * (1 + r.IntN(1+hi/50))
	if g < 1000 {
		return strconv.Itoa(g) + " g"
	}
	return strconv.FormatFloat(float64(g)/1000, 'f', 1, 64) + " kg"
}

func synTitle(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}
