// The round timer's countdown between server updates (tournaments.services.timer).
// Each [data-round-timer] element carries the time left as the server computed it
// (data-remaining-s) and whether it runs; from the moment an element is first seen it
// counts down on the page's own clock. An htmx swap brings a new element with a fresh
// value from the server, so a drift never outlives one poll.
(function () {
  "use strict";

  function clock(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var m = Math.floor(s / 60);
    var rest = s % 60;
    return m + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function update() {
    var now = performance.now();
    var timers = document.querySelectorAll("[data-round-timer]");
    for (var i = 0; i < timers.length; i++) {
      var el = timers[i];
      if (el.dataset.running !== "true") continue;
      if (el.roundTimerEndsAt === undefined) {
        el.roundTimerEndsAt = now + Number(el.dataset.remainingS || 0) * 1000;
      }
      var left = (el.roundTimerEndsAt - now) / 1000;
      var face = el.querySelector(".timer-clock");
      var text = clock(left);
      if (face && face.textContent !== text) face.textContent = text;
      if (left <= 0 && !el.classList.contains("over")) {
        el.classList.add("over");
        var state = el.querySelector(".timer-state");
        if (state && el.dataset.overText) state.textContent = el.dataset.overText;
      }
    }
  }

  update();
  window.setInterval(update, 250);
})();
