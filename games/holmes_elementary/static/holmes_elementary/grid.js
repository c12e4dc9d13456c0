/* The Elementary deck's deduction grid: a click (or Enter, Space) cycles a cell's mark
 * (blank, ruled out, suspect); arrow keys, Home and End move between cells (one tab stop
 * for the whole grid). Marks are saved with the player's notebook (POST "marks" as JSON)
 * and survive every live update: the page keeps its own copy and puts it back after each
 * htmx swap, so a save still on its way is never undone by a fresh render.
 */
(function () {
  "use strict";

  if (window.holmesElementaryGrid) return; // htmx runs this again with every swap
  window.holmesElementaryGrid = true;

  var CYCLE = ["", "out", "maybe"];
  var GLYPHS = { "": "", out: "✕", maybe: "?" };
  var WORDS = { "": "no mark", out: "marked ruled out", maybe: "marked suspect" };
  var SAVE_MS = 400;

  var marks = null; // {"grid": {cardId: mark}}, once read from the first grid
  var current = null; // the card id whose cell holds the grid's tab stop
  var focusedCard = null;
  var saveTimer = null;
  var saving = false;
  var dirty = false;

  function form() { return document.getElementById("he-grid-form"); }
  function cells() { return Array.prototype.slice.call(document.querySelectorAll(".he-cell[data-card]")); }
  function status(text) {
    var element = document.getElementById("he-grid-status");
    if (element) element.textContent = text;
  }

  function readMarks() {
    var grid = form();
    if (!grid) return;
    if (marks === null) {
      try { marks = JSON.parse(grid.dataset.marks || "{}"); } catch (error) { marks = {}; }
      if (!marks || typeof marks !== "object") marks = {};
      if (!marks.grid || typeof marks.grid !== "object") marks.grid = {};
    }
  }

  function show(cell) {
    var mark = marks.grid[cell.dataset.card] || "";
    cell.dataset.mark = mark;
    cell.querySelector(".he-mark").textContent = GLYPHS[mark];
    cell.setAttribute("aria-label", cell.dataset.factText + "; " + WORDS[mark]);
  }

  function bind() {
    var grid = form();
    if (!grid) return;
    readMarks();
    var all = cells();
    if (!all.length) return;
    if (!current || !document.getElementById("cell-" + current)) current = all[0].dataset.card;
    all.forEach(function (cell) {
      show(cell);
      cell.tabIndex = cell.dataset.card === current ? 0 : -1;
    });
    if (grid.dataset.bound) return;
    grid.dataset.bound = "1";
    grid.addEventListener("click", function (event) {
      var cell = event.target.closest(".he-cell[data-card]");
      if (cell) cycle(cell);
    });
    grid.addEventListener("keydown", keydown);
    grid.addEventListener("submit", function (event) { event.preventDefault(); });
  }

  function cycle(cell) {
    var card = cell.dataset.card;
    var next = CYCLE[(CYCLE.indexOf(marks.grid[card] || "") + 1) % CYCLE.length];
    if (next) marks.grid[card] = next; else delete marks.grid[card];
    moveTo(cell, false);
    show(cell);
    status(cell.dataset.factText.split(":")[0] + ": " + WORDS[next] + ". Saving…");
    dirty = true;
    window.clearTimeout(saveTimer);
    saveTimer = window.setTimeout(save, SAVE_MS);
  }

  function moveTo(cell, focus) {
    cells().forEach(function (other) { other.tabIndex = -1; });
    cell.tabIndex = 0;
    current = cell.dataset.card;
    if (focus) cell.focus();
  }

  function keydown(event) {
    var cell = event.target.closest(".he-cell[data-card]");
    if (!cell) return;
    var row = cell.closest("tr");
    var rowCells = Array.prototype.slice.call(row.querySelectorAll(".he-cell[data-card]"));
    var column = rowCells.indexOf(cell);
    var rows = Array.prototype.slice.call(cell.closest("tbody").querySelectorAll("tr"));
    var rowIndex = rows.indexOf(row);
    var target = null;
    if (event.key === "ArrowRight") target = rowCells[column + 1];
    else if (event.key === "ArrowLeft") target = rowCells[column - 1];
    else if (event.key === "ArrowDown" && rows[rowIndex + 1]) target = rows[rowIndex + 1].querySelectorAll(".he-cell[data-card]")[column];
    else if (event.key === "ArrowUp" && rows[rowIndex - 1]) target = rows[rowIndex - 1].querySelectorAll(".he-cell[data-card]")[column];
    else if (event.key === "Home") target = rowCells[0];
    else if (event.key === "End") target = rowCells[rowCells.length - 1];
    else return;
    event.preventDefault();
    if (target) moveTo(target, true);
  }

  function save() {
    var grid = form();
    if (!grid || !dirty) return;
    if (saving) { saveTimer = window.setTimeout(save, SAVE_MS); return; }
    saving = true;
    dirty = false;
    var body = new FormData();
    body.append("csrfmiddlewaretoken", grid.querySelector("[name=csrfmiddlewaretoken]").value);
    body.append("marks", JSON.stringify(marks));
    fetch(grid.action, {
      method: "POST",
      body: body,
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    })
      .then(function (response) { return response.json().then(function (result) { return [response.ok, result]; }); })
      .then(function (result) {
        if (result[0]) status(dirty ? "Saving…" : "Marks saved.");
        else status(result[1].error || "Your marks were not saved.");
      })
      .catch(function () {
        status("Not saved: no connection. It will retry.");
        dirty = true;
        saveTimer = window.setTimeout(save, 3000);
      })
      .finally(function () { saving = false; });
  }

  // A live update replaces the grid: keep the player's place and marks.
  document.body.addEventListener("htmx:beforeSwap", function () {
    var active = document.activeElement;
    focusedCard = active && active.dataset && active.dataset.card ? active.dataset.card : null;
  });
  document.body.addEventListener("htmx:afterSettle", function () {
    bind();
    if (focusedCard) {
      var cell = document.getElementById("cell-" + focusedCard);
      if (cell) cell.focus();
      focusedCard = null;
    }
  });
  window.addEventListener("beforeunload", function () { if (dirty) save(); });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bind);
  else bind();
})();
