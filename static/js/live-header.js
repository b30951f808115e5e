// Keeps the header's turn and invitation counts fresh on every page of a signed-in person,
// without reloading. The page's push stream (static/js/live-stream.js, the feed "user" on
// <body>) brings them as a "live:counts" event whenever they change; while that stream is
// open nothing is asked. Without it (no push on this server, the stream broken) it asks
// /header/counts/ (data-header-counts on <body>) every few seconds, sending back the ETag
// it last got, so an unchanged answer is a bodiless 304.
// The tab title starts with "(Your move)" while a match waits for her, and, when she
// turned it on in her settings (data-turn-sound), a short tone sounds when a count grows.
(function () {
  var body = document.body;
  var url = body.dataset.headerCounts;
  if (!url || !window.fetch) return;

  var VISIBLE_MS = 2000; // the badge is at most this (plus one request) behind
  var HIDDEN_MS = 10000; // a tab in the background still updates its title, less often
  var MAX_BACKOFF_MS = 60000;
  var prefix = (body.dataset.yourMove || "(Your move)") + " ";
  var counts = {
    turns: toInt(body.dataset.turns),
    invitations: toInt(body.dataset.invitations),
    notifications: toInt(body.dataset.notifications),
  };
  var etag = null;
  var failures = 0;
  var timer = null;

  function toInt(value) {
    var n = parseInt(value, 10);
    return isNaN(n) ? 0 : n;
  }

  // A badge inside its holder (#turn-count, #invitation-count, #menu-count): replaced,
  // never edited, so that an htmx out-of-band swap of the holder and this agree.
  function setBadge(holderId, badgeId, n) {
    var holder = document.getElementById(holderId);
    if (!holder) return;
    holder.textContent = "";
    if (n <= 0) return;
    var badge = document.createElement("span");
    badge.className = "badge";
    if (badgeId) badge.id = badgeId;
    if (holder.dataset.title) badge.title = holder.dataset.title;
    badge.textContent = String(n);
    holder.appendChild(badge);
  }

  function setTitle(turns) {
    var title = document.title;
    if (title.indexOf(prefix) === 0) title = title.slice(prefix.length);
    document.title = turns > 0 ? prefix + title : title;
  }

  function apply(next) {
    var grew = next.turns > counts.turns || next.invitations > counts.invitations;
    var noticed = next.notifications !== counts.notifications;
    counts = next;
    setBadge("turn-count", "turn-badge", next.turns);
    setBadge("invitation-count", "invitation-badge", next.invitations);
    if (noticed) setBadge("notification-count", "notification-badge", next.notifications);
    setBadge("menu-count", null, next.turns + next.invitations);
    setTitle(next.turns);
    if (grew && body.dataset.turnSound === "on") chime();
  }

  function delay() {
    var base = document.visibilityState === "hidden" ? HIDDEN_MS : VISIBLE_MS;
    return Math.min(MAX_BACKOFF_MS, base * Math.pow(2, failures));
  }

  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(poll, ms);
  }

  function pushing() {
    return !!(window.caravanLive && window.caravanLive.open);
  }

  function poll() {
    if (pushing()) {
      // The stream carries the counts: look again later, in case it breaks.
      schedule(delay());
      return;
    }
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 204) return "stop"; // signed out meanwhile
        if (response.status === 304) return null;
        if (!response.ok) throw new Error(response.status);
        etag = response.headers.get("ETag");
        return response.json().then(function (data) {
          apply({
            turns: toInt(data.turns),
            invitations: toInt(data.invitations),
            notifications: toInt(data.notifications),
          });
        });
      })
      .then(function (result) {
        failures = 0;
        if (result !== "stop") schedule(delay());
      })
      .catch(function () {
        failures = Math.min(failures + 1, 5); // server down or offline: ask less often
        schedule(delay());
      });
  }

  // Pushed by the stream: the same numbers the poll would get.
  document.addEventListener("live:counts", function (event) {
    var data = event.detail || {};
    etag = null; // the next poll, if any, must not be answered 304 to older counts
    apply({
      turns: toInt(data.turns),
      invitations: toInt(data.invitations),
      notifications: toInt(data.notifications),
    });
  });

  // Back to the tab: ask at once rather than at the end of the slower background wait.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") schedule(0);
  });
  setTitle(counts.turns);
  schedule(VISIBLE_MS);

  // The tone (Web Audio, no file). Browsers keep an audio context silent until the person
  // has clicked or typed on the page, so it is made (or woken) on the first such gesture.
  var audio = null;

  function wakeAudio() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume();
    return audio;
  }

  function chime() {
    if (!audio || audio.state !== "running") return;
    var start = audio.currentTime;
    [659.25, 987.77].forEach(function (frequency, i) {
      // Two soft notes (E5, B5), a tenth of a second apart, fading out.
      var at = start + i * 0.12;
      var osc = audio.createOscillator();
      var gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.32);
    });
    // How many tones this page played: what a test (or a curious reader) can look at.
    body.dataset.chimes = String(toInt(body.dataset.chimes) + 1);
  }

  function onGesture() {
    if (body.dataset.turnSound !== "on") return;
    wakeAudio();
    document.removeEventListener("click", onGesture, true);
    document.removeEventListener("keydown", onGesture, true);
  }
  // click, not pointerdown: a touch gives the page its "user activation" only on release.
  document.addEventListener("click", onGesture, true);
  document.addEventListener("keydown", onGesture, true);

  // The settings page's "Try it": a click, so the browser lets it sound at once.
  var tryButton = document.querySelector("[data-try-turn-sound]");
  if (tryButton) {
    tryButton.addEventListener("click", function () {
      var context = wakeAudio();
      if (!context) return;
      if (context.state === "running") chime();
      else context.resume().then(chime);
    });
  }
})();
