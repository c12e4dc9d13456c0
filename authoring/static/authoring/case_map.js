/* The case map's boxes are links to rows of the editor (authoring/case_map.py). A click on
   the editor's own page opens the card or question there, brings its fold line to the top
   of the screen and puts the keyboard on it, so that Tab goes on from the row and not from
   the top of the page. Arriving from the review page's map does the same. */
(function () {
  "use strict";

  const ROW = /^#(locations|questions)-\d+$/;

  function rowOf(hash) {
    return ROW.test(hash) ? document.getElementById(hash.slice(1)) : null;
  }

  function showRow(row) {
    const fold = row.querySelector(":scope > details");
    if (fold) fold.open = true;
    // The fold line first: the delete box before it is no place to land.
    const control = row.querySelector(":scope > details > summary") ||
      row.querySelector("input:not([type=hidden]), textarea, select, a[href]");
    // An open card is taller than a phone's screen: its top, not its middle, comes into view.
    row.scrollIntoView({ block: "start" });
    if (control) control.focus({ preventScroll: true });
  }

  document.addEventListener("click", function (event) {
    const link = event.target.closest(".case-map a[href]");
    if (!link) return;
    const row = rowOf(link.getAttribute("href"));
    if (!row) return; // another page (the review page's map): it opens there
    event.preventDefault();
    history.pushState(null, "", link.getAttribute("href"));
    showRow(row);
  });

  // Pointing at a box, or tabbing to it, lights its arrows: at 40 cards, the way to read
  // one card's links among all the others.
  document.querySelectorAll(".case-map-picture").forEach(function (picture) {
    const edges = picture.querySelectorAll(".case-map-edge");
    function light(id) {
      picture.classList.toggle("is-lighting", Boolean(id));
      edges.forEach(function (edge) {
        edge.classList.toggle("is-lit", Boolean(id) && (edge.dataset.from === id || edge.dataset.to === id));
      });
    }
    picture.querySelectorAll(".case-map-node").forEach(function (node) {
      node.addEventListener("mouseenter", function () { light(node.dataset.node); });
      node.addEventListener("focus", function () { light(node.dataset.node); });
      node.addEventListener("mouseleave", function () { light(null); });
      node.addEventListener("blur", function () { light(null); });
    });
  });

  // After the editor's own script has opened the row and scrolled to it.
  window.addEventListener("load", function () {
    const row = rowOf(location.hash);
    if (row) showRow(row);
  });
})();
