// Opens and closes the header menu on narrow screens (on wide ones it is always shown).
(function () {
  var button = document.querySelector(".menu-toggle");
  if (!button) return;
  button.addEventListener("click", function () {
    var open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", open ? "true" : "false");
    document.querySelector(".topbar").classList.toggle("menu-open", open);
  });
})();
