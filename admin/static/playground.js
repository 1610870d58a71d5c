// The admin playground: a shopper's view of the web chat API with server-
// sent events, plus the tool calls of each turn. Everything received is
// inserted as text (textContent), never as HTML.
"use strict";
(function () {
  const log = document.getElementById("pg-log");
  const form = document.getElementById("pg-form");
  const input = document.getElementById("pg-input");
  const tools = document.getElementById("pg-tools");
  const scenario = document.getElementById("pg-scenario");
  let session = newSession();
  let busy = false;
  scenarioLink();

  // The download of this session as an eval scenario (YAML).
  function scenarioLink() {
    scenario.href = "/admin/playground/scenario?session=" + encodeURIComponent(session);
  }

  function newSession() {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return "pg-" + Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function scroll() { log.scrollTop = log.scrollHeight; }

  async function send(body, label) {
    if (busy) return;
    busy = true;
    const you = el("div", "msg you");
    you.appendChild(el("p", "text", label));
    log.appendChild(you);
    const bot = el("div", "msg assistant pg-reply");
    const text = el("p", "text", "");
    bot.appendChild(el("div", "meta", "bot"));
    bot.appendChild(text);
    log.appendChild(bot);
    scroll();
    body.session = session;
    try {
      const resp = await fetch("/api/chat", {
        method: "POST",
        headers: { "Content-Type": "application/json", "Accept": "text/event-stream" },
        body: JSON.stringify(body),
      });
      if (!resp.ok) {
        let msg = "HTTP " + resp.status;
        try { msg = (await resp.json()).error || msg; } catch (e) { /* not JSON */ }
        text.textContent = msg;
        bot.classList.add("error");
        return;
      }
      await readEvents(resp.body, (event, data) => render(event, data, bot, text));
    } catch (e) {
      text.textContent = "Connection failed: " + e;
    } finally {
      busy = false;
      scroll();
      loadTrace();
    }
  }

  async function readEvents(stream, onEvent) {
    const reader = stream.getReader();
    const dec = new TextDecoder();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        let event = "message", data = "";
        for (const line of block.split("\n")) {
          if (line.startsWith("event: ")) event = line.slice(7);
          else if (line.startsWith("data: ")) data += line.slice(6);
        }
        let parsed = {};
        try { parsed = JSON.parse(data || "{}"); } catch (e) { continue; }
        onEvent(event, parsed);
      }
    }
  }

  function render(event, data, bot, text) {
    switch (event) {
      case "text":
        text.textContent += data.text || "";
        break;
      case "done":
        if (!text.textContent && data.reply) text.textContent = data.reply;
        bot.dataset.done = "1";
        break;
      case "error":
        text.textContent = data.text || "error";
        bot.classList.add("error");
        break;
      case "cards": {
        const box = el("div", "pg-cards");
        for (const c of data.cards || []) {
          const card = el("div", "pg-card");
          card.dataset.sku = c.sku;
          if (c.image_url) {
            const img = el("img");
            img.src = c.image_url;
            img.alt = "";
            card.appendChild(img);
          }
          card.appendChild(el("strong", "", c.title));
          card.appendChild(el("div", "muted", c.sku + " · " + c.price_text + (c.in_stock ? "" : " · out of stock")));
          box.appendChild(card);
        }
        bot.appendChild(box);
        break;
      }
      case "buttons": {
        const box = el("div", "pg-buttons");
        for (const b of data.buttons || []) {
          const btn = el("button", "secondary", b.label);
          btn.type = "button";
          btn.addEventListener("click", () => send({ action: b.data }, "▸ " + b.label));
          box.appendChild(btn);
        }
        bot.appendChild(box);
        break;
      }
      case "cart":
        if (data.cart) bot.appendChild(el("div", "muted small", "Cart: " + data.cart.units + " item(s), " + data.cart.total_text));
        break;
      case "order":
        if (data.order) bot.appendChild(el("div", "small", "Order " + data.order.number + " · " + data.order.status + " · " + data.order.total_text));
        break;
    }
    scroll();
  }

  async function loadTrace() {
    try {
      const resp = await fetch("/admin/playground/trace?session=" + encodeURIComponent(session), { headers: { "Accept": "application/json" } });
      if (!resp.ok) return;
      const t = await resp.json();
      tools.textContent = "";
      tools.appendChild(el("p", "muted", (t.model || "no model") + " · " + t.tokens + " tokens"));
      if (!t.calls.length) tools.appendChild(el("p", "muted", "No tool calls in this turn."));
      for (const c of t.calls) {
        const d = el("details", "pg-call");
        d.open = true;
        d.appendChild(el("summary", "", c.name + (c.error ? " (error)" : "") + (c.latency_ms ? " · " + c.latency_ms + " ms" : "")));
        d.appendChild(el("div", "small", "Arguments"));
        d.appendChild(el("pre", "", c.arguments));
        d.appendChild(el("div", "small", "Result"));
        d.appendChild(el("pre", "", c.result));
        tools.appendChild(d);
      }
    } catch (e) { /* the chat still works */ }
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const msg = input.value.trim();
    if (!msg) return;
    input.value = "";
    send({ message: msg }, msg);
  });
  document.getElementById("pg-reset").addEventListener("click", () => {
    session = newSession();
    scenarioLink();
    log.textContent = "";
    tools.textContent = "";
  });
})();
