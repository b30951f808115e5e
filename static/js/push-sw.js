/* The Web Push service worker, served at /push-sw.js (notifications/push_views.py) so
   that its scope is the whole site. A push carries {title, body, url, tag}
   (notifications/push.py, payload_for); a click opens the url's page on this site (the
   tab already showing it, if any). */
"use strict";

self.addEventListener("push", function (event) {
  var notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (e) {
    notice = { body: event.data ? event.data.text() : "" };
  }
  var title = notice.title || "Caravan Club";
  event.waitUntil(self.registration.showNotification(title, {
    body: notice.body || "",
    tag: notice.tag || undefined,
    icon: "/static/img/favicon.svg",
    data: { url: notice.url || "/notifications/" }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var given = new URL((event.notification.data && event.notification.data.url) || "/notifications/",
                      self.location.origin);
  // Only the site's own pages (the link's path on this worker's origin).
  var target = new URL(given.pathname + given.search + given.hash, self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true })
    .then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url === target && "focus" in windows[i]) {
          return windows[i].focus();
        }
      }
      return self.clients.openWindow(target);
    }));
});
