// The review page's one form, sent in place: Add comment (the page's box or one under a
// card or question), Reply, Resolve and Reopen send every box's text in the background,
// then the case's text, cards and comments are drawn again from the server, and focus
// lands on the thread acted on. A refusal keeps every box as it was and says why.
// "Request changes" leaves the page on purpose (for the queue). Without this script the
// buttons post the form and come back.
(function () {
  "use strict";

  if (!document.getElementById("review-form")) return;
  // The form is drawn again after each sending: it is looked up by its id each time.
  const AREAS = ["case-text", "cards", "comments"];

  document.addEventListener("submit", function (event) {
    if (event.target.id !== "review-form") return;
    const button = event.submitter || null;
    if (button && button.hasAttribute("data-leaves-page")) return;
    event.preventDefault();
    send(button);
  });

  async function send(button) {
    const form = document.getElementById("review-form");
    const action = (button && button.getAttribute("formaction")) || form.action;
    const near = button ? button.closest(".holmes-thread, li, section, .holmes-panel") : null;
    const data = new FormData(form, button);
    if (button) button.disabled = true;
    let answer = {};
    let sent = false;
    try {
      const response = await fetch(action, {
        method: "POST",
        body: data,
        headers: { "X-Holmes-In-Place": "1" },
        credentials: "same-origin",
      });
      answer = await response.json().catch(function () { return {}; });
      sent = response.ok && answer.done;
    } catch (error) {
      answer = { message: "Not sent: the site cannot be reached. Your text is still here." };
    }
    if (!sent) {
      if (button) button.disabled = false;
      tell(near || form, answer.message || "Not sent: try again.");
      if (button) button.focus();
      return;
    }
    await redraw(answer.message, near ? near.id : "");
  }

  async function redraw(message, nearId) {
    let fresh = null;
    try {
      const page = await fetch(location.pathname + location.search, { credentials: "same-origin" });
      fresh = new DOMParser().parseFromString(await page.text(), "text/html");
    } catch (error) {
      fresh = null;
    }
    if (!fresh || !fresh.getElementById("review-form")) {
      // Sent, but the page could not be read again: a reload shows the threads.
      location.reload();
      return;
    }
    const cardsOpen = document.getElementById("cards")?.open;
    AREAS.forEach(function (id) {
      const old = document.getElementById(id);
      const replacement = fresh.getElementById(id);
      if (old && replacement) old.replaceWith(document.adoptNode(replacement));
    });
    const cards = document.getElementById("cards");
    if (cards && cardsOpen) cards.open = true;
    landFocus(message, nearId);
  }

  // Focus never falls to the page's body: the thread acted on, else the newest thread of
  // the card or question whose box was sent, else the comments' heading.
  function landFocus(message, nearId) {
    let target = nearId ? document.getElementById(nearId) : null;
    if (target && !target.classList.contains("holmes-thread")) {
      const threads = target.querySelectorAll(".holmes-thread");
      target = threads.length ? threads[threads.length - 1] : target;
    }
    if (!target || !target.classList.contains("holmes-thread")) {
      target = document.querySelector("#comments h2");
      if (target) target.setAttribute("tabindex", "-1");
    }
    if (!target) return;
    tell(target.classList.contains("holmes-thread") ? target : target.parentElement, message);
    target.focus();
  }

  function tell(where, text) {
    let note = where.querySelector(":scope > .holmes-in-place-status");
    if (!note) {
      note = document.createElement("p");
      note.className = "holmes-in-place-status";
      note.setAttribute("role", "status");
      where.prepend(note);
    }
    note.textContent = text;
  }
})();

