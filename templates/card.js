/* nca-anki multiple-choice card script. Included by front.html and back.html.

   The card is complete without this script (choices in a fixed, balanced order; the
   answer named and marked on the back). With it, the learner picks on the front, the
   choices are shuffled on every review, and the back shows a verdict. How the clients
   show cards, and why this script is written the way it is: docs/card.md.

   Rules kept here (docs/card.md explains each):
   - Everything in one function call, declared with var only (Anki desktop runs card
     scripts again on one page and a second declaration would throw).
   - State crosses the flip in sessionStorage (AnkiDroid loads the back as a new page)
     with a window variable as fallback, in one slot keyed by card and review.
   - A pick is saved on pointer-down, before any client can flip the card.
   - No Anki field markers (two opening braces) anywhere in this file: Anki would read
     them as fields.
*/
window.NcaMcq = (function () {
  "use strict";
  var VERSION = "nca-mcq-3";  /* the card code's version: bump when the state changes shape */
  var SLOT = "nca-anki:mcq";
  var BACK_GRACE_MS = 10 * 60 * 1000;  /* a back shown again within this time keeps the pick */
  var LABELS = "ABCDEFGHIJ";
  /* Keys: Alt (Option on a Mac) with a digit picks the choice in that place. Measured in
     the real Anki desktop app (tests/test_desktop_app.py, docs/card.md "Keys"): Anki binds
     the digits 1-7 and most letters (A add, B browse, D decks, E edit, I info, ...), which
     never reach the card, and no Alt+digit, which does. The digit is read from the key's
     place (event.code), since Option+2 types "™" on a Mac. */
  var KEY_NAME = /Mac|iPhone|iPad/.test(navigator.platform || "") ? "Option" : "Alt";

  function findRoot(side) {
    var script = document.currentScript;
    var root = script && script.closest ? script.closest(".nca-card") : null;
    if (root) return root;
    var all = document.querySelectorAll(".nca-card.nca-" + side);
    return all.length ? all[all.length - 1] : null;
  }

  function textOf(node) {
    return node ? (node.textContent || "").replace(/\s+/g, " ").trim() : "";
  }

  /* FNV-1a over the card's visible question: which card a saved state belongs to. */
  function cardKey(root, items) {
    var text = textOf(root.querySelector(".nca-prompt"));
    for (var i = 0; i < items.length; i++) text += "\u001f" + textOf(items[i].querySelector(".nca-text"));
    var hash = 0x811c9dc5;
    for (var j = 0; j < text.length; j++) {
      hash ^= text.charCodeAt(j);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return VERSION + ":" + hash.toString(16) + ":" + items.length;
  }

  function load() {
    var raw = null;
    try { raw = window.sessionStorage.getItem(SLOT); } catch (e) { raw = null; }
    if (raw === null && typeof window.__ncaMcqState === "string") raw = window.__ncaMcqState;
    try { return raw ? JSON.parse(raw) : null; } catch (e) { return null; }
  }

  function save(state) {
    var raw = JSON.stringify(state);
    window.__ncaMcqState = raw;
    try { window.sessionStorage.setItem(SLOT, raw); } catch (e) {
      try { window.sessionStorage.removeItem(SLOT); } catch (e2) { /* no storage at all */ }
    }
  }

  function forget() {
    window.__ncaMcqState = null;
    try { window.sessionStorage.removeItem(SLOT); } catch (e) { /* nothing stored */ }
  }

  /* A uniform random integer in [0, n): rejection sampling, no modulo bias. */
  function randomBelow(n) {
    var cryptoObj = window.crypto || window.msCrypto;
    if (cryptoObj && cryptoObj.getRandomValues) {
      var limit = Math.floor(4294967296 / n) * n;
      var buffer = new Uint32Array(1);
      do { cryptoObj.getRandomValues(buffer); } while (buffer[0] >= limit);
      return buffer[0] % n;
    }
    return Math.floor(Math.random() * n);
  }

  /* Fisher–Yates over the movable places; pinned choices keep theirs. */
  function shuffledOrder(items, list) {
    var order = [];
    for (var i = 0; i < items.length; i++) order.push(i);
    if (list.getAttribute("data-nca-shuffle") !== "yes") return order;
    var places = [];
    for (var k = 0; k < items.length; k++) {
      if (!items[k].hasAttribute("data-nca-pinned")) places.push(k);
    }
    for (var m = places.length - 1; m > 0; m--) {
      var r = randomBelow(m + 1);
      var a = order[places[m]];
      order[places[m]] = order[places[r]];
      order[places[r]] = a;
    }
    return order;
  }

  function isOrder(order, n) {
    if (!Array.isArray(order) || order.length !== n) return false;
    var seen = {};
    for (var i = 0; i < n; i++) {
      var v = order[i];
      if (typeof v !== "number" || v < 0 || v >= n || v % 1 !== 0 || seen[v]) return false;
      seen[v] = true;
    }
    return true;
  }

  /* How many answers to pick: 0 for a question with one answer (a radio group), else a
     group of checkboxes (render.py writes data-nca-choose). */
  function chooseCount(list) {
    var n = Number(list.getAttribute("data-nca-choose"));
    return n > 1 && n % 1 === 0 ? n : 0;
  }

  /* "B", "B and D", "A, C and D": as render.py writes the Answer field. */
  function joined(letters) {
    if (letters.length < 2) return letters.join("");
    return letters.slice(0, -1).join(", ") + " and " + letters[letters.length - 1];
  }

  /* Put the choices in display order, label them A, B, C… as shown, make them a radio
     group (one answer) or a group of checkboxes (several). Returns the items in display
     order. */
  function lay(list, items, order, side) {
    var several = chooseCount(list) > 0;
    var shown = [];
    for (var i = 0; i < order.length; i++) {
      var item = items[order[i]];
      list.appendChild(item);
      var label = item.querySelector(".nca-label");
      if (label) label.textContent = LABELS.charAt(i);
      item.setAttribute("role", several ? "checkbox" : "radio");
      /* AnkiMobile passes a tap to the card only on links, buttons, elements with an
         onclick handler or the class "tappable" (its manual, "Javascript"); elsewhere a
         tap is its own (it may show the answer). */
      item.classList.add("tappable");
      item.setAttribute("aria-checked", "false");
      item.setAttribute("data-nca-position", String(i));
      shown.push(item);
    }
    list.setAttribute("role", several ? "group" : "radiogroup");
    list.setAttribute("aria-label", side !== "front" ? "Choices" : several ?
      "Choose " + chooseCount(list) + " answers" : "Choose an answer");
    if (side === "back") list.setAttribute("aria-readonly", "true");
    return shown;
  }

  function check(shown, positions) {
    for (var i = 0; i < shown.length; i++) {
      var on = positions.indexOf(i) >= 0;
      shown[i].setAttribute("aria-checked", on ? "true" : "false");
      shown[i].classList.toggle("nca-picked", on);
    }
  }

  function front(root) {
    var list = root.querySelector(".nca-choice-list");
    if (!list) return;
    var items = Array.prototype.slice.call(list.children);
    var order = shuffledOrder(items, list);
    var choose = chooseCount(list);
    var flipOnPick = list.getAttribute("data-nca-flip") === "pick";  /* nca-anki.toml */
    var state = {
      v: VERSION, card: cardKey(root, items), order: order, picks: [],
      review: Date.now().toString(36) + "-" + randomBelow(2176782336).toString(36), back: 0
    };
    save(state);
    var shown = lay(list, items, order, "front");
    root.classList.add("nca-js");
    var hint = root.querySelector(".nca-hint");
    if (hint) {
      hint.textContent = hintText(choose, shown.length) +
        (flipOnPick ? " Picking shows the answer." : "");
      hint.hidden = false;
    }
    var count = root.querySelector(".nca-choose");

    /* One answer: a pick replaces the last. Several: a pick toggles that choice. */
    function pick(position) {
      if (position < 0 || position >= shown.length || !root.isConnected) return;
      var source = order[position];
      var at = state.picks.indexOf(source);
      if (!choose) state.picks = [source];
      else if (at >= 0) state.picks.splice(at, 1);
      else state.picks.push(source);
      save(state);  /* at once: a flip may follow this very event */
      check(shown, state.picks.map(function (s) { return order.indexOf(s); }));
      if (choose && count) {
        count.textContent = "Choose " + choose + " answers." +
          (state.picks.length ? " " + state.picks.length + " picked." : "");
      }
      if (flipOnPick && state.picks.length === (choose || 1)) {
        window.setTimeout(flip, 250);  /* long enough to see the pick marked */
      }
    }

    /* Show the answer the way the client documents: Anki desktop's pycmd("ans"), AnkiDroid's
       showAnswer() (its JavaScript API). Elsewhere (AnkiMobile, a previewer) nothing
       happens and the learner flips as usual. */
    function flip() {
      if (!root.isConnected) return;  /* flipped already, or another card */
      try {
        if (typeof window.pycmd === "function") window.pycmd("ans");
        else if (typeof window.showAnswer === "function") window.showAnswer();
      } catch (e) { /* the learner flips */ }
    }
    /* One tap arrives as several events (pointer or touch down, an emulated mouse down,
       then a click): it picks once, on the first, and the rest of it is ignored, so a
       choice of several toggles once per tap. A click with no down before it (assistive
       technology) picks. */
    var down = null, downAt = 0;
    function onPointer(event) {
      if (event.type === "mousedown" && event.button !== 0) return;
      if (event.type === "pointerdown" && (!event.isPrimary || event.button > 0)) return;
      var item = event.target.closest ? event.target.closest("[data-nca-position]") : null;
      if (!item || !list.contains(item)) return;
      var now = Date.now();
      if (event.type === "click") {
        var same = item === down && now - downAt < 10000;
        down = null;
        if (same) return;
      } else if (item === down && now - downAt < 1000) {
        return;
      } else {
        down = item;
        downAt = now;
      }
      pick(Number(item.getAttribute("data-nca-position")));
    }
    if (window.PointerEvent) {
      list.addEventListener("pointerdown", onPointer);
    } else {
      list.addEventListener("touchstart", onPointer, { passive: true });
      list.addEventListener("mousedown", onPointer);
    }
    list.addEventListener("click", onPointer);  /* keyboard activation, assistive tech */

    /* One key handler per page: Anki desktop keeps the page from card to card. */
    if (window.__ncaMcqKeys) document.removeEventListener("keydown", window.__ncaMcqKeys);
    window.__ncaMcqKeys = function (event) {
      if (!root.isConnected || !event.altKey || event.ctrlKey || event.metaKey) return;
      var target = event.target;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      var digit = /^(?:Digit|Numpad)([1-9])$/.exec(event.code || "");
      var position = digit ? Number(digit[1]) - 1 : -1;
      if (position >= 0 && position < shown.length) {
        event.preventDefault();  /* no menu mnemonic, no typed character */
        pick(position);
      }
    };
    document.addEventListener("keydown", window.__ncaMcqKeys);
  }

  /* What works where the card is shown: a touch screen (no hover, a coarse pointer) is
     tapped; elsewhere a choice is clicked or picked with Alt and its number. */
  function hintText(choose, count) {
    var touch = window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)").matches;
    var keys = KEY_NAME + "+1" + (count > 1 ? "\u2013" + count : "");
    if (choose) {
      return touch ? "Tap choices to pick or unpick them." :
        "Click choices, or press " + keys + ", to pick or unpick them.";
    }
    return touch ? "Choose: tap a choice." : "Choose: click a choice or press " + keys + ".";
  }

  function mark(item, text, kind) {
    var badge = document.createElement("span");
    badge.className = "nca-mark nca-mark-" + kind;
    badge.textContent = text;
    (item.querySelector(".nca-text") || item).appendChild(badge);
  }

  /* The saved picks, if they are a list of distinct choices of this card. */
  function picksOf(state, n) {
    if (!state || !Array.isArray(state.picks)) return [];
    var seen = {};
    var picks = [];
    for (var i = 0; i < state.picks.length; i++) {
      var v = state.picks[i];
      if (typeof v !== "number" || v < 0 || v >= n || v % 1 !== 0 || seen[v]) return [];
      seen[v] = true;
      picks.push(v);
    }
    return picks;
  }

  function back(root) {
    var list = root.querySelector(".nca-choice-list");
    var box = root.querySelector(".nca-choices");
    var verdict = root.querySelector(".nca-verdict");
    if (!list || !box || !verdict) return;
    var items = Array.prototype.slice.call(list.children);
    var correct = [];
    var letters = (box.getAttribute("data-answer") || "").match(/[A-J]/g) || [];
    for (var i = 0; i < letters.length; i++) {
      var index = LABELS.indexOf(letters[i]);
      if (index < items.length && correct.indexOf(index) < 0) correct.push(index);
    }
    if (!correct.length) return;  /* leave the static card as it is */
    var several = chooseCount(list) > 0 || correct.length > 1;

    var state = load();
    var now = Date.now();
    var fresh = state && state.v === VERSION && state.card === cardKey(root, items) &&
      isOrder(state.order, items.length) && (!state.back || now - state.back < BACK_GRACE_MS);
    var order = fresh ? state.order : items.map(function (_, k) { return k; });
    var picks = fresh ? picksOf(state, items.length) : [];
    if (fresh && !state.back) {
      state.back = now;
      save(state);
    }

    var shown = lay(list, items, order, "back");
    root.classList.add("nca-js");
    var answers = [], right = [], missed = [], wrong = [], chosen = [];
    for (var p = 0; p < shown.length; p++) {
      var source = order[p];
      var letter = LABELS.charAt(p);
      var isCorrect = correct.indexOf(source) >= 0;
      var isPicked = picks.indexOf(source) >= 0;
      if (isPicked) chosen.push(letter);
      if (isCorrect) {
        answers.push(letter);
        shown[p].classList.add("nca-correct");
        (isPicked ? right : missed).push(letter);
      } else if (isPicked) {
        wrong.push(letter);
      }
      if (isPicked) shown[p].classList.add(isCorrect ? "nca-picked-right" : "nca-picked-wrong");
      /* Marks in words and a no-break space keeps each sign with its word when a mark
         wraps. With several answers, a correct choice left unpicked is "missed". */
      if (isCorrect && isPicked) mark(shown[p], "\u2713\u00a0Correct \u2014 your\u00a0choice", "correct");
      else if (isCorrect && several && picks.length) {
        shown[p].classList.add("nca-missed");
        mark(shown[p], "\u2713\u00a0Correct \u2014 missed", "correct");
      } else if (isCorrect) mark(shown[p], "\u2713\u00a0Correct answer", "correct");
      else if (isPicked) mark(shown[p], several ? "\u2717\u00a0Wrong pick" : "\u2717\u00a0Your choice", "wrong");
    }
    check(shown, picks.map(function (s) { return order.indexOf(s); }));

    var allRight = picks.length > 0 && !missed.length && !wrong.length;
    if (!picks.length) {
      verdict.textContent = several ? "The answers are " + joined(answers) + "." :
        "The answer is " + joined(answers) + ".";
    } else if (allRight) {
      verdict.textContent = several ? "\u2713 Correct: you chose " + joined(chosen) + "." :
        "\u2713 Correct \u2014 you chose " + joined(chosen) + ".";
    } else {
      verdict.textContent = "\u2717 You chose " + joined(chosen) + "; the " +
        (several ? "answers are " : "answer is ") + joined(answers) + ".";
      if (several) {  /* all or nothing: say which were right, missed and wrong */
        var parts = [];
        if (right.length) parts.push("Right: " + joined(right) + ".");
        if (missed.length) parts.push("Missed: " + joined(missed) + ".");
        if (wrong.length) parts.push("Wrong: " + joined(wrong) + ".");
        var detail = document.createElement("span");
        detail.className = "nca-verdict-detail";
        detail.textContent = " " + parts.join(" ");  /* read apart from the sentence */
        verdict.appendChild(detail);
      }
    }
    verdict.classList.add(!picks.length ? "nca-verdict-none" : allRight ? "nca-verdict-right" : "nca-verdict-wrong");
  }

  return {
    version: VERSION,
    shuffledOrder: shuffledOrder,  /* exposed so tests can measure the shuffle's uniformity */
    start: function (side) {
      var root = findRoot(side);
      if (!root || root.getAttribute("data-nca-started")) return;
      root.setAttribute("data-nca-started", side);
      var original = root.innerHTML;
      try {
        if (side === "front") front(root); else back(root);
      } catch (error) {
        /* The static card is complete: put it back rather than leave a half-made one. */
        root.innerHTML = original;
        root.classList.remove("nca-js");
        if (side === "front") forget();
        if (window.console) window.console.error("nca-anki card:", error);
      }
    }
  };
})();
