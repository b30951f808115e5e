// The live match page's light updates. For a new ply the server (games/match_pages.py,
// _live_patch) answers with out-of-band swaps only: the ply, the seats, the strip, the new
// log lines, and #board-patch, the board's change as a patch (games/board_patch.py) that
// is applied here to the SVG in place. Also paints the log's lines with their seat colour.
(function () {
  var SVG_NS = "http://www.w3.org/2000/svg";

  function templateNodes(template, inSvg) {
    // Parsed by the page's HTML parser as the board was: inside an <svg> wrapper when the
    // nodes belong in one (so they are SVG elements, not unknown HTML ones).
    var root = inSvg ? template.content.firstElementChild : template.content;
    return root ? Array.prototype.slice.call(root.childNodes) : [];
  }

  function container(board, path) {
    var node = board;
    for (var i = 0; i < path.length; i++) {
      node = node && node.childNodes[path[i]];
    }
    return node;
  }

  // The attributes of the element in `template` put on `node` in place of its own.
  function setHead(node, template) {
    var wrapped = node.namespaceURI === SVG_NS && node.localName !== "svg";
    var model = template.content.firstElementChild;
    if (model && wrapped) model = model.firstElementChild;
    if (!model || model.localName !== node.localName) return false;
    Array.prototype.slice.call(node.attributes).forEach(function (a) {
      if (!model.hasAttribute(a.name)) node.removeAttribute(a.name);
    });
    Array.prototype.forEach.call(model.attributes, function (a) { node.setAttribute(a.name, a.value); });
    return true;
  }

  // Applies the patch; false when the board is not the one it was made for.
  function applyPatch(board, patches, templates) {
    var used = 0;
    for (var p = 0; p < patches.length; p++) {
      var path = patches[p][0], count = patches[p][1], ops = patches[p][2];
      var node = container(board, path);
      if (!node || node.childNodes.length !== count) return false;
      if (patches[p][3]) {
        if (used >= templates.length || !setHead(node, templates[used++])) return false;
      }
      // New nodes inside an <svg> were sent inside an <svg> wrapper (SVG elements).
      var inSvg = node.namespaceURI === SVG_NS;
      var old = Array.prototype.slice.call(node.childNodes);
      var next = [];
      for (var k = 0; k < ops.length; k++) {
        var op = ops[k];
        if (op === 0) {
          if (used >= templates.length) return false;
          next = next.concat(templateNodes(templates[used++], inSvg));
        } else next = next.concat(old.slice(op[0], op[1]));
      }
      var fragment = document.createDocumentFragment();
      next.forEach(function (child) { fragment.appendChild(child); });
      while (node.firstChild) node.removeChild(node.firstChild);
      node.appendChild(fragment);
    }
    return used === templates.length;
  }

  function resync() {
    // The next poll asks for the whole panel (no ply: nothing to patch from).
    var ply = document.getElementById("live-ply");
    if (ply) ply.value = "";
  }

  function onPatch() {
    var data = document.getElementById("board-patch");
    if (!data) return;
    var patches = JSON.parse(data.textContent || "null");
    var box = data.parentNode;
    var templates = Array.prototype.slice.call(box.querySelectorAll("template"));
    data.remove();
    var board = document.getElementById("board");
    if (!patches || !board) return;
    var ok = false;
    try { ok = applyPatch(board, patches, templates); } catch (e) { ok = false; }
    templates.forEach(function (t) { t.remove(); });
    if (!ok) resync();
    var live = document.getElementById("match-live");
    var ply = document.getElementById("live-ply");
    if (live && ply && ok) live.dataset.ply = ply.value;
  }

  function paintLog() {
    var data = document.getElementById("seat-fills");
    if (!data) return;
    var fills = JSON.parse(data.textContent || "{}");
    var seen = {};
    document.querySelectorAll("#match-log li[data-seat], #since-move li[data-seat]").forEach(function (li) {
      // Two answers for the same ply (a slow one overtaken) would add its lines twice.
      var key = (li.closest("#since-move") ? "s" : "l") + li.value;
      if (seen[key]) { li.remove(); return; }
      seen[key] = true;
      var fill = fills[li.getAttribute("data-seat")];
      // CSSOM, not a style attribute: the Content-Security-Policy allows this.
      if (fill && !li.dataset.painted) {
        li.style.setProperty("--seat", fill);
        li.dataset.painted = "1";
      }
    });
  }

  document.addEventListener("htmx:oobAfterSwap", onPatch);
  document.addEventListener("htmx:afterSwap", function () { onPatch(); paintLog(); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", paintLog);
  else paintLog();
})();
