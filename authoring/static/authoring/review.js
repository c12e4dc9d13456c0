// The review page's one form, sent in place: Add comment (the page's box or one under a
// card or question), Reply, Resolve and Reopen send every box's text in the background,
// then the case's text, cards and comments are drawn again from the server, and focus
// lands on the thread acted on. A refusal keeps every box as it was and says why.
// "Request changes" leaves the page on purpose (for the queue). Without this script the
// buttons post the form and come back.
(function () {
  "use strict";

  if (!document.getElementById("review-form")) return;
  const { sendInPlace, readPageAgain, tell } = window.HolmesInPlace;
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
    const result = await sendInPlace(action, data, button);
    if (!result.sent) {
      tell(near || form, result.message);
      if (button) button.focus();
      return;
    }
    await redraw(result.message, near ? near.id : "");
  }

  async function redraw(message, nearId) {
    const fresh = await readPageAgain();
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
})();
