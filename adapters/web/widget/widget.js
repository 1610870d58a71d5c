/* Shopbot web chat widget: one <script src="https://SHOP/widget.js" async> tag.
 * Vanilla JS, no framework, no eval, no inline styles: it lives in a shadow
 * root styled by a constructed stylesheet, talks only to the shop that
 * served it (POST /api/chat as server-sent events, GET /api/chat/history,
 * GET /api/chat/events) and keeps its session id in localStorage.
 * Protocol: docs/web-chat.md. Strings: engine/locale/messages (widget.*). */
(function () {
  'use strict';
  var S = /*STRINGS*/{"en": {}};
  var script = document.currentScript;
  if (!script || window.__shopbotWidget) return;
  window.__shopbotWidget = true;
  var base = new URL(script.src, location.href).origin;
  var ds = script.dataset;
  var KEY = 'shopbot.session:' + base;

  function pickLang() {
    var l = (ds.locale || document.documentElement.lang || navigator.language || 'en').toLowerCase().split(/[-_]/)[0];
    return S[l] ? l : 'en';
  }
  var lang = pickLang();
  function t(k, arg) {
    var s = (S[lang] && S[lang][k]) || S.en[k] || k;
    return arg === undefined ? s : s.replace('%s', arg);
  }

  function newSession() {
    var b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join('');
  }
  var session;
  try {
    session = localStorage.getItem(KEY);
    if (!/^[A-Za-z0-9_-]{16,64}$/.test(session || '')) {
      session = newSession();
      localStorage.setItem(KEY, session);
    }
  } catch (e) { session = newSession(); }

  /* ---------- DOM helpers (text only: nothing the server sends is parsed as HTML) ---------- */
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  /* add appends children to parent and returns the last one appended. */
  function add(parent) {
    var last = null;
    for (var i = 1; i < arguments.length; i++) if (arguments[i]) last = parent.appendChild(arguments[i]);
    return last;
  }
  function button(label, cls, onclick, aria) {
    var b = el('button', cls, label);
    b.type = 'button';
    if (aria) b.setAttribute('aria-label', aria);
    b.addEventListener('click', onclick);
    return b;
  }
  function actionButton(label, data, cls, aria) {
    var b = button(label, cls || 'chip', function () { send({ action: data }, label); }, aria);
    b.dataset.action = data;
    return b;
  }

  /* Formatting the shop uses: **bold**, *italic* or _italic_, `code`,
   * [text](link), bare links, "- " or "• " bullets, line breaks. */
  var INLINE = /(\*\*([^*]+)\*\*|`([^`]+)`|\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])|(^|[\s(])[*_]([^*_\n]+)[*_](?=[\s).,;:!?]|$))/g;
  function inline(parent, text) {
    var last = 0, m;
    INLINE.lastIndex = 0;
    while ((m = INLINE.exec(text))) {
      var start = m.index;
      if (m[7] !== undefined) start += m[7].length;
      parent.appendChild(document.createTextNode(text.slice(last, start)));
      var node;
      if (m[2]) node = el('strong', '', m[2]);
      else if (m[3]) node = el('code', '', m[3]);
      else if (m[4]) { node = el('a', '', m[4]); node.href = m[5]; }
      else if (m[6]) { node = el('a', '', m[6]); node.href = m[6]; }
      else node = el('em', '', m[8]);
      if (node.tagName === 'A') { node.target = '_blank'; node.rel = 'noopener noreferrer'; }
      parent.appendChild(node);
      last = INLINE.lastIndex;
    }
    parent.appendChild(document.createTextNode(text.slice(last)));
  }
  function formatted(text) {
    var box = el('div', 'text'), list = null;
    String(text).split('\n').forEach(function (line) {
      var b = /^\s*(?:[-•*]|\d+[.)])\s+(.*)$/.exec(line);
      if (b) {
        if (!list) list = add(box, el('ul'));
        inline(add(list, el('li')), b[1]);
        return;
      }
      list = null;
      if (line.trim() === '') { if (box.lastChild) box.appendChild(el('br')); return; }
      inline(add(box, el('p')), line);
    });
    return box;
  }

  /* ---------- the shadow root ---------- */
  var host = el('div');
  host.id = 'shopbot-chat';
  var root = host.attachShadow({ mode: 'open' });
  var colour = /^#[0-9a-fA-F]{3,8}$|^[a-zA-Z]{3,20}$|^rgb\([\d ,.%]+\)$/.test(ds.color || '') ? ds.color : '#1f5eff';
  host.style.setProperty('--sb-accent', colour);
  var CSS = /*CSS*/'';
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    var sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];
  } else {
    root.appendChild(el('style', '', CSS));
  }
  var left = ds.position === 'left' || ds.position === 'bottom-left';
  var wrap = add(root, el('div', 'wrap' + (left ? ' left' : '')));
  /* The launcher first: it is all the page shows until it is pressed, so
   * it paints before the panel is even built (ensurePanel, after paint). */
  var launcher = button('', 'launcher', function () { toggle(true); }, t('open'));
  launcher.setAttribute('aria-haspopup', 'dialog');
  launcher.setAttribute('aria-expanded', 'false');
  launcher.setAttribute('aria-controls', 'sb-panel');
  add(launcher, el('span', 'icon'), el('span', 'label', t('open')));
  var badge = add(launcher, el('span', 'badge', ''));
  badge.hidden = true;
  add(wrap, launcher);
  performance.mark('shopbot-widget-start');
  (document.body || document.documentElement).appendChild(host);
  performance.mark('shopbot-widget-launcher');
  requestAnimationFrame(function () {
    performance.mark('shopbot-widget-paint');
    setTimeout(ensurePanel, 0);
  });

  var panel, cartBtn, log, status, form, input, sendBtn;
  function ensurePanel() {
    if (panel) return;
    panel = el('div', 'panel');
    panel.id = 'sb-panel';
    panel.hidden = true;
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-modal', 'true');
    panel.setAttribute('aria-labelledby', 'sb-title');
    var head = add(panel, el('div', 'head'));
    var title = add(head, el('h2', 'title', t('title')));
    title.id = 'sb-title';
    cartBtn = add(head, actionButton(t('cart'), 'cart', 'hbtn', t('cart')));
    add(head, button(t('human'), 'hbtn', function () { send({ message: t('human_message') }); }));
    add(head, button('×', 'hbtn close', function () { toggle(false); }, t('close')));
    log = add(panel, el('div', 'log'));
    log.setAttribute('role', 'log');
    log.setAttribute('aria-live', 'polite');
    log.setAttribute('aria-relevant', 'additions');
    log.tabIndex = 0;
    log.setAttribute('aria-label', t('title'));
    status = add(panel, el('div', 'status'));
    status.setAttribute('role', 'status');
    form = add(panel, el('form', 'form'));
    input = add(form, el('textarea', 'input'));
    input.rows = 1;
    input.maxLength = 2000;
    input.placeholder = t('placeholder');
    input.setAttribute('aria-label', t('input'));
    sendBtn = add(form, el('button', 'send', t('send')));
    sendBtn.type = 'submit';
    wrap.insertBefore(panel, launcher);
    panel.addEventListener('keydown', trap);
    input.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); form.requestSubmit ? form.requestSubmit() : submit(e); }
    });
    form.addEventListener('submit', submit);
  }

  /* ---------- open, close, keyboard ---------- */
  var opened = false;
  function toggle(open) {
    ensurePanel();
    opened = open;
    panel.hidden = !open;
    launcher.hidden = open;
    launcher.setAttribute('aria-expanded', String(open));
    if (open) {
      badge.hidden = true;
      if (!log.firstChild) say('bot', ds.greeting || t('greeting'));
      input.focus();
      log.scrollTop = log.scrollHeight;
    } else {
      launcher.focus();
    }
  }
  function focusables() {
    return Array.prototype.filter.call(panel.querySelectorAll('button, a[href], textarea, input, [tabindex="0"]'),
      function (e) { return !e.disabled && e.offsetParent !== null; });
  }
  function trap(e) {
    if (e.key === 'Escape') { e.preventDefault(); toggle(false); return; }
    if (e.key !== 'Tab') return;
    var f = focusables(), first = f[0], lastF = f[f.length - 1], active = root.activeElement;
    if (!panel.contains(active)) { e.preventDefault(); (e.shiftKey ? lastF : first).focus(); }
    else if (e.shiftKey && active === first) { e.preventDefault(); lastF.focus(); }
    else if (!e.shiftKey && active === lastF) { e.preventDefault(); first.focus(); }
  }
  function submit(e) {
    e.preventDefault();
    var text = input.value.trim();
    if (!text) return;
    input.value = '';
    send({ message: text });
  }

  /* ---------- rendering ---------- */
  function scroll(node) {
    ensurePanel();
    log.appendChild(node);
    log.scrollTop = log.scrollHeight;
    if (!opened) badge.hidden = false;
    return node;
  }
  function say(who, text) {
    var m = el('div', 'msg ' + who);
    if (who === 'staff') add(m, el('div', 'who', t('staff')));
    if (who === 'user') { m.appendChild(el('span', 'sr', t('you') + ': ')); add(m, el('div', 'text', text)); }
    else add(m, formatted(text));
    return scroll(m);
  }
  /* Photos are the shop's: a relative path ("/media/…") is on the shop's origin. */
  function media(u) {
    try { var x = new URL(u || '', base); return u && /^https?:$/.test(x.protocol) ? x.href : ''; } catch (e) { return ''; }
  }
  function cardOf(c, withButtons) {
    var card = el('div', 'card');
    var src = media(c.image_url);
    if (src) {
      var img = add(card, el('img'));
      img.src = src;
      img.alt = c.title;
      img.loading = 'lazy';
      img.decoding = 'async';
    }
    var body = add(card, el('div', 'cbody'));
    add(body, el('div', 'ctitle', c.title), c.brand ? el('div', 'muted', c.brand) : null);
    var price = add(body, el('div', 'price', c.price_text));
    if (c.in_stock === false) add(price, el('span', 'oos', ' · ' + t('out_of_stock')));
    if (c.options) add(body, el('div', 'muted', Object.keys(c.options).map(function (k) { return k + ': ' + c.options[k]; }).join(' / ')));
    if (withButtons && c.in_stock !== false) {
      var row = add(body, el('div', 'row'));
      add(row, actionButton(t('add'), 'add|' + c.sku + '|1', 'chip primary', t('add') + ': ' + c.title),
        actionButton(t('details'), 'det|' + c.sku, 'chip', t('details') + ': ' + c.title));
    }
    return card;
  }
  function cards(list) {
    var box = el('div', 'cards');
    list.forEach(function (c) { box.appendChild(cardOf(c, true)); });
    return scroll(box);
  }
  function buttons(list, into) {
    var box = into || el('div', 'chips');
    list.forEach(function (b) { box.appendChild(actionButton(b.label, b.data)); });
    return into ? box : scroll(box);
  }
  function picker(p) {
    var box = el('div', 'picker');
    add(box, cardOf({ title: p.title, price_text: p.price_text, image_url: p.image_url }, false));
    if (p.chosen && p.chosen.length) add(box, el('div', 'muted', p.chosen.map(function (c) { return c.name + ': ' + c.value; }).join(' · ')));
    var g = add(box, el('div', 'chips'));
    g.setAttribute('role', 'group');
    g.setAttribute('aria-label', p.prompt);
    box.insertBefore(el('div', 'prompt', p.prompt), g);
    buttons(p.buttons || [], g);
    return scroll(box);
  }
  function totals(box, rows) {
    var dl = add(box, el('dl', 'totals'));
    rows.forEach(function (r) { if (r && r[1]) add(dl, el('dt', '', r[0]), el('dd', '', r[1])); });
  }
  function cart(v) {
    cartBtn.textContent = t('cart') + (v.units ? ' (' + v.units + ')' : '');
    cartBtn.setAttribute('aria-label', t('cart_count', v.units || 0));
    var box = el('div', 'cart');
    add(box, el('h3', '', t('cart')));
    var ul = add(box, el('ul', 'lines'));
    (v.lines || []).forEach(function (l) {
      var li = add(ul, el('li'));
      var name = l.title + (l.variant ? ' (' + l.variant + ')' : '');
      add(li, el('span', 'lname', name), el('span', 'lprice', l.price_text));
      var q = add(li, el('div', 'qty'));
      q.setAttribute('role', 'group');
      q.setAttribute('aria-label', t('qty') + ': ' + name);
      add(q, actionButton('−', 'set|' + l.sku + '|' + (l.qty - 1), 'chip sq', t('decrease') + ': ' + name),
        el('span', 'n', l.qty),
        l.qty < l.stock ? actionButton('+', 'set|' + l.sku + '|' + (l.qty + 1), 'chip sq', t('increase') + ': ' + name) : null,
        actionButton(t('remove'), 'rm|' + l.sku, 'chip', t('remove') + ': ' + name));
    });
    totals(box, [[t('promo'), v.promo_code ? v.promo_code + (v.discount_text ? ' ' + v.discount_text : '') + (v.promo_note ? ' — ' + v.promo_note : '') : ''],
      [t('total'), v.total_text]]);
    if (v.lines && v.lines.length) {
      var pf = add(box, el('form', 'promo'));
      var pi = add(pf, el('input'));
      pi.placeholder = t('promo');
      pi.setAttribute('aria-label', t('promo'));
      pi.maxLength = 40;
      pi.autocomplete = 'off';
      add(pf, el('button', 'chip', t('apply'))).type = 'submit';
      pf.addEventListener('submit', function (e) {
        e.preventDefault();
        if (pi.value.trim()) send({ message: t('promo_message', pi.value.trim()) });
      });
      add(box, actionButton(t('checkout'), 'co', 'chip primary wide'));
    }
    return scroll(box);
  }
  function order(o) {
    if (o.status === 'new') { cartBtn.textContent = t('cart'); cartBtn.setAttribute('aria-label', t('cart')); } /* placed: the cart is empty */
    var box = el('div', 'order');
    var st = t('status.' + o.status);
    add(box, el('h3', '', t('order') + ' ' + o.number), el('div', 'status-pill', st === 'status.' + o.status ? o.status : st));
    var ul = add(box, el('ul', 'lines'));
    (o.lines || []).forEach(function (l) {
      add(ul, el('li', '', l.qty + ' × ' + l.title + (l.variant ? ' (' + l.variant + ')' : '')));
    });
    totals(box, [[t('delivery'), o.delivery ? o.delivery + ' · ' + o.delivery_text : ''],
      [t('discount'), o.discount_text], [t('total'), o.total_text]]);
    if (o.tracking) add(box, el('div', 'muted', o.tracking));
    return scroll(box);
  }
  var shown = {}; /* notices by id: one may come by two roads */
  function notice(n) {
    if (n.id) { if (shown[n.id]) return null; shown[n.id] = true; }
    if (n.kind === 'merchant_reply') return say('staff', n.text);
    var box = el('div', 'notice');
    box.setAttribute('role', 'note');
    add(box, el('div', 'who', t('notice')), formatted(n.text));
    if (n.card) add(box, cardOf(n.card, false));
    if (n.buttons) buttons(n.buttons, add(box, el('div', 'chips')));
    return scroll(box);
  }

  /* draw renders one event of the chat stream, live or from the history:
   * the same code draws both, so a reload shows what was shown. */
  function draw(type, d) {
    ensurePanel();
    switch (type) {
      case 'user': say('user', d.text); break;
      case 'text': say('bot', d.text); break;
      case 'cards': if (d.cards && d.cards.length) cards(d.cards); break;
      case 'buttons': if (d.buttons && d.buttons.length) buttons(d.buttons); break;
      case 'picker': picker(d); break;
      case 'cart': if (d.cart) cart(d.cart); break;
      case 'order': if (d.order) order(d.order); break;
      case 'notice': notice(d); break;
      case 'error': say('bot error', d.text); break;
    }
  }

  /* ---------- talking to the shop ---------- */
  var busy = false;
  function setStatus(text) { if (status) status.textContent = text || ''; }
  function refused(res, body) {
    var msg = (body && body.error) || ('HTTP ' + res.status);
    if (res.status === 403) console.error('Shopbot chat: ' + msg);
    return msg;
  }
  function send(req, label) {
    if (busy) return;
    busy = true;
    sendBtn.disabled = true;
    req.session = session;
    req.locale = lang;
    var mine = req.message ? say('user', req.message) : label ? say('user', label) : null;
    if (mine && !req.message) mine.classList.add('action');
    setStatus(t('typing'));
    performance.mark('shopbot-widget-send');
    var bubble = null, streamed = false, awaiting = '';
    function onEvent(type, d) {
      switch (type) {
        case 'text':
          if (!bubble) {
            /* The answer's words go under the question, above its cards. */
            bubble = say('bot', '');
            if (mine && mine.parentNode === log && !streamed) log.insertBefore(bubble, mine.nextSibling);
            performance.mark('shopbot-widget-first-text');
          }
          streamed = true;
          bubble.textContent = '';
          bubble.dataset.raw = (bubble.dataset.raw || '') + d.text;
          bubble.appendChild(formatted(bubble.dataset.raw));
          break;
        case 'typing': setStatus(t('typing')); break;
        case 'done':
          if (!streamed && d.reply) say('bot', d.reply);
          awaiting = d.awaiting || '';
          break;
        default:
          draw(type, d);
          if (type === 'error') streamed = true;
          if (type === 'cards' || type === 'cart' || type === 'order') bubble = null;
      }
    }
    var headers = { 'Content-Type': 'application/json', 'Accept': 'text/event-stream', 'Idempotency-Key': newSession() };
    fetch(base + '/api/chat', { method: 'POST', headers: headers, body: JSON.stringify(req), credentials: 'omit', mode: 'cors' })
      .then(function (res) {
        if (!res.ok || !/event-stream/.test(res.headers.get('Content-Type') || '')) {
          return res.json().catch(function () { return null; }).then(function (b) { say('bot error', refused(res, b)); });
        }
        return readStream(res, onEvent);
      })
      .catch(function (err) { console.error('Shopbot chat: ' + err); say('bot error', t('error')); })
      .then(function () {
        busy = false;
        sendBtn.disabled = false;
        setStatus('');
        fitInput(awaiting);
        try { localStorage.setItem(KEY + ':seen', String(Date.now())); } catch (e) { /* private mode */ }
      });
  }
  function readStream(res, onEvent) {
    var reader = res.body.getReader(), dec = new TextDecoder(), buf = '';
    function pump() {
      return reader.read().then(function (r) {
        if (r.done) return;
        buf += dec.decode(r.value, { stream: true });
        var i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          var chunk = buf.slice(0, i), type = 'message', data = '';
          buf = buf.slice(i + 2);
          chunk.split('\n').forEach(function (line) {
            if (line.indexOf('event: ') === 0) type = line.slice(7);
            else if (line.indexOf('data: ') === 0) data += line.slice(6);
          });
          if (data) { try { onEvent(type, JSON.parse(data)); } catch (e) { console.error('Shopbot chat: bad event', e); } }
        }
        return pump();
      });
    }
    return pump();
  }
  /* Checkout asks for a phone or an address: the keyboard and autofill follow. */
  function fitInput(awaiting) {
    input.setAttribute('inputmode', awaiting === 'phone' ? 'tel' : 'text');
    input.autocomplete = { phone: 'tel', name: 'name', address: 'street-address' }[awaiting] || 'off';
  }

  /* History: the conversation so far, after a reload or in a second tab,
   * drawn from the events the stream sent; the live stream goes on after
   * the last of them. */
  var lastID = 0;
  function history() {
    return fetch(base + '/api/chat/history?session=' + session, { credentials: 'omit' })
      .then(function (res) {
        return res.json().then(function (b) {
          if (!res.ok) { refused(res, b); return; }
          ensurePanel();
          while (log.firstChild) log.removeChild(log.firstChild);
          shown = {};
          (b.events || []).forEach(function (e) {
            try { draw(e.event, e.data); } catch (x) { console.error('Shopbot chat: bad history event', x); }
            lastID = Math.max(lastID, e.id);
          });
          badge.hidden = true;
        });
      })
      .catch(function (err) { console.error('Shopbot chat: ' + err); });
  }
  window.addEventListener('storage', function (e) { if (e.key === KEY + ':seen' && !busy) history(); });

  /* Live notices: a merchant's reply, back in stock, order status. The
   * stream resumes after the last event seen (Last-Event-ID on its own
   * reconnects, ?after= on a new one), so missed ones come first. */
  var failures = 0;
  function live() {
    if (typeof EventSource !== 'function') return;
    var es = new EventSource(base + '/api/chat/events?session=' + session + '&after=' + lastID);
    es.addEventListener('ready', function () { failures = 0; setStatus(busy ? t('typing') : ''); });
    es.addEventListener('notice', function (e) {
      if (e.lastEventId) lastID = Math.max(lastID, +e.lastEventId);
      try { notice(JSON.parse(e.data)); } catch (x) { /* ignore */ }
    });
    es.onerror = function () {
      if (es.readyState === EventSource.CLOSED) {
        if (++failures === 1) console.error('Shopbot chat: live updates refused by ' + base + ' (is this page\'s origin in WEB_CHAT_ORIGINS?)');
        setTimeout(live, Math.min(60000, 3000 * failures));
      } else if (opened && !busy) setStatus(t('offline'));
    };
  }
  history().then(live);
  if (ds.open === 'true') toggle(true);
})();
