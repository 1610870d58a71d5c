// The live panel: the inbox list and an open transcript update without
// reloading. The server's event stream (/admin/events) says which
// conversation changed, on any replica; this page then fetches itself
// again and swaps the parts that show conversations (never a form being
// typed in). The page title carries the number of unread conversations.
(function () {
  "use strict";
  var list = document.getElementById("inbox-live");
  var conv = document.querySelector("[data-live-conversation]");
  if ((!list && !conv) || !window.EventSource || !window.fetch) return;
  var base = document.title.replace(/^\(\d+\) /, "");
  function count() {
    if (!list) return;
    var n = document.querySelectorAll("#inbox-live tr.unread").length;
    document.title = (n ? "(" + n + ") " : "") + base;
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
        ["inbox-live", "transcript"].forEach(function (id) {
          var now = document.getElementById(id), fresh = doc.getElementById(id);
          if (now && fresh) now.replaceWith(fresh);
        });
        list = document.getElementById("inbox-live");
        count();
      })
      .catch(function () {})
      .finally(function () { busy = false; if (again) { again = false; refresh(); } });
  }
  count();
  var after = document.querySelector('meta[name="live-after"]');
  var es = new EventSource("/admin/events" + (after ? "?after=" + encodeURIComponent(after.content) : ""));
  es.addEventListener("inbox", function (e) {
    var ev;
    try { ev = JSON.parse(e.data); } catch (err) { return; }
    if (list || String(ev.conversation_id) === conv.getAttribute("data-live-conversation")) refresh();
  });
})();
