// Drives Shopbot's MCP door with the official TypeScript SDK: lists the
// tools, searches, builds a cart, checks out with one idempotency key
// sent twice, and reads the order. Prints one JSON line of what it saw;
// exits non-zero on any failure. Usage: node client.mjs <mcp url>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = new URL(process.argv[2]);
const client = new Client({ name: "ts-sdk-agent", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(url));

async function call(name, args) {
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) throw new Error(`${name}: ${res.content[0].text}`);
  return res.structuredContent;
}

function first(v, key) {
  if (Array.isArray(v)) { for (const e of v) { const s = first(e, key); if (s) return s; } return ""; }
  if (v && typeof v === "object") {
    if (typeof v[key] === "string" && v[key]) return v[key];
    for (const e of Object.values(v)) { const s = first(e, key); if (s) return s; }
  }
  return "";
}

const { tools } = await client.listTools();
const found = await call("search_products", { query: "mug" });
const sku = first(found, "sku");
await call("add_to_cart", { sku, quantity: 2, idempotency_key: "ts-add-1" });
const cart = await call("view_cart", {});
const summary = await call("create_checkout", {
  name: "Jane Doe", email: "jane@example.com",
  address: { line1: "123 Main St", city: "Springfield", region: "IL", postal_code: "62701", country: "US" },
  idempotency_key: "ts-checkout-1",
});
const a = await call("complete_checkout", { idempotency_key: "ts-complete-1" });
const b = await call("complete_checkout", { idempotency_key: "ts-complete-1" });
const number = first(a.order, "number");
const status = await call("get_order_status", { order_number: number });
await client.close();
console.log(JSON.stringify({
  tools: tools.map((t) => t.name), sku, units: cart.units, summary: summary.status,
  orders: [first(a.order, "number"), first(b.order, "number")], payment: a.payment?.status,
  read: first(status, "number"),
}));
