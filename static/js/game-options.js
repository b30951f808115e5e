// Offers only the chosen game's options, game-agnostic: in a form, the options of a
// select marked data-game-options that carry data-game show only while the select
// marked data-game-select holds that game (options without data-game always show).
// A hidden option is also disabled and deselected; the server checks what it gets.
// Without the script every game's note shows, each named by its game.
(function () {
  document.querySelectorAll("form").forEach(function (form) {
    var gameSelect = form.querySelector("[data-game-select]");
    if (!gameSelect) return;

    function update() {
      form.querySelectorAll("[data-game-options]").forEach(function (select) {
        Array.prototype.forEach.call(select.options, function (option) {
          var game = option.getAttribute("data-game");
          var shown = !game || game === gameSelect.value;
          option.hidden = !shown;
          option.disabled = !shown;
          if (!shown && option.selected) select.value = "";
        });
      });
      // Notes about one game (data-game-note="<slug>"), e.g. who moves first.
      form.querySelectorAll("[data-game-note]").forEach(function (note) {
        note.hidden = note.getAttribute("data-game-note") !== gameSelect.value;
      });
    }

    gameSelect.addEventListener("change", update);
    update();
  });
})();
