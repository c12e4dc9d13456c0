/* Read aloud: the browser's own speech synthesis reads a text to everyone at the table.
 *
 * Any element marked data-read-aloud="Button label" gets a button just before it that
 * reads the element's text aloud, then pauses and resumes it. Nothing is recorded,
 * stored or fetched: the words go from the page to the device's own voice. A browser
 * without speech synthesis gets no button at all. Elements that arrive later (a live
 * update replacing part of the page) get their button too.
 */
(function () {
  "use strict";

  if (!("speechSynthesis" in window) || typeof window.SpeechSynthesisUtterance !== "function") {
    return;
  }
  var synth = window.speechSynthesis;
  var PAUSE_LABEL = "Pause reading";
  var RESUME_LABEL = "Resume reading";
  // What is being read: its text and the button that controls it. A live update may
  // replace the element and its button while it is read; the new button takes over.
  var reading = null;

  function idleLabel(button) { return button.dataset.readAloudLabel; }

  function show(button, state) {
    button.dataset.readAloudState = state;
    button.textContent =
      state === "playing" ? PAUSE_LABEL : state === "paused" ? RESUME_LABEL : idleLabel(button);
    button.setAttribute("aria-pressed", state === "idle" ? "false" : "true");
  }

  // The text as the page shows it, one utterance per paragraph: short utterances keep
  // pausing responsive, and some voices stop by themselves in the middle of long ones.
  function paragraphs(element) {
    return element.innerText.split(/\n+/).map(function (line) { return line.trim(); })
      .filter(function (line) { return line.length > 0; });
  }

  function languageOf(element) {
    var marked = element.closest("[lang]");
    return marked ? marked.getAttribute("lang") : "";
  }

  function finished(entry) {
    if (reading !== entry) return;
    reading = null;
    if (entry.button.isConnected) show(entry.button, "idle");
  }

  function start(element, button) {
    synth.cancel();
    if (reading && reading.button.isConnected) show(reading.button, "idle");
    var parts = paragraphs(element);
    if (parts.length === 0) return;
    var entry = { text: parts.join("\n"), button: button };
    reading = entry;
    parts.forEach(function (part, index) {
      var utterance = new window.SpeechSynthesisUtterance(part);
      utterance.lang = languageOf(element);
      if (index === parts.length - 1) utterance.addEventListener("end", function () { finished(entry); });
      utterance.addEventListener("error", function () { finished(entry); });
      synth.speak(utterance);
    });
    show(button, "playing");
  }

  function toggle(element, button) {
    if (!reading || reading.button !== button) {
      start(element, button);
    } else if (button.dataset.readAloudState === "paused") {
      synth.resume();
      show(button, "playing");
    } else {
      synth.pause();
      show(button, "paused");
    }
  }

  function addButton(element) {
    element.dataset.readAloudReady = "1";
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button small read-aloud";
    button.dataset.readAloudLabel = element.dataset.readAloud || "Read aloud";
    show(button, "idle");
    // A live update put back the text being read: its new button is the one that pauses.
    if (reading && !reading.button.isConnected && reading.text === paragraphs(element).join("\n")) {
      show(button, reading.button.dataset.readAloudState);
      reading.button = button;
    }
    button.addEventListener("click", function () { toggle(element, button); });
    element.parentNode.insertBefore(button, element);
  }

  function scan() {
    document.querySelectorAll("[data-read-aloud]:not([data-read-aloud-ready])").forEach(addButton);
  }

  scan();
  new MutationObserver(scan).observe(document.body, { childList: true, subtree: true });
  // Leaving the page ends the reading: it must not go on over the next page.
  window.addEventListener("pagehide", function () { synth.cancel(); });
})();
