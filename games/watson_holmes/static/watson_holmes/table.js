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

// An answer refused as blank: the server draws the form again with the sentence by that
// box (aria-invalid, aria-describedby) and the box marked autofocus, which htmx focuses
// when it swaps the form in. Live updates keep a box the player is typing in as it is
// (hx-preserve), marks included: so the autofocus goes once it has served, or every
// update would take the focus back there, and the marks go once the box holds an answer.
(function () {
  "use strict";

  function spendAutofocus() {
    var live = document.getElementById("live");
    if (!live) return;
    live.querySelectorAll(".answer-field [autofocus]").forEach(function (field) {
      if (document.activeElement !== field) field.focus();
      field.removeAttribute("autofocus");
    });
  }
  spendAutofocus();
  document.body.addEventListener("htmx:afterSettle", spendAutofocus);

  document.addEventListener("input", function (event) {
    var field = event.target;
    if (!field.matches || !field.matches('.answer-field [aria-invalid="true"]')) return;
    if (!field.value.trim()) return;
    field.removeAttribute("aria-invalid");
    var error = document.getElementById(field.id + "-error");
    if (error) error.hidden = true;
    var described = (field.getAttribute("aria-describedby") || "").split(" ").filter(function (id) {
      return id && id !== field.id + "-error";
    });
    if (described.length) field.setAttribute("aria-describedby", described.join(" "));
    else field.removeAttribute("aria-describedby");
  });
})();
