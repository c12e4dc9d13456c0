/* The case editor's help for long cases, on top of Django's admin form (which works
   without it): folded cards with an index, fields that do not apply hidden, a live
   Markdown preview rendered by the server, a warning before leaving unsaved changes,
   and autosave of the changes that can be saved safely in the background. */
(function () {
  "use strict";

  const editor = document.getElementById("holmes-editor");
  const form = document.getElementById("caseversion_form");
  if (!editor || !form) return;
  const { sendInPlace, readPageAgain, tell } = window.HolmesInPlace;

  // --- Folded cards -----------------------------------------------------------------------

  // Open the folds around a target, and the card's own fold when the target is its row.
  function openAround(target) {
    for (let node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    const own = target.querySelector(":scope > details.holmes-card");
    if (own) own.open = true;
  }

  function openHashTarget() {
    if (!location.hash) return;
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) {
      openAround(target);
      target.scrollIntoView({ block: "center" });
      if (target.matches("input, textarea, select")) target.focus({ preventScroll: true });
    }
  }

  // A jump link (the card index, the lint report) opens the folded card it points into.
  document.addEventListener("click", function (event) {
    const link = event.target.closest("a[href^='#']");
    if (!link || link.getAttribute("href").length < 2) return;
    const target = document.getElementById(decodeURIComponent(link.getAttribute("href").slice(1)));
    if (target) openAround(target);
  });
  window.addEventListener("hashchange", openHashTarget);
  openHashTarget();

  // A refusal after Save is never folded away out of sight.
  form.querySelectorAll(".errorlist, .errornote").forEach(openAround);

  document.querySelectorAll("[data-cards]").forEach(function (button) {
    button.addEventListener("click", function () {
      const open = button.dataset.cards === "open";
      const group = document.getElementById(button.dataset.cardsIn + "-group") || document;
      group.querySelectorAll("details.holmes-card").forEach(function (card) {
        if (!card.closest(".empty-form")) card.open = open;
      });
    });
  });

  // Whatever else lands in a row (an answer tester, a comment's thread or button, put
  // there by another script) goes into the row's fold: a folded row stays one line.
  function foldInto(row) {
    const fold = row.querySelector(":scope > details.holmes-card");
    if (!fold) return;
    Array.from(row.children).forEach(function (child) {
      if (child !== fold && !child.classList.contains("holmes-card-delete")) fold.appendChild(child);
    });
  }
  const rows = new MutationObserver(function (changes) {
    changes.forEach(function (change) { foldInto(change.target); });
  });
  document.querySelectorAll(".holmes-cards .inline-related").forEach(function (row) {
    foldInto(row);
    rows.observe(row, { childList: true });
  });

  // --- Fields that do not apply ------------------------------------------------------------

  // "Carriages" only means something on a card with the carriages icon.
  function showCarriagesWhereTheyApply() {
    document.querySelectorAll(".holmes-cards .inline-related").forEach(function (row) {
      const icon = row.querySelector("input[type=checkbox][value=carriages]");
      const field = row.querySelector(".field-carriages");
      if (!icon || !field) return;
      const input = field.querySelector("input");
      field.hidden = !icon.checked && !(input && input.value);
    });
  }
  form.addEventListener("change", function (event) {
    if (event.target.matches("input[type=checkbox][value=carriages]")) showCarriagesWhereTheyApply();
  });
  document.addEventListener("formset:added", showCarriagesWhereTheyApply);
  showCarriagesWhereTheyApply();

  // --- Live Markdown preview -----------------------------------------------------------------

  const previewUrl = editor.dataset.previewUrl;
  const csrfToken = form.querySelector("[name=csrfmiddlewaretoken]").value;

  function attachPreview(textarea) {
    if (textarea.dataset.previewAttached || textarea.name.includes("__prefix__")) return;
    textarea.dataset.previewAttached = "1";
    const pane = document.createElement("div");
    pane.className = "holmes-live-preview prose";
    pane.id = textarea.id + "_live_preview";
    pane.setAttribute("aria-live", "polite");
    // A region of its own, named after its field, that the keyboard can focus: a long
    // preview scrolls, and a keyboard scrolls only what it can focus.
    const label = document.querySelector('label[for="' + textarea.id + '"]');
    const card = textarea.closest(".inline-related");
    const heading = card && card.querySelector("summary h3");
    const names = [heading, label].map((node) => (node ? node.textContent : ""));
    const field = names.map((name) => name.replace(/:\s*$/, "").replace(/\s+/g, " ").trim());
    pane.setAttribute("role", "region");
    pane.setAttribute("tabindex", "0");
    pane.setAttribute("aria-label", field.filter(Boolean).concat("preview as players see it").join(", "));
    const pair = document.createElement("div");
    pair.className = "holmes-text-and-preview";
    textarea.parentNode.insertBefore(pair, textarea);
    pair.appendChild(textarea);
    pair.appendChild(pane);
    let timer = null;
    let asked = 0;
    async function render() {
      const ticket = ++asked;
      const body = new URLSearchParams({ text: textarea.value });
      try {
        const response = await fetch(previewUrl, {
          method: "POST",
          headers: { "X-CSRFToken": csrfToken },
          body: body,
          credentials: "same-origin",
        });
        const data = await response.json();
        if (ticket !== asked) return; // a later keystroke's preview is on its way
        // The server renders through the same sanitiser as the players' pages.
        pane.innerHTML = response.ok ? data.html : "";
        if (!response.ok) pane.textContent = data.error || "The preview is not available.";
      } catch (error) {
        if (ticket === asked) pane.textContent = "The preview is not available (offline?).";
      }
    }
    textarea.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(render, 300);
    });
    render();
  }
  function attachPreviews() {
    form.querySelectorAll("textarea[data-markdown]").forEach(attachPreview);
  }
  form.classList.add("holmes-live");
  attachPreviews();
  document.addEventListener("formset:added", attachPreviews);

  // --- Unsaved changes -----------------------------------------------------------------------

  // The field the writer is in, for Save and continue to come back to (the server adds it
  // to the address it sends the writer back to).
  const returnTo = document.getElementById("holmes-return-to");
  form.addEventListener("focusin", function (event) {
    const field = event.target;
    if (returnTo && field.id && field.matches("input:not([type=hidden]), textarea, select")) {
      returnTo.value = field.id;
    }
  });

  function snapshot() {
    const data = new FormData(form);
    data.delete("csrfmiddlewaretoken");
    data.delete("_return_to");
    return new URLSearchParams(data).toString();
  }
  let saved = snapshot();
  let submitting = false;
  const isDirty = function () { return snapshot() !== saved; };
  form.addEventListener("submit", function () { submitting = true; });
  window.addEventListener("beforeunload", function (event) {
    if (!submitting && isDirty()) {
      event.preventDefault();
      event.returnValue = "";
    }
  });

  // The workflow's buttons (submit, new draft, play-test) act on the saved case and leave
  // the page: with unsaved changes they wait, and say so, rather than lose them.
  document.querySelectorAll("#workflow form").forEach(function (step) {
    step.addEventListener("submit", function (event) {
      if (!isDirty()) return;
      event.preventDefault();
      tell(
        document.getElementById("workflow"),
        "You have unsaved changes: press Save first, then this button (it acts on the saved case)."
      );
    });
  });

  // --- Comment threads, answered in place ---------------------------------------------------

  // A thread's forms (reply, resolve, reopen) post in the background: leaving the page
  // would lose the writer's unsaved edits. The comments panel is then drawn again from the
  // server; any other reply box's text is carried into the new panel.
  document.addEventListener("submit", async function (event) {
    const threadForm = event.target.closest(".holmes-thread form");
    const panel = document.getElementById("review-comments");
    if (!threadForm || !panel || !panel.contains(threadForm)) return;
    event.preventDefault();
    const button = threadForm.querySelector("button[type=submit]");
    const result = await sendInPlace(threadForm.action, new FormData(threadForm), button);
    if (!result.sent) {
      tell(threadForm.closest(".holmes-thread"), result.message);
      return;
    }
    const typed = {};
    panel.querySelectorAll("textarea").forEach(function (box) {
      if (box.value && !threadForm.contains(box)) typed[box.id] = box.value;
    });
    const page = await readPageAgain();
    const fresh = page ? page.getElementById("review-comments") : null;
    const current = document.getElementById("review-comments");
    if (fresh) {
      Object.keys(typed).forEach(function (id) {
        const box = fresh.querySelector("#" + CSS.escape(id));
        if (box) box.value = typed[id];
      });
      current.replaceWith(fresh);
      tell(fresh, result.message);
    } else {
      // Sent, but the panel could not be fetched again: say so, and keep the page as it is.
      const box = threadForm.querySelector("textarea");
      if (box) box.value = "";
      if (button) button.disabled = false;
      tell(current, result.message + " Reload the page to see the thread.");
    }
  });

  // --- Autosave ------------------------------------------------------------------------------

  const status = document.getElementById("autosave-status");
  const AUTOSAVE_SECONDS = Number(editor.dataset.autosaveSeconds || 20);

  // What can be saved in the background: changes to what the page already holds. New or
  // removed rows and renumbered cards change the page itself (ids, rewritten [[n]]
  // references), so those wait for the Save button, which reloads the page.
  function whyNotInBackground() {
    for (const total of form.querySelectorAll("input[name$='-TOTAL_FORMS']")) {
      const prefix = total.name.slice(0, -"-TOTAL_FORMS".length);
      const initial = form.querySelector(`input[name='${prefix}-INITIAL_FORMS']`);
      if (initial && Number(total.value) > Number(initial.value)) {
        return "New rows are saved when you press Save.";
      }
    }
    if (form.querySelector("input[name$='-DELETE']:checked")) {
      return "Deletions are saved when you press Save.";
    }
    for (const input of form.querySelectorAll("input[name^='locations-'][name$='-number']")) {
      if (input.defaultValue && input.value !== input.defaultValue) {
        return "Renumbered cards are saved when you press Save.";
      }
    }
    return "";
  }

  function say(text) {
    if (status) status.textContent = text;
  }

  async function autosave() {
    if (submitting || !isDirty()) return;
    const reason = whyNotInBackground();
    if (reason) {
      say("Unsaved changes. " + reason);
      return;
    }
    const sent = snapshot();
    const data = new FormData(form);
    data.set("_continue", "1");
    try {
      const response = await fetch(form.action || location.href, {
        method: "POST",
        body: data,
        headers: { "X-Holmes-Autosave": "1" },
        credentials: "same-origin",
      });
      const answer = await response.json().catch(function () { return {}; });
      if (response.ok && answer.saved) {
        saved = sent;
        say("Saved automatically at " + answer.at + ". The linter's report updates when you press Save.");
      } else {
        say(answer.message || "Not saved automatically: press Save to see why.");
      }
    } catch (error) {
      say("Not saved automatically: the site cannot be reached. Your changes are still on this page.");
    }
  }
  if (editor.dataset.autosave === "1") {
    setInterval(autosave, AUTOSAVE_SECONDS * 1000);
  }
  form.addEventListener("input", function () { say("Unsaved changes."); });
})();
