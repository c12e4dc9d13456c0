// Watson & Holmes's table page: on a phone, the notebook is a drawer at the bottom of
// the screen, so a player can write beside the card they are reading instead of
// scrolling thousands of pixels down. Without this script the notebook simply stays
// where the page puts it.
(function () {
  "use strict";

  var notebook = document.querySelector(".notebook");
  var text = document.getElementById("notebook-text");
  if (!notebook || !text) return;

  var toggle = document.createElement("button");
  toggle.type = "button";
  toggle.id = "notebook-toggle";
  toggle.className = "button notebook-toggle";
  toggle.setAttribute("aria-controls", "notebook-form");
  notebook.insertBefore(toggle, notebook.firstChild);
  notebook.classList.add("wh-drawer");
  document.body.classList.add("has-notebook-drawer");

  function setOpen(open) {
    notebook.classList.toggle("is-open", open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    toggle.textContent = open ? "Close the notebook" : "Open your notebook";
  }
  setOpen(false);

  toggle.addEventListener("click", function () {
    var open = !notebook.classList.contains("is-open");
    setOpen(open);
    if (open) text.focus();
  });
  // Writing opens the drawer: the closed drawer shows the first line of the notes.
  text.addEventListener("focus", function () { setOpen(true); });
  notebook.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && notebook.classList.contains("is-open")) {
      setOpen(false);
      toggle.focus();
    }
  });
  // "Write it in your notebook" links, in the reading panel (re-drawn by live updates).
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.open-notebook");
    if (!link) return;
    event.preventDefault();
    setOpen(true);
    text.focus();
  });
})();
