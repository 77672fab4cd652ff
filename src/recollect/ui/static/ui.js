// recollect's page: a little plain JavaScript, no framework, nothing fetched. The page works without it.
"use strict";
document.addEventListener("keydown", (event) => {
  // "/" focuses the search box, as on most search pages.
  const box = document.getElementById("q");
  if (event.key === "/" && box && document.activeElement !== box && !/INPUT|TEXTAREA|SELECT/.test(document.activeElement.tagName)) {
    event.preventDefault();
    box.focus();
  }
});
document.addEventListener("DOMContentLoaded", () => {
  // Bring the message the hit points at into view.
  const anchor = document.querySelector("article.message.anchor");
  if (anchor) anchor.scrollIntoView({ block: "center" });
});
