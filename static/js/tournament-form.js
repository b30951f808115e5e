// The tournament form's boxes that follow "over the board" (data-follows-board): on for
// an online event, off over the board, until the organiser sets the box herself. The box's
// hidden companion (named in data-follows-board) holds what the page shows; the server
// reads a box sent back as shown as "left alone" and applies the same default, so the form
// works without this file too. A "Rated" box marked data-needs-permission is hidden over
// the board (the event is unrated then, no refusal; its help text says why).
(function () {
  var board = document.querySelector("[data-over-the-board]");
  var form = board && board.form;
  if (!form) return;

  function row(field) {
    return field.closest("p") || field.parentElement;
  }

  var boxes = Array.prototype.slice.call(form.querySelectorAll("[data-follows-board]"));
  boxes.forEach(function (box) {
    var shown = form.elements[box.getAttribute("data-follows-board")];
    box.addEventListener("change", function () {
      box.dataset.touched = "1"; // hers now: "over the board" no longer moves it
    });
    box._shown = shown;
  });

  function follow() {
    boxes.forEach(function (box) {
      if (box.dataset.touched || !box._shown) return;
      box.checked = !board.checked;
      box._shown.value = box.checked ? "1" : "0";
    });
  }

  // Only the sentence on the permission stays: the box would do nothing over the board.
  function permission() {
    form.querySelectorAll("[data-needs-permission]").forEach(function (box) {
      var label = row(box).querySelector("label");
      box.hidden = board.checked;
      if (label) label.hidden = board.checked;
    });
  }

  board.addEventListener("change", function () {
    follow();
    permission();
  });
  permission(); // not follow(): a page shown again already shows what the boxes came to
})();
