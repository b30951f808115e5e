// Counts the clock of the seat to act down between live updates, read as the server
// writes it (games/templatetags/clocks.py): m:ss, h:mm:ss past an hour, then days.
// It counts from the milliseconds left when the page was made (data-left-ms), from
// when it first saw that deadline, so a browser clock that is off does not show; a
// refreshed clock with the same deadline goes on counting from where it was (it never
// jumps back a second), and it stops at 0:00 until the server says what happened.
(function () {
  var tracks = new Map(); // deadline -> {at: performance.now(), left: ms}

  function two(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function text(ms, days) {
    var t = Math.max(0, Math.ceil(ms / 1000));
    var d = Math.floor(t / 86400);
    var h = Math.floor((t % 86400) / 3600);
    var m = Math.floor((t % 3600) / 60);
    var s = t % 60;
    if (d) {
      return (days || "%(days)s d %(time)s")
        .replace("%(days)s", d)
        .replace("%(time)s", two(h) + ":" + two(m) + ":" + two(s))
        .replace(/ /g, "\u00a0"); // unbroken, as the server writes it
    }
    if (h) return h + ":" + two(m) + ":" + two(s);
    return m + ":" + two(s);
  }

  function left(el, now) {
    var key = el.dataset.deadline;
    var track = tracks.get(key);
    if (track === undefined) {
      var given = Number(el.dataset.leftMs);
      if (!el.dataset.leftMs || !isFinite(given)) given = Date.parse(key) - Date.now();
      track = { at: now, left: given };
      tracks.set(key, track);
    }
    return track.left - (now - track.at);
  }

  function tick() {
    var now = performance.now();
    var shownKeys = new Set();
    document.querySelectorAll(".clock[data-deadline]").forEach(function (el) {
      shownKeys.add(el.dataset.deadline);
      var ms = Math.max(0, left(el, now));
      var shown = text(ms, el.dataset.days);
      if (el.textContent !== shown) el.textContent = shown;
      el.classList.toggle("low", ms < 10000);
    });
    tracks.forEach(function (_track, key) {
      if (!shownKeys.has(key)) tracks.delete(key); // that turn is over
    });
  }
  setInterval(tick, 250);
  document.addEventListener("htmx:afterSwap", tick);
  document.addEventListener("htmx:oobAfterSwap", tick);
  tick();
})();
