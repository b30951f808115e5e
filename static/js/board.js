// Moves by clicking the board, for any game. The page embeds the legal actions as JSON
// (#legal-actions: [{action, label, targets, choice}]); SVG parts carry data-target ids.
// A click keeps the actions whose targets begin with the ids clicked so far; when one
// action is left it is submitted through #board-form (htmx, as the fallback buttons do).
(function () {
  var picked = [];
  var actions = [];

  function board() { return document.getElementById("board"); }

  function parts(id) {
    var root = board();
    if (!root) return [];
    return Array.prototype.filter.call(root.querySelectorAll("[data-target]"), function (el) {
      return el.getAttribute("data-target") === id;
    });
  }

  function startsWith(targets, prefix) {
    if (targets.length < prefix.length) return false;
    for (var i = 0; i < prefix.length; i++) if (targets[i] !== prefix[i]) return false;
    return true;
  }

  function remaining() {
    return actions.filter(function (a) { return startsWith(a.targets, picked); });
  }

  function clearMarks(cls) {
    var root = board();
    if (!root) return;
    root.querySelectorAll("." + cls).forEach(function (el) { el.classList.remove(cls); });
  }

  function submit(action) {
    var form = document.getElementById("board-form");
    if (!form) return;
    form.querySelector("input[name=action]").value = action.action;
    picked = [];
    // Tells a watcher (and CSS) that the move is on its way; the answer replaces the board.
    var root = board();
    if (root) root.setAttribute("data-picked", "sent");
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  }

  function render() {
    var left = remaining();
    var root = board();
    if (root) root.setAttribute("data-picked", String(picked.length));
    clearMarks("legal");
    clearMarks("picked");
    picked.forEach(function (id) { parts(id).forEach(function (el) { el.classList.add("picked"); }); });
    var next = {};
    left.forEach(function (a) {
      if (a.targets.length > picked.length) next[a.targets[picked.length]] = true;
    });
    Object.keys(next).forEach(function (id) {
      parts(id).forEach(function (el) { el.classList.add("legal"); });
    });
    // Actions whose board part is complete (or that have none): the rest is a choice.
    var choices = document.getElementById("board-choices");
    if (choices) {
      choices.innerHTML = "";
      left.forEach(function (a) {
        if (a.targets.length !== picked.length) return;
        var button = document.createElement("button");
        button.type = "button";
        button.className = "choice";
        button.setAttribute("data-choice", a.action);
        button.textContent = (picked.length && a.choice) ? a.choice : a.label;
        button.addEventListener("click", function () { submit(a); });
        choices.appendChild(button);
      });
    }
    var reset = document.getElementById("board-reset");
    if (reset) reset.hidden = picked.length === 0;
    var hint = document.getElementById("board-hint");
    if (hint && hint.dataset.start) {
      hint.textContent = picked.length ? hint.dataset.next : hint.dataset.start;
      if (!Object.keys(next).length) hint.textContent = hint.dataset.choose;
    }
  }

  function onBoardClick(event) {
    var el = event.target.closest ? event.target.closest("[data-target]") : null;
    // A part may sit inside another clickable part: take the innermost that is legal.
    while (el && !el.classList.contains("legal")) {
      el = el.parentElement ? el.parentElement.closest("[data-target]") : null;
    }
    if (!el) return;
    event.preventDefault();
    picked.push(el.getAttribute("data-target"));
    var left = remaining();
    // One action left: the rest of its clicks (if any) is implied.
    if (left.length === 1) {
      submit(left[0]);
      return;
    }
    render();
  }

  function reset() {
    picked = [];
    render();
  }

  function markLastMove() {
    var data = document.getElementById("last-move");
    if (!data) return;
    clearMarks("last-move");
    JSON.parse(data.textContent || "[]").forEach(function (id) {
      parts(id).forEach(function (el) { el.classList.add("last-move"); });
    });
  }

  function init() {
    picked = [];
    markLastMove();
    var data = document.getElementById("legal-actions");
    actions = data ? JSON.parse(data.textContent || "[]") : [];
    var root = board();
    if (root && !root.dataset.boardReady) {
      root.dataset.boardReady = "1";
      root.addEventListener("click", onBoardClick);
    }
    var resetButton = document.getElementById("board-reset");
    if (resetButton && !resetButton.dataset.ready) {
      resetButton.dataset.ready = "1";
      resetButton.addEventListener("click", reset);
    }
    var section = document.getElementById("your-move");
    if (actions.length && section && section.dataset.clickable !== "1") {
      // This game's board has nothing to click yet: the list is the way to answer, open.
      var fallback = document.querySelector("details.fallback");
      if (fallback) fallback.open = true;
      var hint = document.getElementById("board-hint");
      if (hint) hint.hidden = true;
      return;
    }
    if (actions.length) render();
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && picked.length) reset();
  });
  // The live refresh waits while a selection is half made.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (picked.length && elt && elt.id === "match-live") event.preventDefault();
  });
  document.addEventListener("htmx:afterSwap", init);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
