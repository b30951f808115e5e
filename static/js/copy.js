// "Copy" buttons (data-copy="<id of the field>"): shown only where the browser can copy
// (the clipboard needs a secure page); otherwise the read-only field is selected on focus.
(function () {
  document.querySelectorAll("[data-copy-source]").forEach(function (field) {
    field.addEventListener("focus", function () { field.select(); });
  });
  if (!navigator.clipboard || !window.isSecureContext) return;
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    var done = button.parentNode.querySelector("[data-copied]");
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(field.value).then(function () {
        if (done) done.hidden = false;
      });
    });
  });
})();
