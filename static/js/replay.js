// Replay controls: step buttons, a slider, autoplay, the move list and the keyboard.
// Each step swaps #replay for the server's rendering of that position (htmx).
function replayControls() {
  var controls = document.getElementById("replay-controls");
  if (!controls || !window.htmx) return;
  var slider = document.getElementById("replay-slider");
  var playButton = controls.querySelector("[data-step=play]");
  var timer = null;
  // The ply of the step on its way; an answer for any other ply arrives too late and is dropped
  // (a pause, or a newer step, came after it was asked for).
  var wanted = null;

  function current() { return parseInt(document.getElementById("replay").dataset.ply, 10); }
  function last() { return parseInt(document.getElementById("replay").dataset.last, 10); }
  // Steps count from the position asked for, so quick key presses add up.
  function position() { return wanted === null ? current() : wanted; }

  function go(ply) {
    ply = Math.max(0, Math.min(last(), ply));
    if (ply === position()) return;
    wanted = ply;
    htmx.ajax("GET", controls.dataset.url + "?ply=" + ply, { target: "#replay", swap: "outerHTML" });
  }

  function answered(event) {
    if (event.detail.target.id !== "replay") return;
    var ply = new URL(event.detail.xhr.responseURL).searchParams.get("ply");
    if (wanted === null || String(wanted) !== ply) event.detail.shouldSwap = false;
  }

  // The current move shown inside the move list by scrolling the list alone: scrolling
  // it into view also scrolled the page, which pulled a phone away from the board.
  function showInList(list, item) {
    var box = list.getBoundingClientRect(), row = item.getBoundingClientRect();
    if (row.top < box.top) list.scrollTop -= box.top - row.top;
    else if (row.bottom > box.bottom) list.scrollTop += row.bottom - box.bottom;
  }

  function sync() {
    var ply = current();
    if (ply === wanted) wanted = null;
    slider.value = ply;
    var list = document.getElementById("replay-moves");
    list.querySelectorAll("li").forEach(function (li) {
      var on = parseInt(li.dataset.ply, 10) === ply;
      li.classList.toggle("current", on);
      if (on) showInList(list, li);
    });
    if (timer && ply >= last()) stop();
  }

  function stop() {
    if (timer) wanted = null;  // a step autoplay asked for must not land after the pause
    clearInterval(timer);
    timer = null;
    playButton.textContent = playButton.dataset.play;
    playButton.setAttribute("aria-pressed", "false");
  }

  function toggle() {
    if (timer) { stop(); return; }
    if (current() >= last()) go(0);
    // A tick waits while the previous step is still on its way.
    timer = setInterval(function () { if (wanted === null) go(current() + 1); }, 900);
    playButton.textContent = playButton.dataset.pause;
    playButton.setAttribute("aria-pressed", "true");
  }

  controls.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step]");
    if (!button) return;
    var step = button.dataset.step;
    if (step === "play") { toggle(); return; }
    stop();
    if (step === "first") go(0);
    else if (step === "back") go(position() - 1);
    else if (step === "next") go(position() + 1);
    else if (step === "last") go(last());
  });
  slider.addEventListener("input", function () { stop(); go(parseInt(slider.value, 10)); });
  document.getElementById("replay-moves").addEventListener("click", function (event) {
    var li = event.target.closest("li[data-ply]");
    if (!li) return;
    event.preventDefault();
    stop();
    go(parseInt(li.dataset.ply, 10));
  });
  document.addEventListener("keydown", function (event) {
    if (event.target.closest && event.target.closest("input, select, textarea")) {
      if (event.target !== slider) return;
    }
    var keys = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in keys) { event.preventDefault(); stop(); go(position() + keys[event.key]); }
    else if (event.key === "Home") { event.preventDefault(); stop(); go(0); }
    else if (event.key === "End") { event.preventDefault(); stop(); go(last()); }
    else if (event.key === " " && event.target === document.body) { event.preventDefault(); toggle(); }
  });
  document.addEventListener("htmx:beforeSwap", answered);
  document.addEventListener("htmx:afterSwap", sync);
  document.addEventListener("htmx:responseError", function () { wanted = null; });
  document.addEventListener("htmx:sendError", function () { wanted = null; });
}
// htmx is loaded deferred: start once the document (and htmx) is ready.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", replayControls);
else replayControls();
