/* Holmes table page: live updates, the notebook saved as you type, the invite Copy button.
 *
 * The websocket only says "version N exists"; the page then fetches its own live region
 * (#live) with htmx. When the socket is down the page polls the same URL with the version
 * it shows, and the server answers 204 while nothing changed. So a lost message or a
 * blocked socket never leaves a player behind, and no game data ever travels by socket.
 */
(function () {
  "use strict";

  var layout = document.querySelector(".table-layout");
  if (!layout) return;

  // On a phone the introduction starts folded, so the game is on the first screen; the
  // questions stay in view.
  var intro = document.getElementById("case-intro");
  if (intro && window.matchMedia("(max-width: 63.99rem)").matches) intro.open = false;

  var POLL_MS = 2500;
  var SAFETY_POLL_MS = 10000;  // with the socket open: a lost push is caught within this
  var MAX_BACKOFF_MS = 30000;
  // The server counts a player as at the table (no "your turn" notification) while their
  // socket pings at least every 90 s (play/presence.py).
  var PING_MS = 30000;
  var liveUrl = layout.dataset.liveUrl;
  var wsPath = layout.dataset.wsPath;
  var announcer = document.getElementById("announcer");
  var connection = document.getElementById("connection");

  function live() { return document.getElementById("live"); }
  function shownVersion() { return Number(live().dataset.version); }

  // --- Fetching the live region --------------------------------------------------------

  var fetching = false;
  var again = false;

  // The region is fetched here and swapped in by htmx.swap, not by htmx.ajax: htmx.ajax
  // picks its target when the request leaves, and an action's answer may replace that
  // region before this one comes back. Swapped into a region no longer on the page, the
  // update took the live region's hx-preserve inputs (a player's typed answers) with it, and
  // its events never reached this script. Here the region is looked up when the answer
  // is drawn.
  function refresh() {
    if (fetching || actionsPending) { again = true; return; }
    fetching = true;
    var url = liveUrl + "?since=" + shownVersion() + "&status=" + encodeURIComponent(live().dataset.status);
    fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) {
        // A lobby that became a game: the whole page is another one.
        if (response.headers.get("HX-Refresh") === "true") { window.location.reload(); return null; }
        return response.status === 200 ? response.text() : null;  // 204: nothing new
      })
      .then(function (html) { if (html) drawUpdate(html); })
      .catch(function () { /* the next push, poll or safety poll asks again */ })
      .finally(function () {
        fetching = false;
        if (again) { again = false; refresh(); }
      });
  }

  function drawUpdate(html) {
    // A control is being pressed: drawn now, the update would take it from under the press.
    if (pressing) { heldUpdate = html; return; }
    // An action's answer is on its way: it is newer than this. Ask again after it.
    if (actionsPending) { again = true; return; }
    // An answer older than what is shown would take the table back in time.
    var incoming = versionOf(html);
    if (incoming !== null && incoming < shownVersion()) return;
    var region = live();
    focusWasInLive = region.contains(document.activeElement);
    htmx.swap(region, html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
  }

  // --- A press is never redrawn away ----------------------------------------------------
  //
  // A click is a press and a release on the same control. An update drawn between the two
  // replaced the pressed button with a copy; the release on the copy made no click, and
  // the player's move was lost without a word (a finger resting on "I have finished
  // reading" while another player moved). So while a control in the region is pressed,
  // by pointer, touch or the space bar, an update that comes back waits, and is drawn just
  // after the release: after the click it makes, so a move it starts is then on its way
  // and the update waits for that move's answer instead.

  var HELD_PRESS_MS = 4000;  // a release the page never hears (outside the window) ends it
  var pressing = false;
  var heldUpdate = null;
  var pressTimer = null;

  function pressStarted(event) {
    if (!live().contains(event.target)) return;
    pressing = true;
    window.clearTimeout(pressTimer);
    pressTimer = window.setTimeout(pressEnded, HELD_PRESS_MS);
  }

  function pressEnded() {
    if (!pressing) return;
    window.clearTimeout(pressTimer);
    window.setTimeout(function () {  // after the release's click
      pressing = false;
      var html = heldUpdate;
      heldUpdate = null;
      if (html) drawUpdate(html);
    }, 0);
  }

  document.addEventListener("pointerdown", pressStarted, true);
  ["pointerup", "pointercancel"].forEach(function (name) {
    document.addEventListener(name, pressEnded, true);
  });
  window.addEventListener("blur", pressEnded);
  // The space bar clicks a button on its release (in a text box it is only a space); Enter
  // clicks at once, so it needs nothing.
  var SPACE_CLICKS = "button, summary, [role=button], input[type=checkbox], input[type=radio]";
  document.addEventListener("keydown", function (event) {
    if (event.key === " " && !event.repeat && event.target.closest(SPACE_CLICKS)) {
      pressStarted(event);
    }
  }, true);
  document.addEventListener("keyup", function (event) {
    if (event.key === " ") pressEnded();
  }, true);

  // --- Announcing turn changes ---------------------------------------------------------

  var lastAnnounce = live().dataset.announce || "";

  function afterSwap() {
    var region = live();
    // Pass and play: the device now shows another seat, or the pass screen. The whole
    // page is drawn again, so no part of the last seat's page (its notebook) stays.
    if ((region.dataset.deviceSeat || "") !== (layout.dataset.deviceSeat || "")) {
      window.location.reload();
      return;
    }
    var announce = region.dataset.announce || "";
    if (announce && announce !== lastAnnounce) {
      announcer.textContent = announce;
    }
    lastAnnounce = announce;
    notebookLock(region.dataset.canWriteNotes !== "false");
    bindCopyButtons();
    showJumpToMove();
  }

  // --- "Your move ↓": from the status line to the move, past the others' panels ---------

  var MOVE_CONTROL = "button:not(:disabled), summary, select:not(:disabled), " +
    "input:not([type=hidden]):not(:disabled), textarea:not(:disabled)";

  // The first control of the first panel (a game marks those holding the viewer's moves).
  function firstMoveControl() {
    var panels = live().querySelectorAll("[data-move-panel]");
    for (var i = 0; i < panels.length; i++) {
      var control = panels[i].querySelector(MOVE_CONTROL);
      if (control) return control;
    }
    return null;
  }

  function showJumpToMove() {
    var link = live().querySelector("[data-jump-to-move]");
    if (!link) return;
    var control = firstMoveControl();
    link.parentElement.hidden = !control;
    if (control) link.href = "#" + control.closest("[data-move-panel]").id;
  }

  document.body.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("[data-jump-to-move]");
    if (!link) return;
    var control = firstMoveControl();
    if (!control) return;  // the move is gone: the anchor still leads to the panel
    event.preventDefault();
    // The panel's heading and help in sight above the control, when they fit.
    control.focus({ preventScroll: true });
    control.closest("[data-move-panel]").scrollIntoView({ block: "start" });
    control.scrollIntoView({ block: "nearest" });
  });
  showJumpToMove();

  // --- Nothing said is lost ------------------------------------------------------------
  //
  // A refused action's sentence stays until the player acts again, whatever live update
  // arrives meanwhile. An update that redrew the region while an action's request was on
  // its way used to lose the answer: htmx swaps it into the region that sent it, by then
  // replaced. So while an action is on its way, updates wait; and the last sentence is
  // put back into every fresh region until the player acts again.

  var keptRefusal = "";
  var actionsPending = 0;
  var actionHadFocus = false;

  function isActionVerb(verb) { return (verb || "get").toLowerCase() !== "get"; }

  function isAction(detail) {
    return isActionVerb(detail.requestConfig && detail.requestConfig.verb);
  }

  function versionOf(html) {
    var match = /data-version="(\d+)"/.exec(html || "");
    return match ? Number(match[1]) : null;
  }

  function actionAnswered() {
    actionsPending = Math.max(0, actionsPending - 1);
  }

  // A refresh that waited for an action's answer. Never started from inside that
  // answer's swap: it would read the version of the region being replaced.
  function refreshIfOwed() {
    if (!actionsPending && again) { again = false; refresh(); }
  }

  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (!isAction(event.detail)) return;
    if (actionsPending) {
      // One move at a time. A second one is aimed at the region the first one's answer
      // replaces; htmx would tell its answer to a form no longer on the page, where this
      // script never hears it, and draw it into a region nobody sees.
      event.preventDefault();
      showSentence(ONE_MOVE_AT_A_TIME);  // not kept: the first move's answer replaces it
      return;
    }
    keptRefusal = "";  // the player acts again
    actionsPending += 1;
    // htmx disables the clicked button while the move is on its way, and the browser then
    // drops the focus to <body>: whether the player was in the region is known only now.
    if (live().contains(document.activeElement)) actionHadFocus = true;
  });
  ["htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.body.addEventListener(name, function (event) {
      if (isAction(event.detail)) { actionAnswered(); refreshIfOwed(); }
    });
  });

  // Keyboard users must not lose their place: if the focused control disappears in a
  // swap (a button that is no longer legal), focus the refusal or the status line.
  var focusWasInLive = false;
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!isAction(detail)) return;
    actionAnswered();
    focusWasInLive = actionHadFocus || live().contains(document.activeElement);
    if (!actionsPending && detail.shouldSwap) actionHadFocus = false;
    // A refresh the action kept waiting goes once this answer is on the page (htmx swaps
    // it right after this event), never from here.
    window.setTimeout(refreshIfOwed, 0);
  });

  // The region's refusal line, made at its top if it has none.
  function refusalLine() {
    var refusal = document.getElementById("refusal");
    if (refusal) return refusal;
    refusal = document.createElement("p");
    refusal.className = "refusal";
    refusal.id = "refusal";
    var region = live();
    region.insertBefore(refusal, region.firstChild);
    return refusal;
  }

  function keepRefusal() {
    var refusal = document.getElementById("refusal");
    if (refusal) { keptRefusal = refusal.textContent; return; }
    if (!keptRefusal) return;
    // Shown again, but not announced again (no role="alert"): it was announced when it came.
    refusalLine().textContent = keptRefusal;
  }

  // --- A move that got no answer -------------------------------------------------------
  //
  // htmx swaps only 2xx answers into the page. A move lost to a server error, a closed
  // session, a dropped connection or a server that never answered used to leave the page
  // as it was, saying nothing (and a hung request kept its button disabled for good). Now
  // the player is told in a sentence, and the page asks for the table as it stands. Moves
  // carry an idempotency key, so a move sent again after a timeout counts once.

  var ACTION_TIMEOUT_MS = 20000;

  var FAILED_ACTION = {
    network: "Your move did not reach the server: check your connection, then try again.",
    timeout: "The server took too long to answer. Here is the table as it stands: if your move is not on it, try again.",
    403: "The server refused this move: your session may have ended. Reload the page (log in again if asked).",
    429: "Too many moves in a short time: wait a moment, then try again.",
    server: "The server could not make this move. Here is the table as it stands: if your move is not on it, try again.",
  };

  var ONE_MOVE_AT_A_TIME = "Your last move is still on its way: wait for its answer, then try again.";

  function showSentence(sentence) {
    var refusal = refusalLine();
    refusal.setAttribute("role", "alert");
    refusal.textContent = sentence;
  }

  function showFailedAction(sentence) {
    keptRefusal = sentence;
    showSentence(sentence);
    if (actionHadFocus && !actionsPending) {
      // No answer to swap in: the focus the disabled button dropped goes to the sentence.
      actionHadFocus = false;
      var refusal = refusalLine();
      refusal.setAttribute("tabindex", "-1");
      refusal.focus();
    }
    refresh();
  }

  document.body.addEventListener("htmx:configRequest", function (event) {
    if (isActionVerb(event.detail.verb)) event.detail.timeout = ACTION_TIMEOUT_MS;
  });
  document.body.addEventListener("htmx:responseError", function (event) {
    if (!isAction(event.detail)) return;
    var status = event.detail.xhr.status;
    showFailedAction(FAILED_ACTION[status] || FAILED_ACTION.server);
  });
  document.body.addEventListener("htmx:sendError", function (event) {
    if (isAction(event.detail)) showFailedAction(FAILED_ACTION.network);
  });
  document.body.addEventListener("htmx:timeout", function (event) {
    if (isAction(event.detail)) showFailedAction(FAILED_ACTION.timeout);
  });

  document.body.addEventListener("htmx:afterSettle", function () {
    keepRefusal();
    afterSwap();
    var active = document.activeElement;
    if (focusWasInLive && (!active || active === document.body)) {
      var target = document.getElementById("refusal") || document.getElementById("status-turn");
      if (target) { target.setAttribute("tabindex", "-1"); focusInPlace(target); }
    }
  });

  // Focus the sentence without the browser centring it: from a move far down a phone's
  // page that took the page back to its very top (the site's header). The sentence's box
  // (the status bar) is brought to the top of the screen instead, and only when out of view.
  function focusInPlace(target) {
    target.focus({ preventScroll: true });
    var box = target.closest(".status-bar") || target;
    var rect = box.getBoundingClientRect();
    if (rect.top < 0 || rect.bottom > window.innerHeight) box.scrollIntoView({ block: "start" });
  }

  // --- The websocket, with reconnection and a polling fallback --------------------------

  var socket = null;
  var backoff = 1000;
  var pollTimer = null;
  var pingTimer = null;
  var reconnectTimer = null;

  function setConnection(state, text) {
    connection.dataset.state = state;
    connection.textContent = text;
  }

  function startPolling() {
    if (pollTimer) return;
    pollTimer = window.setInterval(refresh, POLL_MS);
  }

  function stopPolling() {
    if (!pollTimer) return;
    window.clearInterval(pollTimer);
    pollTimer = null;
  }

  function connect() {
    if (!("WebSocket" in window)) { startPolling(); return; }
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    try {
      socket = new WebSocket(scheme + window.location.host + wsPath);
    } catch (error) {
      startPolling();
      scheduleReconnect();
      return;
    }
    // A socket the server keeps is greeted with the version at once; one it refuses is
    // accepted and closed (so that the close code reaches us). Only a greeted socket is
    // live and starts the backoff afresh: a refusal to try later (1013) keeps backing off.
    var greeted = false;
    socket.addEventListener("open", function () {
      pingTimer = setInterval(function () {
        if (socket && socket.readyState === WebSocket.OPEN) socket.send('{"type": "ping"}');
      }, PING_MS);
    });
    socket.addEventListener("message", function (event) {
      if (!greeted) {
        greeted = true;
        backoff = 1000;
        stopPolling();
        setConnection("live", "Live");
      }
      var message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      // On (re)connection the server sends the current version: this is how we catch up.
      if (message.type === "version" && message.version !== shownVersion()) refresh();
    });
    socket.addEventListener("close", function (event) {
      socket = null;
      clearInterval(pingTimer);
      startPolling();
      // Not a member (4403), no such table (4404), too many sockets open here (4429): the
      // page polls instead, without retrying.
      if (event.code === 4403 || event.code === 4404 || event.code === 4429) {
        setConnection("polling", "Updating every few seconds");
        return;
      }
      setConnection("polling", "Reconnecting…");
      scheduleReconnect();
    });
  }

  function scheduleReconnect() {
    if (reconnectTimer) return;
    // Exponential backoff with jitter, so a restarted server is not stampeded.
    var delay = Math.min(backoff, MAX_BACKOFF_MS) * (0.75 + Math.random() / 2);
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    reconnectTimer = window.setTimeout(function () {
      reconnectTimer = null;
      connect();
    }, delay);
  }

  // Polling starts at once and stops when the socket opens: a blocked socket never
  // leaves the page frozen, even before the first failure is noticed.
  startPolling();
  connect();
  // A push is only a hint, and one can be lost (a socket that joined its table's group a
  // moment after the push went out): while the socket is open, the page still asks now
  // and then, which costs one 204 while nothing changed.
  window.setInterval(function () {
    if (socket && document.visibilityState === "visible") refresh();
  }, SAFETY_POLL_MS);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") refresh();
  });

  // --- The notebook, saved as you type ---------------------------------------------------

  var notebookForm = document.getElementById("notebook-form");
  var notebookText = document.getElementById("notebook-text");
  var notebookStatus = document.getElementById("notebook-status");
  var saveTimer = null;
  var savedText = notebookText ? notebookText.value : "";
  var saving = false;

  function notebookLock(canWrite) {
    if (!notebookText) return;
    notebookText.readOnly = !canWrite;
    document.getElementById("notebook-locked").hidden = canWrite;
  }

  function saveNotebook() {
    if (!notebookText || notebookText.readOnly) return;
    var text = notebookText.value;
    if (text === savedText) return;
    if (saving) { scheduleSave(); return; }
    saving = true;
    notebookStatus.textContent = "Saving…";
    fetch(notebookForm.action, {
      method: "POST",
      body: new FormData(notebookForm),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    })
      .then(function (response) { return response.json().then(function (body) { return [response.ok, body]; }); })
      .then(function (result) {
        if (result[0]) {
          savedText = text;
          notebookStatus.textContent = "Saved";
        } else {
          notebookStatus.textContent = result[1].error || "Not saved.";
        }
      })
      .catch(function () { notebookStatus.textContent = "Not saved: no connection. It will retry."; scheduleSave(); })
      .finally(function () { saving = false; });
  }

  function scheduleSave() {
    window.clearTimeout(saveTimer);
    saveTimer = window.setTimeout(saveNotebook, 700);
  }

  if (notebookForm) {
    document.getElementById("notebook-save").hidden = true; // saved as you type
    notebookText.addEventListener("input", function () {
      notebookStatus.textContent = "Unsaved changes…";
      scheduleSave();
    });
    notebookText.addEventListener("blur", saveNotebook);
    notebookForm.addEventListener("submit", function (event) { event.preventDefault(); saveNotebook(); });
    notebookLock(live().dataset.canWriteNotes !== "false");
  }

  // --- Copy the invite link (Clipboard API, with a fallback) -----------------------------

  function bindCopyButtons() {
    document.querySelectorAll("[data-copy-target]").forEach(function (button) {
      if (button.dataset.bound) return;
      button.dataset.bound = "1";
      button.addEventListener("click", function () {
        var input = document.getElementById(button.dataset.copyTarget);
        var status = document.getElementById("copy-status");
        function fallback() {
          input.focus();
          input.select();
          var copied = false;
          try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
          status.textContent = copied ? "Link copied." : "Press Ctrl+C (or ⌘C) to copy the selected link.";
        }
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(input.value).then(function () {
            status.textContent = "Link copied.";
          }, fallback);
        } else {
          fallback();
        }
      });
    });
  }
  bindCopyButtons();
  // The turn timer: count down to the deadline the server set. When it passes, the
  // server plays the game's timeout and pushes the new version like any move.
  function tickCountdowns() {
    document.querySelectorAll("time.countdown[data-deadline]").forEach(function (element) {
      var left = Math.max(0, Math.round((Date.parse(element.dataset.deadline) - Date.now()) / 1000));
      var minutes = Math.floor(left / 60);
      var seconds = left % 60;
      element.textContent = minutes ? minutes + " min " + (seconds < 10 ? "0" : "") + seconds + " s" : seconds + " s";
      element.closest(".turn-timer").classList.toggle("is-urgent", left <= 10);
    });
  }
  tickCountdowns();
  setInterval(tickCountdowns, 1000);
})();
