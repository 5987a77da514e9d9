/* The full-text search page: Pagefind's interface, over HTTP only (it loads ES
   modules, which browsers refuse from file://). */
(function () {
  "use strict";
  var root = document.documentElement.getAttribute("data-root") || ".";
  if (location.protocol === "file:") {
    document.getElementById("docgen-fulltext-offline").hidden = false;
    return;
  }
  var css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = root + "/_pagefind/pagefind-ui.css";
  document.head.appendChild(css);
  var s = document.createElement("script");
  s.src = root + "/_pagefind/pagefind-ui.js";
  s.onload = function () {
    new window.PagefindUI({ element: "#docgen-fulltext", showSubResults: true });
  };
  document.head.appendChild(s);
}());
