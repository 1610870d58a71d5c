// The live panel: the inbox list and an open transcript update without
// reloading. The server's event stream (/admin/events) says which
// conversation changed, on any replica; this page then fetches itself
// again and swaps the parts that show conversations (never a form being
// typed in). On every page the title carries the number of unread
// conversations and of those that need a human
// (/admin/conversations/counts), and, when the member opted in (the
// "Notify me" button; the choice is kept in localStorage), a new
// conversation needing a human rings and shows a desktop notification.
(function () {
  "use strict";
  if (!window.EventSource || !window.fetch) return;
  var list = document.getElementById("inbox-live");
  var conv = document.querySelector("[data-live-conversation]");
  var base = document.title.replace(/^(\(\d+\+?\) )?(\[\d+\+? human\] )?/, "");
  var store = window.localStorage, KEY = "shopbot.notify";
  var human = -1; // needs-human count last seen; -1 before the first

  function enabled() {
    return store && store.getItem(KEY) === "1" && window.Notification && Notification.permission === "granted";
  }
  function ring(n) {
    try {
      var ac = new (window.AudioContext || window.webkitAudioContext)();
      var o = ac.createOscillator(), g = ac.createGain();
      o.frequency.value = 880; g.gain.value = 0.1;
      o.connect(g); g.connect(ac.destination);
      o.start(); o.stop(ac.currentTime + 0.25);
    } catch (e) {}
    try {
      new Notification("A conversation needs a human", { body: n + " waiting", tag: "shopbot-human" })
        .onclick = function () { window.focus(); location.href = "/admin/conversations?view=human"; };
    } catch (e) {}
  }
  function cap(n) { return n >= 100 ? "100+" : String(n); }
  function counts() {
    fetch("/admin/conversations/counts", { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (c) {
        if (!c) return;
        document.title = (c.unread ? "(" + cap(c.unread) + ") " : "") + (c.needs_human ? "[" + cap(c.needs_human) + " human] " : "") + base;
        if (human >= 0 && c.needs_human > human && enabled()) ring(c.needs_human);
        human = c.needs_human;
      })
      .catch(function () {});
  }

  var toggle = document.getElementById("notify-toggle");
  function label() {
    if (!toggle) return;
    toggle.hidden = !window.Notification;
    toggle.textContent = enabled() ? "Notifications on" : "Notify me";
    toggle.setAttribute("aria-pressed", enabled() ? "true" : "false");
  }
  if (toggle) {
    toggle.addEventListener("click", function () {
      if (enabled()) { store.setItem(KEY, "0"); label(); return; }
      Notification.requestPermission().then(function (p) {
        if (store) store.setItem(KEY, p === "granted" ? "1" : "0");
        label();
      });
    });
    label();
  }

  var busy = false, again = false;
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.ok ? r.text() : ""; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        ["inbox-live", "transcript", "shopper"].forEach(function (id) {
          var now = document.getElementById(id), fresh = doc.getElementById(id);
          if (now && fresh) now.replaceWith(fresh);
        });
        list = document.getElementById("inbox-live");
      })
      .catch(function () {})
      .finally(function () { busy = false; if (again) { again = false; refresh(); } });
  }
  var pending = null;
  function recount() { // one count for a burst of events
    if (pending) return;
    pending = setTimeout(function () { pending = null; counts(); }, 300);
  }
  counts();
  var after = document.querySelector('meta[name="live-after"]');
  var es = new EventSource("/admin/events" + (after ? "?after=" + encodeURIComponent(after.content) : ""));
  es.addEventListener("inbox", function (e) {
    var ev;
    try { ev = JSON.parse(e.data); } catch (err) { return; }
    recount();
    if (list || (conv && String(ev.conversation_id) === conv.getAttribute("data-live-conversation"))) refresh();
  });
})();
