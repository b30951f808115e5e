// A box that scrolls sideways (a wide table or board on a phone) can be reached and panned
// with the keyboard: it is made focusable and named (WCAG 2.1.1), here for every such box
// rather than in each template, and again after htmx swaps new content in or a toggle.
(function () {
  var label = document.body.getAttribute("data-scroll-label") || "Scrolls sideways";
  function mark() {
    var boxes = document.querySelectorAll("table, .table-wrap, .table-scroll, .board, .bracket, .bracket-picture");
    for (var i = 0; i < boxes.length; i++) {
      var el = boxes[i];
      var style = window.getComputedStyle(el);
      var scrolls = (style.overflowX === "auto" || style.overflowX === "scroll") && el.scrollWidth > el.clientWidth;
      if (scrolls && !el.hasAttribute("tabindex")) {
        el.setAttribute("tabindex", "0");
        if (!el.hasAttribute("aria-label") && el.tagName !== "TABLE") el.setAttribute("aria-label", label);
        el.setAttribute("data-scroll-region", "");
      }
    }
  }
  mark();
  window.addEventListener("resize", function () { mark(); });
  document.body.addEventListener("htmx:afterSwap", function () { mark(); });
  // A toggle that widens a table (the standings' tie-breaks) changes no size of the window.
  document.body.addEventListener("change", function () { window.requestAnimationFrame(mark); });
})();
