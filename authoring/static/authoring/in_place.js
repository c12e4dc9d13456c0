// Sending a form in place, for the pages where leaving would lose typed text: the case
// editor (editor.js, threads.js) and the review page (review.js). Each of those scripts
// decides what to draw again and where focus lands; this one holds what they share: the
// background POST, the page read again from the server, and the status line that says
// what happened. Loaded before them; it only defines window.HolmesInPlace.
(function () {
  "use strict";

  // Posts data to action in the background. The header asks the view for a JSON answer
  // rather than a redirect; the CSRF token travels in the form's own data. The button is
  // held down while the request travels and let go on a refusal, so that it can be tried
  // again. Resolves to {sent, message}; a refusal's message is never empty.
  async function sendInPlace(action, data, button) {
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
      sent = Boolean(response.ok && answer.done);
    } catch (error) {
      answer = { message: "Not sent: the site cannot be reached. Your text is still here." };
    }
    if (sent) return { sent: true, message: answer.message };
    if (button) button.disabled = false;
    return { sent: false, message: answer.message || "Not sent: try again." };
  }

  // The page as the server now draws it, parsed, or null when it cannot be read: the
  // caller then says so rather than draw anything stale.
  async function readPageAgain() {
    try {
      const page = await fetch(location.pathname + location.search, { credentials: "same-origin" });
      return new DOMParser().parseFromString(await page.text(), "text/html");
    } catch (error) {
      return null;
    }
  }

  // One status line at the top of where, made once and then reworded: a screen reader
  // hears each outcome, and repeated actions do not pile lines up.
  function tell(where, text) {
    if (!where) return;
    let note = where.querySelector(":scope > .holmes-in-place-status");
    if (!note) {
      note = document.createElement("p");
      note.className = "holmes-in-place-status";
      note.setAttribute("role", "status");
      where.prepend(note);
    }
    note.textContent = text;
  }

  window.HolmesInPlace = { sendInPlace: sendInPlace, readPageAgain: readPageAgain, tell: tell };
})();
