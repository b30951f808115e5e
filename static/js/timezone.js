// The browser's time zone, for the server to show times in (games/timezones.py).
// It goes into the "tz" cookie, which the server uses for visitors and for people who
// chose no zone; a zone saved in the settings wins. The server checks the name.
// On the settings page it is also offered as a suggestion next to the zone picker.
(function () {
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    return;
  }
  if (!zone || !/^[A-Za-z0-9_+\-\/]{1,64}$/.test(zone)) return;

  var current = document.cookie.split("; ").filter(function (c) {
    return c.indexOf("tz=") === 0;
  })[0];
  if (current !== "tz=" + zone) {
    document.cookie = "tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax" +
      (location.protocol === "https:" ? "; Secure" : "");
  }

  var select = document.querySelector("[data-time-zone-select]");
  var hint = document.querySelector("[data-browser-zone-hint]");
  if (!select || !hint) return;
  var offered = Array.prototype.some.call(select.options, function (o) {
    return o.value === zone;
  });
  if (!offered) return;
  function update() {
    hint.hidden = select.value === zone;
  }
  hint.querySelector("[data-browser-zone]").textContent = zone;
  hint.querySelector("[data-use-browser-zone]").addEventListener("click", function () {
    select.value = zone;
    update();
    select.focus();
  });
  select.addEventListener("change", update);
  update();
})();
