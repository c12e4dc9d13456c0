/* The case editor's answer tester (authoring/templates/admin/cases/caseversion/_answer_tester.html).

   Each question gets a box to try an answer: it is judged on the server by the game's own
   judge, against the question's fields as they are on the page (saved or not), and the
   verdict is announced. Under it, the forms players gave, each accepted or rejected in
   one click: that is saved at once, and the same line is put in the fields on the page,
   so that the next Save keeps it. Nothing here leaves the page or submits the editor. */
(function () {
  "use strict";
  const form = document.querySelector("#caseversion_form") || document.querySelector("form[method=post]");
  const testers = document.querySelectorAll(".holmes-tester");
  const forNewQuestions = document.getElementById("answer-tester-new");
  if (!form || !(testers.length || forNewQuestions)) return;
  const KEY_FIELDS = ["kind", "answer", "accept", "reject", "ask"];

  function csrfToken() {
    const input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  // The question's row of the editor: the inline whose hidden id is the question's.
  function rowPrefix(questionId) {
    for (const input of form.querySelectorAll("input[name^='questions-'][name$='-id']")) {
      if (input.value === questionId) return input.name.slice(0, -"-id".length);
    }
    return null;
  }

  function field(prefix, name) {
    if (!prefix) return null;
    const element = form.elements.namedItem(prefix + "-" + name);
    return element && "value" in element ? element : null;
  }

  // Under the question's fields, inside its fold when the list folds its rows: the
  // tester opens and closes with its question.
  function placeBesideQuestion(section) {
    const prefix = rowPrefix(section.dataset.questionId);
    const idInput = prefix && form.elements.namedItem(prefix + "-id");
    const row = idInput && idInput.closest(".inline-related");
    if (row) {
      const fold = Array.from(row.children).find(function (child) { return child.tagName === "DETAILS"; });
      (fold || row).appendChild(section);
    }
    section.dataset.prefix = prefix || "";
  }

  async function post(url, data) {
    let response;
    try {
      response = await fetch(url, {
        method: "POST",
        body: data,
        headers: { "X-CSRFToken": csrfToken() },
        credentials: "same-origin",
      });
    } catch (error) {
      throw new Error("The site cannot be reached: try again in a moment.");
    }
    const answer = await response.json().catch(function () { return {}; });
    if (!response.ok) throw new Error(answer.error || "The site could not judge it: try again.");
    return answer;
  }

  // Judge answers against the question's fields as they are now.
  function judge(section, answers) {
    const data = new FormData();
    const prefix = section.dataset.prefix;
    KEY_FIELDS.forEach(function (name) {
      const element = field(prefix, name);
      if (element) data.append(name, element.value);
    });
    answers.forEach(function (text) { data.append("given", text); });
    return post(section.dataset.tryUrl, data).then(function (answer) { return answer.verdicts; });
  }

  function say(where, text, outcome) {
    // Emptied first, so the same verdict twice is announced twice.
    where.textContent = "";
    where.className = where.className.replace(/\s*holmes-verdict-\w+/g, "");
    window.setTimeout(function () {
      where.textContent = text;
      if (outcome) where.classList.add("holmes-verdict-" + outcome);
    }, 50);
  }

  async function tryTyped(section) {
    const box = section.querySelector(".holmes-tester-try input");
    const verdict = section.querySelector(".holmes-tester-verdict");
    if (!box.value.trim()) {
      say(verdict, "Type an answer to try.");
      box.focus();
      return;
    }
    try {
      const [judged] = await judge(section, [box.value]);
      say(verdict, judged.sentence, judged.outcome);
    } catch (error) {
      say(verdict, error.message);
    }
  }

  function lines(text) {
    return text.split("\n").map(function (line) { return line.trim(); }).filter(Boolean);
  }

  // The decided form in the fields on the page, as the server put it in the saved question.
  function mirror(section, decided, decision) {
    const prefix = section.dataset.prefix;
    const add = field(prefix, decision);
    const drop = field(prefix, decision === "accept" ? "reject" : "accept");
    const same = function (line) { return line.toLowerCase() === decided.toLowerCase(); };
    const answer = field(prefix, "answer");
    const isAnswer = answer && same(answer.value.trim());
    if (add && !lines(add.value).some(same) && !(decision === "accept" && isAnswer)) {
      add.value = lines(add.value).concat([decided]).join("\n");
      add.dispatchEvent(new Event("input", { bubbles: true }));
    }
    if (drop && lines(drop.value).some(same)) {
      drop.value = lines(drop.value).filter(function (line) { return !same(line); }).join("\n");
      drop.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }

  async function rejudgeGiven(section) {
    const items = Array.from(section.querySelectorAll(".holmes-given"));
    if (!items.length) return;
    const verdicts = await judge(section, items.map(function (item) { return item.dataset.form; }));
    items.forEach(function (item, index) {
      const judged = verdicts[index];
      item.className = item.className.replace(/\s*holmes-verdict-\w+/g, "") + " holmes-verdict-" + judged.outcome;
      item.querySelector("[data-verdict]").textContent = judged.sentence;
    });
  }

  async function decide(section, button) {
    if (button.getAttribute("aria-disabled") === "true") return;  // a click in flight
    const item = button.closest(".holmes-given");
    const status = section.querySelector(".holmes-tester-decided");
    const data = new FormData();
    data.append("form", item.dataset.form);
    data.append("decision", button.dataset.decide);
    // Not `disabled`: the button keeps the focus while the click is in flight.
    button.setAttribute("aria-disabled", "true");
    try {
      const answer = await post(section.dataset.decideUrl, data);
      mirror(section, answer.form, button.dataset.decide);
      await rejudgeGiven(section);
      say(status, answer.message + " Now: " + item.querySelector("[data-verdict]").textContent);
    } catch (error) {
      say(status, error.message);
    } finally {
      button.removeAttribute("aria-disabled");
    }
  }

  function wire(section) {
    // Typing a try changes nothing of the case: the editor must not call it unsaved.
    ["input", "change"].forEach(function (type) {
      section.addEventListener(type, function (event) { event.stopPropagation(); });
    });
    const box = section.querySelector(".holmes-tester-try input");
    box.addEventListener("keydown", function (event) {
      // Enter judges the answer; it must not submit the editor's form.
      if (event.key === "Enter") {
        event.preventDefault();
        tryTyped(section);
      }
    });
    section.querySelector("[data-tester-try]").addEventListener("click", function () {
      tryTyped(section);
    });
    section.addEventListener("click", function (event) {
      const button = event.target.closest("[data-decide]");
      if (button) decide(section, button);
    });
  }

  testers.forEach(function (section) {
    placeBesideQuestion(section);
    wire(section);
  });

  // A question added with "Add another Question" gets a tester too, judged through its
  // version (it has no id until it is saved).
  document.addEventListener("formset:added", function (event) {
    if (!forNewQuestions || !event.detail || event.detail.formsetName !== "questions") return;
    const row = event.target;
    const prefix = row.id;
    const section = forNewQuestions.content.firstElementChild.cloneNode(true);
    const id = "tester-" + prefix;
    section.id = id;
    section.dataset.prefix = prefix;
    section.dataset.tryUrl = forNewQuestions.dataset.tryUrl;
    section.setAttribute("aria-labelledby", id + "-title");
    section.querySelector("[data-title]").id = id + "-title";
    section.querySelector(".help").id = id + "-how";
    const box = section.querySelector(".holmes-tester-try input");
    box.id = id + "-given";
    box.setAttribute("aria-describedby", id + "-how");
    section.querySelector(".holmes-tester-try label").htmlFor = box.id;
    const fold = Array.from(row.children).find(function (child) { return child.tagName === "DETAILS"; });
    (fold || row).appendChild(section);
    wire(section);
  });
})();
