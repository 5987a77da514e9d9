/* Draws the page's Mermaid diagrams with the renderer shipped in the site. */
(function () {
  "use strict";
  if (window.mermaid) {
    window.mermaid.initialize({ startOnLoad: true, securityLevel: "strict", theme: "neutral" });
  }
}());
