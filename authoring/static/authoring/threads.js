// Comment threads under their cards and questions in the case editor (_row_threads.html).
//
// A reply, a new comment, Resolve and Reopen are sent in the background, then the threads
// are drawn again from the server in place: the writer never leaves a page that may hold
// unsaved text. Whatever was typed in any other thread's box is carried into the new
// drawing, and a refused action keeps its text and says why. Without this script the forms
// post and come back to the row.
(function () {
  "use strict";

  if (!document.getElementById("holmes-thread-forms")) return;
  const { sendInPlace, readPageAgain, tell } = window.HolmesInPlace;

  // A comment typed under a card is no change to the case: the editor's own listeners
  // (its "Unsaved changes" status, its autosave) never hear of it.
  document.addEventListener("input", function (event) {
    if (event.target.closest && event.target.closest(".holmes-row-threads")) {
      event.stopPropagation();
    }
  }, true);

  // On the document: the forms' holder is itself drawn again after each action.
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!form.classList.contains("holmes-thread-form")) return;
    event.preventDefault();
    send(form, event.submitter || null);
  });

  // Save reloads the page: a reply or comment typed but not sent yet is kept for this tab
  // and put back into its box when the page comes back, never lost.
  const KEPT = "holmes-thread-boxes:" + location.pathname;
  window.addEventListener("pagehide", function () {
    const typed = {};
    document.querySelectorAll("[data-holmes-threads] textarea").forEach(function (box) {
      if (box.value.trim()) typed[box.id] = box.value;
    });
    if (Object.keys(typed).length) sessionStorage.setItem(KEPT, JSON.stringify(typed));
  });
  const kept = JSON.parse(sessionStorage.getItem(KEPT) || "{}");
  sessionStorage.removeItem(KEPT);
  Object.keys(kept).forEach(function (id) {
    const box = document.getElementById(id);
    if (!box || box.value) return;
    box.value = kept[id];
    const comment = box.closest("details.holmes-new-comment");
    if (comment) comment.open = true;
  });

  // A row's "N open comments" badge, on its folded line, leads to the row's first thread
  // in place (rather than folding the row away): the fold opens, the thread takes focus.
  document.addEventListener("click", function (event) {
    const badge = event.target.closest && event.target.closest(".holmes-comment-count");
    const fold = badge ? badge.closest("details") : null;
    const thread = fold ? fold.querySelector(".holmes-row-threads .holmes-thread") : null;
    if (!thread) return;
    event.preventDefault();
    fold.open = true;
    thread.scrollIntoView({ block: "start" });
    thread.focus({ preventScroll: true });
  });

  async function send(form, button) {
    const area = button ? button.closest("[data-holmes-threads]") : null;
    const thread = button ? button.closest(".holmes-thread") : null;
    const result = await sendInPlace(form.action, new FormData(form), button);
    if (!result.sent) {
      tell(thread || area, result.message);
      return;
    }
    const sentBoxes = Array.from(form.elements).filter(function (el) {
      return el.tagName === "TEXTAREA";
    });
    await redraw(sentBoxes, result.message, area ? area.id : "", thread ? thread.id : "");
  }

  // Each area of threads again, as the server now draws it, with every box's typed text
  // (but the one just sent) carried over.
  async function redraw(sentBoxes, message, areaId, threadId) {
    const typed = {};
    document.querySelectorAll("[data-holmes-threads] textarea").forEach(function (box) {
      if (box.value && !sentBoxes.includes(box)) typed[box.id] = box.value;
    });
    const fresh = await readPageAgain();
    if (!fresh) {
      sentBoxes.forEach(function (box) { box.value = ""; });
      const where = document.getElementById(areaId);
      tell(where, message + " Reload the page to see the thread.");
      return;
    }
    document.querySelectorAll("[data-holmes-threads]").forEach(function (old) {
      const replacement = fresh.getElementById(old.id);
      if (!replacement) {
        // Its last thread resolved, and no box to comment: the area is gone.
        if (old.id !== areaId) old.remove();
        else old.replaceChildren();
        return;
      }
      replacement.querySelectorAll("textarea").forEach(function (box) {
        if (typed[box.id] !== undefined) box.value = typed[box.id];
      });
      old.replaceWith(document.adoptNode(replacement));
    });
    landFocus(message, areaId, threadId);
  }

  // Focus never falls to the page's body: it goes to the thread acted on, or, for a new
  // comment, to the new thread (the area's last), or else to the area itself.
  function landFocus(message, areaId, threadId) {
    const area = document.getElementById(areaId);
    let target = threadId ? document.getElementById(threadId) : null;
    if (!target && area && !threadId) {
      const threads = area.querySelectorAll(".holmes-thread");
      target = threads.length ? threads[threads.length - 1] : null;
    }
    target = target || area;
    if (!target) return;
    tell(target, message);
    target.focus();
  }
})();
