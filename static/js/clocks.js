// Counts the clock of the seat to act down to its deadline between live updates.
(function () {
  function tick() {
    document.querySelectorAll(".clock[data-deadline]").forEach(function (el) {
      var left = Math.max(0, (Date.parse(el.dataset.deadline) - Date.now()) / 1000);
      el.textContent = left.toFixed(0) + " s";
      el.classList.toggle("low", left < 10);
    });
  }
  setInterval(tick, 250);
  document.addEventListener("htmx:afterSwap", tick);
  tick();
})();
