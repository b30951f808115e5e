// Moves by clicking the board, for any game. The page embeds the legal actions as JSON
// (#legal-actions: [{action, label, targets, choice}]); SVG parts carry data-target ids.
// A click keeps the actions whose targets begin with the ids clicked so far; when one
// action is left it is submitted through #board-form (htmx, as the fallback buttons do).
//
// The same by keyboard: the legal parts are buttons (role, name from data-label) with one
// Tab stop into the board and the arrow keys between them (a roving tabindex); Enter or
// Space picks, Escape resets. After each refresh focus comes back to the board, the page
// scrolls the decision's parts into view, and #match-announcer (aria-live) says what the
// others played and what is asked now.
(function () {
  var picked = [];
  var actions = [];
  var lastPly = null; // the decision last announced
  var lastLog = null; // the newest log entry already announced (its value)
  var shownData = null; // the #legal-actions element set up last
  var shownBoard = null; // and the #board
  var focusBack = false; // focus was in the live part (or a move was sent) before a swap

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

  function reducedMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  // ---- what is on screen ---------------------------------------------------------
  // The part of the viewport not covered by the decision bar (fixed at the bottom on
  // phones), and, sideways, by the board's own scroll box.
  function shownArea(el) {
    var area = { top: 0, bottom: window.innerHeight, left: 0, right: window.innerWidth };
    var bar = document.getElementById("your-move");
    if (bar && window.getComputedStyle(bar).position === "fixed") {
      area.bottom = Math.min(area.bottom, bar.getBoundingClientRect().top);
    }
    var root = board();
    if (root && el && root.contains(el)) {
      var box = root.getBoundingClientRect();
      area.left = Math.max(area.left, box.left);
      area.right = Math.min(area.right, box.right);
    }
    return area;
  }

  function isShown(el) {
    var r = el.getBoundingClientRect();
    var a = shownArea(el);
    var x = r.left + r.width / 2;
    var y = r.top + r.height / 2;
    return x >= a.left && x <= a.right && y >= a.top && y <= a.bottom;
  }

  // Scroll (the board's box sideways, the page up or down) until `el`'s centre is shown.
  function reveal(el, smooth) {
    if (!el || isShown(el)) return;
    var behavior = smooth && !reducedMotion() ? "smooth" : "auto";
    var root = board();
    var r = el.getBoundingClientRect();
    if (root && root.contains(el) && root.scrollWidth > root.clientWidth) {
      var box = root.getBoundingClientRect();
      var dx = r.left + r.width / 2 - (box.left + box.width / 2);
      if (r.left + r.width / 2 < box.left || r.left + r.width / 2 > box.right) {
        root.scrollTo({ left: root.scrollLeft + dx, behavior: behavior });
      }
    }
    var a = shownArea(el);
    var y = r.top + r.height / 2;
    if (y < a.top || y > a.bottom) {
      window.scrollTo({ top: window.scrollY + y - (a.top + a.bottom) / 2, behavior: behavior });
    }
  }

  // ---- the legal parts as buttons ------------------------------------------------
  function titleOf(el) {
    var title = el.querySelector(":scope > title");
    return title ? title.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // The part's name in words: its data-label, else its <title>, else the one action it
  // leads to, else its id. "" when its own <title> already says it (SVG's own way of
  // naming a part, which checks of "label in name" do not hold against drawn text).
  function nameOf(el, id) {
    var label = el.getAttribute("data-label");
    var title = titleOf(el);
    if (title && (!label || label === title)) return "";
    if (label) return label;
    var only = remaining().filter(function (a) { return a.targets[picked.length] === id; });
    return only.length === 1 ? only[0].label : id;
  }

  // One stop per legal id (its first drawn element), in reading order: top to bottom in
  // bands, then left to right.
  function stops() {
    var root = board();
    if (!root) return [];
    var seen = {};
    var found = [];
    root.querySelectorAll("[data-target].legal").forEach(function (el) {
      var id = el.getAttribute("data-target");
      if (seen[id]) return;
      seen[id] = true;
      found.push(el);
    });
    var place = found.map(function (el, i) {
      var r = el.getBoundingClientRect();
      return { el: el, band: Math.round((r.top + window.scrollY) / 24), x: r.left, i: i };
    });
    place.sort(function (p, q) { return p.band - q.band || p.x - q.x || p.i - q.i; });
    return place.map(function (p) { return p.el; });
  }

  function makeKeyable(list) {
    var root = board();
    if (!root) return;
    root.querySelectorAll("[data-key]").forEach(function (el) {
      if (list.indexOf(el) >= 0) return; // kept: taking its tabindex away would drop focus
      el.removeAttribute("data-key");
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
      el.removeAttribute("aria-label");
      el.removeAttribute("focusable");
    });
    list.forEach(function (el, i) {
      el.setAttribute("data-key", String(i));
      el.setAttribute("tabindex", i === 0 ? "0" : "-1");
      el.setAttribute("role", "button");
      el.setAttribute("focusable", "true");
      var name = nameOf(el, el.getAttribute("data-target"));
      if (name) el.setAttribute("aria-label", name);
      else el.removeAttribute("aria-label");
    });
  }

  function focusPart(el) {
    var root = board();
    if (!el || !root) return;
    root.querySelectorAll("[data-key]").forEach(function (other) {
      other.setAttribute("tabindex", other === el ? "0" : "-1");
    });
    el.focus({ preventScroll: true });
    reveal(el, true);
  }

  // Where focus goes when the board is entered or a decision begins: the first legal part,
  // else the first choice button, else the board itself.
  function focusStart() {
    var list = stops();
    if (list.length) { focusPart(list[0]); return; }
    var choice = document.querySelector("#board-choices button");
    if (choice) { choice.focus({ preventScroll: true }); reveal(choice, true); return; }
    var root = board();
    if (root) root.focus({ preventScroll: true });
  }

  // ---- playing -----------------------------------------------------------------
  function submit(action) {
    var form = document.getElementById("board-form");
    if (!form) return;
    form.querySelector("input[name=action]").value = action.action;
    picked = [];
    focusBack = true;
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
    makeKeyable(stops());
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

  // Pick a legal part (a click or Enter/Space on it).
  function pick(el, byKey) {
    picked.push(el.getAttribute("data-target"));
    var left = remaining();
    // One action left: the rest of its clicks (if any) is implied.
    if (left.length === 1) {
      submit(left[0]);
      return;
    }
    render();
    if (byKey) focusStart();
  }

  function legalPartOf(target) {
    var el = target && target.closest ? target.closest("[data-target]") : null;
    // A part may sit inside another clickable part: take the innermost that is legal.
    while (el && !el.classList.contains("legal")) {
      el = el.parentElement ? el.parentElement.closest("[data-target]") : null;
    }
    return el;
  }

  function onBoardClick(event) {
    var el = legalPartOf(event.target);
    if (!el) return;
    event.preventDefault();
    pick(el, false);
  }

  function onBoardKey(event) {
    var el = event.target && event.target.hasAttribute && event.target.hasAttribute("data-key")
      ? event.target : null;
    if (!el) return;
    if (event.key === "Enter" || event.key === " " || event.key === "Spacebar") {
      event.preventDefault();
      pick(el, true);
      return;
    }
    var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    var list = stops();
    var at = list.indexOf(el);
    var to = null;
    if (step) to = list[(at + step + list.length) % list.length];
    else if (event.key === "Home") to = list[0];
    else if (event.key === "End") to = list[list.length - 1];
    if (!to) return;
    event.preventDefault();
    focusPart(to);
  }

  function reset() {
    picked = [];
    render();
    focusStart();
  }

  function markLastMove() {
    var data = document.getElementById("last-move");
    if (!data) return;
    clearMarks("last-move");
    JSON.parse(data.textContent || "[]").forEach(function (id) {
      parts(id).forEach(function (el) { el.classList.add("last-move"); });
    });
  }

  // ---- announcing --------------------------------------------------------------
  // Log entries newer than the last announced one, oldest first, without the viewer's own
  // (the player knows them).
  function newLogLines() {
    var region = document.getElementById("match-announcer");
    var mine = region ? region.dataset.seat : "";
    var items = document.querySelectorAll("[data-log] li[value]");
    var lines = [];
    var newest = lastLog;
    items.forEach(function (li) {
      var value = parseInt(li.getAttribute("value"), 10);
      if (isNaN(value)) return;
      if (newest === null || value > newest) newest = value;
      if (lastLog === null || value <= lastLog) return;
      if (mine && li.getAttribute("data-seat") === mine) return;
      lines.push({ value: value, text: li.textContent.replace(/\s+/g, " ").trim() });
    });
    var first = lastLog === null;
    lastLog = newest;
    if (first) return [];
    lines.sort(function (p, q) { return p.value - q.value; });
    return lines.map(function (l) { return l.text; });
  }

  function announce() {
    var region = document.getElementById("match-announcer");
    var live = document.getElementById("match-live");
    if (!region || !live) return;
    var words = newLogLines();
    var ply = live.getAttribute("data-ply");
    if (actions.length && ply !== lastPly) {
      var prompt = document.getElementById("board-prompt");
      var hint = document.getElementById("board-hint");
      var text = prompt ? prompt.textContent : (hint ? hint.textContent : "");
      words.push((region.dataset.yourMove || "") + " " + text.trim());
    }
    if (actions.length) lastPly = ply;
    if (!words.length) return;
    // Emptied first, so that the same sentence twice is read twice.
    region.textContent = "";
    window.setTimeout(function () { region.textContent = words.join(" "); }, 50);
  }

  // ---- setting up (on load and after every refresh) -----------------------------------
  function setUpSkipLink() {
    var link = document.getElementById("skip-to-board");
    if (!link || link.dataset.ready) return;
    link.dataset.ready = "1";
    // First in the page, before the site's menu (the template can only place it in main).
    document.body.insertBefore(link, document.body.firstChild);
    link.addEventListener("click", function (event) {
      event.preventDefault();
      var list = stops();
      var current = list.filter(function (el) { return el.getAttribute("tabindex") === "0"; })[0];
      if (current || list.length) focusPart(current || list[0]);
      else focusStart();
      var root = board();
      if (root && !list.length) reveal(root, true);
    });
  }

  function init() {
    picked = [];
    markLastMove();
    var data = document.getElementById("legal-actions");
    shownData = data;
    shownBoard = board();
    actions = data ? JSON.parse(data.textContent || "[]") : [];
    var root = board();
    if (root) {
      // The board is a named region focus can return to between decisions; a Tab stop of
      // its own where it pans sideways (a phone), so that the keys can pan it (as
      // static/js/scroll-regions.js does for other wide boxes).
      var style = window.getComputedStyle(root);
      var pans = (style.overflowX === "auto" || style.overflowX === "scroll") &&
        root.scrollWidth > root.clientWidth;
      root.setAttribute("tabindex", pans ? "0" : "-1");
      if (pans) root.setAttribute("data-scroll-region", "");
      root.setAttribute("role", "region");
      var region = document.getElementById("match-announcer");
      if (region && region.dataset.boardLabel) root.setAttribute("aria-label", region.dataset.boardLabel);
    }
    if (root && !root.dataset.boardReady) {
      root.dataset.boardReady = "1";
      root.addEventListener("click", onBoardClick);
      root.addEventListener("keydown", onBoardKey);
    }
    var resetButton = document.getElementById("board-reset");
    if (resetButton && !resetButton.dataset.ready) {
      resetButton.dataset.ready = "1";
      resetButton.addEventListener("click", reset);
    }
    setUpSkipLink();
    var section = document.getElementById("your-move");
    var back = focusBack;
    focusBack = false;
    if (actions.length && section && section.dataset.clickable !== "1") {
      // This game's board has nothing to click yet: the list is the way to answer, open.
      var fallback = document.querySelector("details.fallback");
      if (fallback) fallback.open = true;
      var hint = document.getElementById("board-hint");
      if (hint) hint.hidden = true;
      announce();
      return;
    }
    if (actions.length) {
      render();
      var list = stops();
      var anyShown = list.some(isShown);
      if (back) focusStart();
      else if (list.length && !anyShown) reveal(list[0], true);
    } else if (back && root) {
      root.focus({ preventScroll: true });
    }
    announce();
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && picked.length) reset();
  });
  // The live refresh waits while a selection is half made.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (picked.length && elt && elt.id === "match-live") event.preventDefault();
  });
  // Focus inside the part about to be replaced would fall to the page top: note it.
  document.addEventListener("htmx:beforeSwap", function () {
    var live = document.getElementById("match-live");
    if (live && live.contains(document.activeElement)) focusBack = true;
  });
  // After a refresh (the whole live part, or pieces of it swapped out of band): a new
  // decision is set up afresh; otherwise the board keeps its marks and the news is read out.
  // Once per refresh, however many pieces htmx reports swapped.
  var refreshing = false;
  function refresh() {
    refreshing = false;
    if (document.getElementById("legal-actions") !== shownData || board() !== shownBoard) {
      init();
      return;
    }
    markLastMove();
    var root = board();
    if (actions.length && root && !root.querySelector("[data-key]")) render(); // board redrawn
    announce();
  }
  document.addEventListener("htmx:afterSwap", function () {
    if (refreshing) return;
    refreshing = true;
    window.setTimeout(refresh, 0);
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
