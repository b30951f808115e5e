// Shows a form's fields only for the format they belong to: a field marked
// data-formats="swiss league" shows (and is sent) only while the select marked
// data-format-select holds one of those values. Hidden fields are disabled, so the
// server never receives them; it checks all it gets. (Variants by game: game-options.js.)
(function () {
  var form = document.querySelector("[data-format-select]");
  form = form && form.form;
  if (!form) return;
  var formatSelect = form.querySelector("[data-format-select]");

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
  }

  formatSelect.addEventListener("change", update);
  update();
})();
