/* "Allow / Stop notices in this browser" on the notification settings page
   (templates/notifications/_push_controls.html): registers the service worker
   (/push-sw.js), subscribes with the site's VAPID public key and hands the subscription
   to POST /api/me/push/; stopping deletes it there (DELETE) and unsubscribes. */
(function () {
  "use strict";
  var box = document.getElementById("push-controls");
  if (!box) return;
  var allow = box.querySelector(".push-allow");
  var stop = box.querySelector(".push-stop");
  var status = box.querySelector(".push-status");

  function say(key) { status.textContent = key ? (box.dataset[key] || "") : ""; }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("unsupported");
    return;
  }

  function keyBytes(text) {
    var padded = text + "===".slice((text.length + 3) % 4);
    var raw = atob(padded.replace(/-/g, "+").replace(/_/g, "/"));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function send(method, body) {
    return fetch(box.dataset.api, {
      method: method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": box.dataset.csrf },
      body: JSON.stringify(body)
    }).then(function (response) {
      // Deleting one the site no longer has is what was wanted.
      if (!response.ok && !(method === "DELETE" && response.status === 404)) {
        throw new Error("HTTP " + response.status);
      }
      return response;
    });
  }

  function show(subscribed) {
    allow.hidden = subscribed;
    stop.hidden = !subscribed;
    say(subscribed ? "on" : (Notification.permission === "denied" ? "denied" : ""));
  }

  var ready = navigator.serviceWorker.register(box.dataset.worker, { scope: "/" });

  ready.then(function (registration) { return registration.pushManager.getSubscription(); })
    .then(function (subscription) {
      show(Boolean(subscription));
      // Refreshed on every visit: new keys, or another account signed in on this browser.
      if (subscription) send("POST", subscription.toJSON()).catch(function () {});
    })
    .catch(function () { say("unsupported"); });

  allow.addEventListener("click", function () {
    allow.disabled = true;
    Notification.requestPermission()
      .then(function (permission) {
        if (permission !== "granted") { show(false); return null; }
        return ready.then(function (registration) {
          // An old subscription (made with other keys) would make subscribe() fail.
          return registration.pushManager.getSubscription()
            .then(function (old) { return old ? old.unsubscribe() : null; })
            .then(function () {
              return registration.pushManager.subscribe({
                userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key)
              });
            })
            .then(function (subscription) { return send("POST", subscription.toJSON()); })
            .then(function () { show(true); });
        });
      })
      .catch(function () { say("failed"); })
      .then(function () { allow.disabled = false; });
  });

  stop.addEventListener("click", function () {
    stop.disabled = true;
    ready.then(function (registration) { return registration.pushManager.getSubscription(); })
      .then(function (subscription) {
        if (!subscription) return null;
        return send("DELETE", { endpoint: subscription.endpoint })
          .then(function () { return subscription.unsubscribe(); });
      })
      .then(function () { show(false); })
      .catch(function () { say("failed"); })
      .then(function () { stop.disabled = false; });
  });
})();
