// The tournament forms: the planned start's hint names the zone it is typed in, the one
// picked in the form's time-zone select (tournaments/forms.py, zone_field). Without JS the
// hint names the zone the page was shown with, and the server reads the time in the zone sent.
(function () {
  document.querySelectorAll("select[data-tournament-zone]").forEach(function (select) {
    var form = select.form;
    if (!form) return;
    select.addEventListener("change", function () {
      form.querySelectorAll("[data-zone-name]").forEach(function (name) {
        name.textContent = select.value;
      });
    });
  });
})();
