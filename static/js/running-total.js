// Running totals for tables of counts that must add up to a number (data-total="N"):
// the footer's <output data-total-output> shows the sum of the table's number inputs
// as they are typed, marked "off" until it reaches N. Game-agnostic; no inline script.
(function () {
  "use strict";

  function inputsOf(table) {
    // Only this table's own cells, not those of a table nested inside it.
    return Array.prototype.filter.call(
      table.querySelectorAll("input[type=number]"),
      function (input) { return input.closest("table") === table; }
    );
  }

  function update(table) {
    var target = parseInt(table.getAttribute("data-total"), 10);
    var sum = 0;
    inputsOf(table).forEach(function (input) {
      var n = parseInt(input.value, 10);
      if (!isNaN(n)) { sum += n; }
    });
    var out = table.querySelector("output[data-total-output]");
    if (out) {
      out.textContent = String(sum);
      out.classList.toggle("off", sum !== target);
    }
    table.classList.toggle("total-off", sum !== target);
  }

  function init() {
    document.querySelectorAll("table[data-total]").forEach(function (table) {
      update(table);
      table.addEventListener("input", function () { update(table); });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
