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
  var VERSION = "nca-mcq-2";  /* the card code's version: bump when the state changes shape */
  var SLOT = "nca-anki:mcq";
  var BACK_GRACE_MS = 10 * 60 * 1000;  /* a back shown again within this time keeps the pick */
  var LABELS = "ABCDEFGHIJ";
  /* Letters Anki desktop uses as reviewer shortcuts (E edit, I card info) are not pick
     keys; numbers always are. */
  var LETTER_KEYS = "abcd fgh j";

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

  /* Put the choices in display order, label them A, B, C… as shown, make them a radio
     group. Returns the items in display order. */
  function lay(list, items, order, side) {
    var shown = [];
    for (var i = 0; i < order.length; i++) {
      var item = items[order[i]];
      list.appendChild(item);
      var label = item.querySelector(".nca-label");
      if (label) label.textContent = LABELS.charAt(i);
      item.setAttribute("role", "radio");
      item.setAttribute("aria-checked", "false");
      item.setAttribute("data-nca-position", String(i));
      shown.push(item);
    }
    list.setAttribute("role", "radiogroup");
    list.setAttribute("aria-label", side === "front" ? "Choose an answer" : "Choices");
    if (side === "back") list.setAttribute("aria-readonly", "true");
    return shown;
  }

  function check(shown, position) {
    for (var i = 0; i < shown.length; i++) {
      var on = i === position;
      shown[i].setAttribute("aria-checked", on ? "true" : "false");
      shown[i].classList.toggle("nca-picked", on);
    }
  }

  function front(root) {
    var list = root.querySelector(".nca-choice-list");
    if (!list) return;
    var items = Array.prototype.slice.call(list.children);
    var order = shuffledOrder(items, list);
    var state = {
      v: VERSION, card: cardKey(root, items), order: order, pick: null,
      review: Date.now().toString(36) + "-" + randomBelow(2176782336).toString(36), back: 0
    };
    save(state);
    var shown = lay(list, items, order, "front");
    root.classList.add("nca-js");
    var hint = root.querySelector(".nca-hint");
    if (hint) {
      hint.textContent = "Choose: tap a choice or press 1\u2013" + shown.length + ".";
      hint.hidden = false;
    }

    function pick(position) {
      if (position < 0 || position >= shown.length || !root.isConnected) return;
      state.pick = order[position];
      save(state);  /* at once: a flip may follow this very event */
      check(shown, position);
    }
    function onPointer(event) {
      if (event.type === "mousedown" && event.button !== 0) return;
      if (event.type === "pointerdown" && (!event.isPrimary || event.button > 0)) return;
      var item = event.target.closest ? event.target.closest("[data-nca-position]") : null;
      if (item && list.contains(item)) pick(Number(item.getAttribute("data-nca-position")));
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
      if (!root.isConnected || event.ctrlKey || event.altKey || event.metaKey) return;
      var target = event.target;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      var key = (event.key || "").toLowerCase();
      var position = -1;
      if (/^[1-9]$/.test(key)) position = Number(key) - 1;
      else if (key.length === 1 && key !== " ") position = LETTER_KEYS.indexOf(key);
      if (position >= 0 && position < shown.length) pick(position);
    };
    document.addEventListener("keydown", window.__ncaMcqKeys);
  }

  function mark(item, text, kind) {
    var badge = document.createElement("span");
    badge.className = "nca-mark nca-mark-" + kind;
    badge.textContent = text;
    (item.querySelector(".nca-text") || item).appendChild(badge);
  }

  function back(root) {
    var list = root.querySelector(".nca-choice-list");
    var box = root.querySelector(".nca-choices");
    var verdict = root.querySelector(".nca-verdict");
    if (!list || !box || !verdict) return;
    var items = Array.prototype.slice.call(list.children);
    var correct = [];
    var letters = (box.getAttribute("data-answer") || "").split(/\s+/);
    for (var i = 0; i < letters.length; i++) {
      var index = LABELS.indexOf(letters[i]);
      if (letters[i] && index >= 0 && index < items.length) correct.push(index);
    }
    if (!correct.length) return;  /* leave the static card as it is */

    var state = load();
    var now = Date.now();
    var fresh = state && state.v === VERSION && state.card === cardKey(root, items) &&
      isOrder(state.order, items.length) && (!state.back || now - state.back < BACK_GRACE_MS);
    var order = fresh ? state.order : items.map(function (_, k) { return k; });
    var picked = fresh && typeof state.pick === "number" && state.pick >= 0 &&
      state.pick < items.length ? state.pick : null;
    if (fresh && !state.back) {
      state.back = now;
      save(state);
    }

    var shown = lay(list, items, order, "back");
    root.classList.add("nca-js");
    var correctLetters = [];
    var pickedLetter = null;
    for (var p = 0; p < shown.length; p++) {
      var source = order[p];
      var isCorrect = correct.indexOf(source) >= 0;
      if (isCorrect) {
        shown[p].classList.add("nca-correct");
        correctLetters.push(LABELS.charAt(p));
      }
      if (source === picked) {
        pickedLetter = LABELS.charAt(p);
        shown[p].classList.add(isCorrect ? "nca-picked-right" : "nca-picked-wrong");
      }
      /* A no-break space keeps each sign with its word when a mark wraps. */
      if (isCorrect && source === picked) mark(shown[p], "\u2713\u00a0Correct \u2014 your\u00a0choice", "correct");
      else if (isCorrect) mark(shown[p], "\u2713\u00a0Correct answer", "correct");
      else if (source === picked) mark(shown[p], "\u2717\u00a0Your choice", "wrong");
    }
    check(shown, picked === null ? -1 : order.indexOf(picked));

    var answer = correctLetters.join(" and ");
    var right = picked !== null && correct.indexOf(picked) >= 0;
    verdict.textContent = picked === null ? "The answer is " + answer + "." :
      right ? "\u2713 Correct \u2014 you chose " + pickedLetter + "." :
      "\u2717 You chose " + pickedLetter + "; the answer is " + answer + ".";
    verdict.classList.add(picked === null ? "nca-verdict-none" : right ? "nca-verdict-right" : "nca-verdict-wrong");
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
