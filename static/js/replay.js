// Replay controls: step buttons, a slider, autoplay, the move list and the keyboard.
// Each step swaps #replay for the server's rendering of that position (htmx).
function replayControls() {
  var controls = document.getElementById("replay-controls");
  if (!controls || !window.htmx) return;
  var slider = document.getElementById("replay-slider");
  var playButton = controls.querySelector("[data-step=play]");
  var timer = null;
  var loading = false;

  function current() { return parseInt(document.getElementById("replay").dataset.ply, 10); }
  function last() { return parseInt(document.getElementById("replay").dataset.last, 10); }

  function go(ply) {
    ply = Math.max(0, Math.min(last(), ply));
    if (ply === current() || loading) return;
    loading = true;
    htmx.ajax("GET", controls.dataset.url + "?ply=" + ply, { target: "#replay", swap: "outerHTML" });
  }

  function sync() {
    loading = false;
    var ply = current();
    slider.value = ply;
    document.querySelectorAll("#replay-moves li").forEach(function (li) {
      var on = parseInt(li.dataset.ply, 10) === ply;
      li.classList.toggle("current", on);
      if (on && li.scrollIntoView) li.scrollIntoView({ block: "nearest" });
    });
    if (timer && ply >= last()) stop();
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    playButton.textContent = playButton.dataset.play;
    playButton.setAttribute("aria-pressed", "false");
  }

  function toggle() {
    if (timer) { stop(); return; }
    if (current() >= last()) go(0);
    timer = setInterval(function () { go(current() + 1); }, 900);
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
    else if (step === "back") go(current() - 1);
    else if (step === "next") go(current() + 1);
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
    if (event.key in keys) { event.preventDefault(); stop(); go(current() + keys[event.key]); }
    else if (event.key === "Home") { event.preventDefault(); stop(); go(0); }
    else if (event.key === "End") { event.preventDefault(); stop(); go(last()); }
    else if (event.key === " " && event.target === document.body) { event.preventDefault(); toggle(); }
  });
  document.addEventListener("htmx:afterSwap", sync);
  document.addEventListener("htmx:responseError", function () { loading = false; });
}
// htmx is loaded deferred: start once the document (and htmx) is ready.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", replayControls);
else replayControls();
