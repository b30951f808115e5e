// One push stream a page (server-sent events from /events/, core/live/stream.py) for every
// live part it shows: each element with data-live-feed="<spec>@<version>" (the match
// panel, a tournament's rounds and standings, a list, the leaderboard) and, for a signed-in
// person, the header's counts (the "user" feed on <body>). A message for a spec is
// {"swap": style, "html": …}, swapped into that element by htmx as the element's own poll
// would have been, or {"counts": …} for static/js/live-header.js.
//
// While the stream is open the elements' htmx polls are cancelled before they leave; when
// it breaks they go on (the fallback), and the browser reconnects by itself, sending the
// last event id (every feed's version) so the server resumes without a gap or a repeat.
(function () {
  var body = document.body;
  var url = body && body.dataset.liveStream;
  if (!url || !window.EventSource || !window.htmx) return;

  var source = null;
  var specs = "";
  var live = { open: false };
  window.caravanLive = live;

  function feeds() {
    var found = [];
    document.querySelectorAll("[data-live-feed]").forEach(function (node) {
      var value = node.getAttribute("data-live-feed");
      if (value && found.indexOf(value) < 0) found.push(value);
    });
    return found;
  }

  function specOf(value) {
    return value.split("@")[0];
  }

  function target(spec) {
    var nodes = document.querySelectorAll("[data-live-feed]");
    for (var i = 0; i < nodes.length; i++) {
      if (specOf(nodes[i].getAttribute("data-live-feed")) === spec) return nodes[i];
    }
    return null;
  }

  // This spec's version in an event id ("match:12:0@41-running user@1-0-3").
  function versionIn(id, spec) {
    var parts = (id || "").split(" ");
    for (var i = 0; i < parts.length; i++) {
      if (specOf(parts[i]) === spec) return parts[i].slice(spec.length + 1);
    }
    return null;
  }

  function apply(spec, message, version) {
    if (message.counts) {
      document.dispatchEvent(new CustomEvent("live:counts", { detail: message.counts }));
      return;
    }
    var node = target(spec);
    if (!node || typeof message.html !== "string") return;
    var shown = spec + "@" + version;
    // Already shown (her own move's answer brought it): no second swap, no lost focus.
    if (version && node.getAttribute("data-live-feed") === shown) return;
    htmx.swap(node, message.html, { swapStyle: message.swap || "outerHTML" });
    // Out-of-band patches leave the element itself: it still names the version it shows.
    var now = target(spec);
    if (now && version) now.setAttribute("data-live-feed", shown);
  }

  function connect() {
    var values = feeds();
    var next = values.map(specOf).sort().join(" ");
    if (source && next === specs) return;
    if (source) source.close();
    live.open = false;
    specs = next;
    if (!values.length) { source = null; return; }
    var query = values.map(function (v) { return "f=" + encodeURIComponent(v); }).join("&");
    source = new EventSource(url + "?" + query);
    source.onopen = function () { live.open = true; };
    source.onerror = function () {
      // CONNECTING: the browser tries again by itself; CLOSED (a 4xx, or no push on this
      // server): the polls carry on alone.
      live.open = source.readyState === EventSource.OPEN;
    };
    values.map(specOf).forEach(function (spec) {
      source.addEventListener(spec, function (event) {
        var message;
        try { message = JSON.parse(event.data); } catch (e) { return; }
        apply(spec, message, versionIn(event.lastEventId, spec));
      });
    });
  }

  // A poll of a live element is not sent while the stream carries its feed.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (live.open && elt && elt.hasAttribute && elt.hasAttribute("data-live-feed")) {
      var verb = (event.detail.requestConfig && event.detail.requestConfig.verb) || "get";
      if (verb === "get") event.preventDefault();
    }
  });
  // A filter that swapped in another feed (another leaderboard, another page of a list).
  document.addEventListener("htmx:afterSettle", connect);
  window.addEventListener("pagehide", function () { if (source) source.close(); live.open = false; });
  window.addEventListener("pageshow", function (event) { if (event.persisted) { specs = ""; connect(); } });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", connect);
  else connect();
})();
