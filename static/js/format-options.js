// Shows a form's fields only for the choices they belong to, game-agnostic:
// - a field marked data-formats="swiss league" shows (and is sent) only while the
//   select marked data-format-select holds one of those values;
// - options of a select marked data-game-options carry data-game and show only for the
//   game chosen in the select marked data-game-select (options without it always show).
// Hidden fields are disabled, so the server never receives them; it checks all it gets.
(function () {
  var form = document.querySelector("[data-format-select]");
  form = form && form.form;
  if (!form) return;
  var formatSelect = form.querySelector("[data-format-select]");
  var gameSelect = form.querySelector("[data-game-select]");

  function row(field) {
    return field.closest("p") || field.parentElement;
  }

  function update() {
    var format = formatSelect.value;
    form.querySelectorAll("[data-formats]").forEach(function (field) {
      var shown = field.getAttribute("data-formats").split(" ").indexOf(format) !== -1;
      row(field).hidden = !shown;
      field.disabled = !shown;
    });
    if (!gameSelect) return;
    form.querySelectorAll("[data-game-options]").forEach(function (select) {
      Array.prototype.forEach.call(select.options, function (option) {
        var game = option.getAttribute("data-game");
        var shown = !game || game === gameSelect.value;
        option.hidden = !shown;
        option.disabled = !shown;
        if (!shown && option.selected) select.value = "";
      });
    });
  }

  formatSelect.addEventListener("change", update);
  if (gameSelect) gameSelect.addEventListener("change", update);
  update();
})();
