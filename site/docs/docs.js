// The example documentation page's only script besides embed.js: a
// picture that needs the kueueplay API (img[data-needs-api], from
// /v1/render.svg) is replaced by a note when the site has no API (a
// static copy of build/site).
"use strict";
(() => {
  const replace = (img) => {
    const note = document.createElement("p");
    note.className = "missing";
    note.textContent = `(${img.alt}) This picture needs the kueueplay API, which this host does not serve: run kueueplay serve, or deploy the Worker.`;
    img.replaceWith(note);
  };
  document.addEventListener(
    "error",
    (e) => {
      if (e.target instanceof HTMLImageElement && e.target.hasAttribute("data-needs-api")) replace(e.target);
    },
    true,
  );
  // One that failed before this script ran: decode() rejects for it.
  for (const img of document.querySelectorAll("img[data-needs-api]")) {
    if (img.complete) img.decode().catch(() => img.isConnected && replace(img));
  }
})();
