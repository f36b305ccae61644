/* nca-anki multiple-choice card script. Included by front.html and back.html.

   The card is complete without this script (choices in a fixed, balanced order; the
   answer named and marked on the back). With it, the learner picks on the front, the
   choices are shuffled on every review, and the back shows a verdict. How the clients
   show cards, and why this script is written the way it is: docs/card.md. The learner
   may also strike choices out (eliminate them) before picking: the back shows them
   struck, and they mean nothing to the verdict.

   Rules kept here (docs/card.md explains each):
   - Everything in one function call, declared with var only (Anki desktop runs card
     scripts again on one page and a second declaration would throw).
   - State crosses the flip in sessionStorage (AnkiDroid loads the back as a new page)
     with a window variable as fallback, in one slot keyed by card and review.
   - A pick is saved the moment it is made, before any client can flip the card: on
     pointer-down for a mouse, on release for a touch or a pen (a touch that moves or
     is cancelled is a scroll, never a pick), at once for a key.
   - Every element inside a choice has the class "tappable": AnkiMobile passes a tap to
     the card only on such an element, and may check the tapped element alone.
   - The card's own words come from start()'s second argument (nca_anki/language.py).
   - No Anki field markers (two opening braces) anywhere in this file: Anki would read
     them as fields.
*/
window.NcaMcq = (function () {
  "use strict";
  var VERSION = "nca-mcq-4";  /* the card code's version: bump when the state changes shape */
  var SLOT = "nca-anki:mcq";
  var BACK_GRACE_MS = 10 * 60 * 1000;  /* a back shown again within this time keeps the pick */
  var LABELS = "ABCDEFGHIJ";
  var SLOP_PX = 10;  /* a touch that moves farther is a scroll or a swipe, not a tap */
  var HOLD_MS = 500;  /* a touch held this long, without moving, strikes the choice out */
  var ECHO_MS = 1000;  /* the click a browser sends after a pick or a strike is its echo */
  var SAY_MS = 100;  /* the verdict is written this long after its live region is emptied */
  /* Keys: Alt (Option on a Mac) with a digit picks the choice in that place. Measured in
     the real Anki desktop app (tests/test_desktop_app.py, docs/card.md "Keys"): Anki binds
     the digits 1-7 and most letters (A add, B browse, D decks, E edit, I info, ...), which
     never reach the card, and no Alt+digit, which does. The digit is read from the key's
     place (event.code), since Option+2 types "™" on a Mac. */
  var KEY_NAME = /Mac|iPhone|iPad/.test(navigator.platform || "") ? "Option" : "Alt";
  var T = {};  /* the card's words, from start() */
  var DIR = "ltr";  /* their direction: the card's dir (language.py) */

  /* The card's word ``key`` with its {placeholders} filled in. */
  function say(key, values) {
    var text = Object.prototype.hasOwnProperty.call(T, key) ? String(T[key]) : "";
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ?
        String(values[name]) : whole;
    });
  }

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

  /* "B", "B and D", "A, C and D": as render.py writes the Answer field, in the card's
     language. */
  function joined(letters) {
    if (letters.length < 2) return letters.join("");
    return letters.slice(0, -1).join(say("list_comma")) + say("list_and") +
      letters[letters.length - 1];
  }

  /* ``node`` as a ``tag`` element: its attributes and children moved over. */
  function retag(node, tag) {
    var made = document.createElement(tag);
    for (var i = 0; i < node.attributes.length; i++) {
      made.setAttribute(node.attributes[i].name, node.attributes[i].value);
    }
    while (node.firstChild) made.appendChild(node.firstChild);
    node.parentNode.replaceChild(made, node);
    return made;
  }

  /* Put the choices in display order and label them A, B, C… as shown. On the front they
     become a radio group (one answer: an <ol> of role radiogroup, <li> of role radio) or
     a group of checkboxes (several: <div> elements, since an <li> may not be a checkbox),
     one tab stop. On the back they stay a list. Returns the list and the items in
     display order. */
  function lay(list, items, order, side) {
    var several = chooseCount(list) > 0;
    var front = side === "front";
    if (front && several) list = retag(list, "div");
    var shown = [];
    for (var i = 0; i < order.length; i++) {
      var item = items[order[i]];
      if (front && several) item = retag(item, "div");
      list.appendChild(item);
      var label = item.querySelector(".nca-label");
      if (label) label.textContent = LABELS.charAt(i);
      var text = item.querySelector(".nca-text");  /* the authors' words: their own direction */
      if (text && !text.hasAttribute("dir")) text.setAttribute("dir", "auto");
      item.setAttribute("data-nca-position", String(i));
      tappable(item);  /* the back's too: a tap there is no grade by AnkiMobile's tap zones */
      if (front) {
        item.setAttribute("role", several ? "checkbox" : "radio");
        item.setAttribute("aria-checked", "false");
        item.setAttribute("tabindex", i ? "-1" : "0");
      }
      shown.push(item);
    }
    if (front) list.setAttribute("role", several ? "group" : "radiogroup");
    list.setAttribute("aria-label", !front ? say("group_back") : several ?
      say("group_several", { n: chooseCount(list) }) : say("group_one"));
    return { list: list, shown: shown };
  }

  /* AnkiMobile passes a tap to the card only on links, buttons, elements with an onclick
     handler or the class "tappable" (its manual, "Javascript"); elsewhere the tap is its
     own (it may show the answer). Which element it checks is not documented, so the
     choice and everything inside it carries the class. */
  function tappable(item) {
    item.classList.add("tappable");
    var inside = item.querySelectorAll("*");
    for (var i = 0; i < inside.length; i++) inside[i].classList.add("tappable");
  }

  /* Mark a choice struck out (or not): a line through it, and words a screen reader
     reads with it. */
  function showStruck(item, on) {
    item.classList.toggle("nca-struck", on);
    var note = item.querySelector(".nca-struck-note");
    if (on && !note) {
      note = document.createElement("span");
      note.className = "nca-struck-note tappable";
      note.setAttribute("dir", DIR);  /* the card's words in a choice of another direction */
      note.textContent = " (" + say("struck") + ")";
      (item.querySelector(".nca-text") || item).appendChild(note);
    } else if (!on && note) {
      note.parentNode.removeChild(note);
    }
  }

  /* Code and tables that are wider than the card scroll sideways inside themselves; such
     a one is a tab stop, so a keyboard can scroll it (choices wrap their code instead). */
  function markScrollers(root) {
    var boxes = root.querySelectorAll("pre > code, table");
    for (var i = 0; i < boxes.length; i++) {
      var box = boxes[i];
      if (box.closest && box.closest(".nca-choice-list")) continue;
      if (box.scrollWidth > box.clientWidth + 1) box.setAttribute("tabindex", "0");
      else if (box.getAttribute("tabindex") === "0") box.removeAttribute("tabindex");
    }
  }

  /* One handler of a kind per page: Anki desktop keeps the page from card to card. */
  function onePerPage(name, type, handler) {
    var target = type === "resize" ? window : document;
    if (window[name]) target.removeEventListener(type, window[name]);
    window[name] = handler;
    target.addEventListener(type, handler);
  }

  function isoKeys(root, keys) {
    /* A key name inside right-to-left words: isolated, so "Alt+1–4" keeps its order. */
    return root.getAttribute("dir") === "rtl" ? "\u2066" + keys + "\u2069" : keys;
  }

  function front(root) {
    var list = root.querySelector(".nca-choice-list");
    if (!list) return;
    var items = Array.prototype.slice.call(list.children);
    var order = shuffledOrder(items, list);
    var choose = chooseCount(list);
    var flipOnPick = list.getAttribute("data-nca-flip") === "pick";  /* nca-anki.toml */
    var state = {
      v: VERSION, card: cardKey(root, items), order: order, picks: [], struck: [],
      review: Date.now().toString(36) + "-" + randomBelow(2176782336).toString(36), back: 0
    };
    save(state);
    var laid = lay(list, items, order, "front");
    list = laid.list;
    var shown = laid.shown;
    root.classList.add("nca-js");
    var hint = root.querySelector(".nca-hint");
    if (hint) {
      hint.textContent = hintText(root, choose, shown.length) +
        (flipOnPick ? " " + say("hint_flip") : "") + " " + strikeHint(root, shown.length);
      hint.hidden = false;
    }
    var count = root.querySelector(".nca-choose");
    if (count) count.setAttribute("aria-live", "polite");

    function refresh(full) {
      for (var k = 0; k < shown.length; k++) {
        var on = state.picks.indexOf(order[k]) >= 0;
        shown[k].setAttribute("aria-checked", on ? "true" : "false");
        shown[k].classList.toggle("nca-picked", on);
        showStruck(shown[k], state.struck.indexOf(order[k]) >= 0);
      }
      if (choose && count) {
        count.textContent = say("choose_count", { n: choose }) +
          (state.picks.length ? " " + say("picked_count", { k: state.picks.length }) : "") +
          (full ? " " + say("choose_full") : "");
      }
    }

    function focusable(position) {
      for (var k = 0; k < shown.length; k++) {
        shown[k].setAttribute("tabindex", k === position ? "0" : "-1");
      }
    }

    /* One answer: a pick replaces the last. Several: a pick toggles that choice, up to as
       many as the question asks for. A pick undoes a strike. */
    function pick(position) {
      if (position < 0 || position >= shown.length || !root.isConnected) return;
      var source = order[position];
      var at = state.picks.indexOf(source);
      if (choose && at < 0 && state.picks.length >= choose) {
        refresh(true);  /* no more than asked for: say so, change nothing */
        return;
      }
      if (!choose) state.picks = [source];
      else if (at >= 0) state.picks.splice(at, 1);
      else state.picks.push(source);
      var struck = state.struck.indexOf(source);
      if (struck >= 0) state.struck.splice(struck, 1);
      save(state);  /* at once: a flip may follow this very event */
      focusable(position);
      refresh(false);
      if (flipOnPick && state.picks.length === (choose || 1)) {
        window.setTimeout(flip, 250);  /* long enough to see the pick marked */
      }
    }

    /* Strike a choice out, or bring it back. A struck choice is not picked. */
    function strike(position) {
      if (position < 0 || position >= shown.length || !root.isConnected) return;
      var source = order[position];
      var at = state.struck.indexOf(source);
      if (at >= 0) {
        state.struck.splice(at, 1);
      } else {
        state.struck.push(source);
        var picked = state.picks.indexOf(source);
        if (picked >= 0) state.picks.splice(picked, 1);
      }
      save(state);
      refresh(false);
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

    function itemOf(target) {
      var item = target && target.closest ? target.closest("[data-nca-position]") : null;
      return item && list.contains(item) ? item : null;
    }
    function placeOf(item) { return Number(item.getAttribute("data-nca-position")); }

    /* A mouse picks on press. A touch or a pen picks on release, if it neither moved more
       than SLOP_PX nor was cancelled (the browser cancels a touch it takes for a scroll),
       and strikes out when held HOLD_MS without moving. The click a browser sends after
       either is an echo and is ignored; a click with nothing before it (assistive
       technology) picks. */
    var gesture = null;
    var echo = null;  /* { item, at }: the last pick or strike by a pointer */
    var menuEcho = null;  /* the choice a right-click struck, until a left button is pressed */
    function begin(item, id, x, y) {
      end();
      gesture = { item: item, id: id, x: x, y: y, held: false };
      var mine = gesture;
      mine.timer = window.setTimeout(function () {
        if (gesture !== mine) return;
        mine.held = true;
        echo = { item: item, at: Date.now(), touch: true };
        strike(placeOf(item));
      }, HOLD_MS);
    }
    function moved(id, x, y) {
      if (gesture && gesture.id === id &&
          Math.abs(x - gesture.x) + Math.abs(y - gesture.y) > SLOP_PX) end();
    }
    function release(id, target, x, y) {
      var was = gesture;
      if (!was || was.id !== id) return;
      end();
      if (was.held) {
        echo = { item: was.item, at: Date.now(), touch: true };
        return;
      }
      if (Math.abs(x - was.x) + Math.abs(y - was.y) > SLOP_PX || itemOf(target) !== was.item) return;
      echo = { item: was.item, at: Date.now() };
      pick(placeOf(was.item));
    }
    function end() {
      if (gesture) window.clearTimeout(gesture.timer);
      gesture = null;
    }
    function isEcho(item) {
      return echo && echo.item === item && Date.now() - echo.at < ECHO_MS;
    }

    root.addEventListener(window.PointerEvent ? "pointerdown" : "mousedown", function () {
      root.classList.remove("nca-keyboard");
    });
    if (window.PointerEvent) {
      list.addEventListener("pointerdown", function (event) {
        var item = itemOf(event.target);
        if (!item || !event.isPrimary) return;
        if (event.pointerType === "mouse") {
          if (event.button !== 0 || event.ctrlKey) return;  /* Ctrl+click: a Mac's right click */
          echo = { item: item, at: Date.now() };
          pick(placeOf(item));
        } else {
          begin(item, event.pointerId, event.clientX, event.clientY);
        }
      });
      list.addEventListener("pointermove", function (event) {
        moved(event.pointerId, event.clientX, event.clientY);
      });
      list.addEventListener("pointerup", function (event) {
        release(event.pointerId, event.target, event.clientX, event.clientY);
      });
      list.addEventListener("pointercancel", end);
    } else {  /* an old web view: touch events, then mouse events */
      list.addEventListener("touchstart", function (event) {
        var touch = event.changedTouches[0];
        var item = itemOf(event.target);
        if (item && touch) begin(item, "touch", touch.clientX, touch.clientY);
      }, { passive: true });
      list.addEventListener("touchmove", function (event) {
        var touch = event.changedTouches[0];
        if (touch) moved("touch", touch.clientX, touch.clientY);
      }, { passive: true });
      list.addEventListener("touchend", function (event) {
        var touch = event.changedTouches[0];
        if (touch) release("touch", event.target, touch.clientX, touch.clientY);
      });
      list.addEventListener("touchcancel", end);
      list.addEventListener("mousedown", function (event) {
        var item = itemOf(event.target);
        if (!item || event.button !== 0 || event.ctrlKey || isEcho(item)) return;
        echo = { item: item, at: Date.now() };
        pick(placeOf(item));
      });
    }
    list.addEventListener("click", function (event) {
      var item = itemOf(event.target);
      if (item && item === menuEcho) {
        menuEcho = null;
        return;
      }
      if (!item || isEcho(item)) return;
      pick(placeOf(item));  /* keyboard activation by assistive technology */
    });
    /* Right-click (or a long press where the browser sends this): strike out. A click
       that some engines send after it is its echo. */
    list.addEventListener("contextmenu", function (event) {
      var item = itemOf(event.target);
      if (!item) return;
      event.preventDefault();
      if (echo && echo.touch && isEcho(item)) return;  /* the long press struck it already */
      end();
      menuEcho = item;
      strike(placeOf(item));
    });
    /* A left button pressed since: the next click is the learner's own. */
    list.addEventListener("mousedown", function (event) {
      if (event.button === 0) menuEcho = null;
    });
    /* The group's keys: arrows move (one tab stop for the group), Space or Enter picks,
       X or Delete strikes out. */
    list.addEventListener("keydown", function (event) {
      var item = itemOf(event.target);
      if (!item || event.altKey || event.ctrlKey || event.metaKey) return;
      var position = placeOf(item);
      var rtl = window.getComputedStyle(list).direction === "rtl";
      var to = -1;
      switch (event.key) {
        case "ArrowDown": to = position + 1; break;
        case "ArrowUp": to = position - 1; break;
        case "ArrowRight": to = position + (rtl ? -1 : 1); break;
        case "ArrowLeft": to = position + (rtl ? 1 : -1); break;
        case "Home": to = 0; break;
        case "End": to = shown.length - 1; break;
        case " ": case "Spacebar": case "Enter": pick(position); break;
        case "x": case "X": case "Delete": strike(position); break;
        default: return;
      }
      event.preventDefault();
      if (to >= 0 || event.key === "ArrowUp" || event.key === "ArrowLeft" ||
          event.key === "ArrowRight") {
        to = (to + shown.length) % shown.length;
        focusable(to);
        shown[to].focus();
      }
    });

    /* Alt+digit picks the choice in that place, Alt+Shift+digit strikes it out, wherever
       the focus is. */
    onePerPage("__ncaMcqKeys", "keydown", function (event) {
      if (!root.isConnected) return;
      /* The focus ring shows once keys are in use (":focus-visible" where the engine
         applies it; this class where it does not, as WebKit under WebDriver), and goes
         when a pointer is used again. */
      if (!event.altKey) root.classList.add("nca-keyboard");
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      var target = event.target;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      var digit = /^(?:Digit|Numpad)([1-9])$/.exec(event.code || "");
      var position = digit ? Number(digit[1]) - 1 : -1;
      if (position >= 0 && position < shown.length) {
        event.preventDefault();  /* no menu mnemonic, no typed character */
        if (event.shiftKey) strike(position); else pick(position);
      }
    });
  }

  function touchScreen() {
    return !!(window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)").matches);
  }

  function keyRange(count, shift) {
    return KEY_NAME + (shift ? "+Shift" : "") + "+1" + (count > 1 ? "\u2013" + count : "");
  }

  /* What works where the card is shown: a touch screen (no hover, a coarse pointer) is
     tapped; elsewhere a choice is clicked or picked with Alt and its number. */
  function hintText(root, choose, count) {
    var keys = isoKeys(root, keyRange(count, false));
    if (choose) {
      return touchScreen() ? say("hint_several_touch") : say("hint_several_keys", { keys: keys });
    }
    return touchScreen() ? say("hint_one_touch") : say("hint_one_keys", { keys: keys });
  }

  function strikeHint(root, count) {
    return touchScreen() ? say("hint_strike_touch") :
      say("hint_strike_keys", { keys: isoKeys(root, keyRange(count, true)) });
  }

  function mark(item, text, kind) {
    var badge = document.createElement("span");
    badge.className = "nca-mark nca-mark-" + kind + " tappable";
    badge.setAttribute("dir", DIR);  /* the card's words, in a choice of any direction */
    badge.textContent = text;
    (item.querySelector(".nca-text") || item).appendChild(badge);
  }

  /* The saved list ``key`` (picks, struck), if it is a list of distinct choices of this
     card. */
  function choicesOf(state, key, n) {
    if (!state || !Array.isArray(state[key])) return [];
    var seen = {};
    var found = [];
    for (var i = 0; i < state[key].length; i++) {
      var v = state[key][i];
      if (typeof v !== "number" || v < 0 || v >= n || v % 1 !== 0 || seen[v]) return [];
      seen[v] = true;
      found.push(v);
    }
    return found;
  }

  /* ``text`` with each lone surrogate (half of a pair, on its own) as U+FFFD: what
     encodeURIComponent takes without throwing. */
  function wellFormed(text) {
    if (typeof text.toWellFormed === "function") return text.toWellFormed();
    var out = "";
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i);
      var low = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (c >= 0xd800 && c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        out += text.charAt(i) + text.charAt(i + 1);
        i++;
      } else {
        out += c >= 0xd800 && c <= 0xdfff ? "\ufffd" : text.charAt(i);
      }
    }
    return out;
  }

  /* The first ``limit`` characters of ``text`` as a reader counts them: grapheme clusters
     (an emoji of several people, a flag, a letter and its accents are one each), where the
     engine has Intl.Segmenter; else code points. Never half of a surrogate pair. */
  function cut(text, limit) {
    text = wellFormed(text);
    var Segmenter = window.Intl && window.Intl.Segmenter;
    if (typeof Segmenter === "function") {
      try {
        var segments = new Segmenter(undefined, { granularity: "grapheme" }).segment(text);
        var each = segments[Symbol.iterator](), end = 0;
        for (var n = 0; n < limit; n++) {
          var next = each.next();
          if (next.done) return text;
          end = next.value.index + next.value.segment.length;
        }
        return text.slice(0, end);
      } catch (e) { /* the code points below */ }
    }
    var at = 0;
    for (var k = 0; k < limit && at < text.length; k++) {
      var code = text.charCodeAt(at);
      at += code >= 0xd800 && code <= 0xdbff ? 2 : 1;  /* well formed: its pair follows */
    }
    return text.slice(0, at);
  }

  /* The "Report a problem" link (report_url): its address gains the learner's pick and
     the verdict, so the author sees what was chosen. Without a script it has neither. */
  function report(root, picked, outcome) {
    var link = root.querySelector("a.nca-report[data-nca-report]");
    if (!link) return;
    var values = {
      pick: picked.map(function (text) { return cut(text, 120); }).join(" | "),
      verdict: outcome
    };
    link.setAttribute("href", link.getAttribute("data-nca-report").replace(
      /\{(pick|verdict)\}/g, function (whole, name) {
        return encodeURIComponent(wellFormed(values[name]));
      }));
  }

  function back(root) {
    var list = root.querySelector(".nca-choice-list");
    var box = root.querySelector(".nca-choices");
    var verdict = root.querySelector(".nca-verdict");
    if (!list || !box || !verdict) return;
    var items = Array.prototype.slice.call(list.children);
    /* Each choice's text as written, before any mark is added: for the report link. */
    var written = items.map(function (item) {
      return textOf(item.querySelector(".nca-text") || item);
    });
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
    var picks = fresh ? choicesOf(state, "picks", items.length) : [];
    var struck = fresh ? choicesOf(state, "struck", items.length) : [];
    if (fresh && !state.back) {
      state.back = now;
      save(state);
    }

    var shown = lay(list, items, order, "back").shown;
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
      shown[p].classList.toggle("nca-picked", isPicked);
      if (isPicked) shown[p].classList.add(isCorrect ? "nca-picked-right" : "nca-picked-wrong");
      showStruck(shown[p], struck.indexOf(source) >= 0);
      /* With several answers, a correct choice left unpicked is "missed". */
      if (isCorrect && isPicked) mark(shown[p], say("mark_right"), "correct");
      else if (isCorrect && several && picks.length) {
        shown[p].classList.add("nca-missed");
        mark(shown[p], say("mark_missed"), "correct");
      } else if (isCorrect) mark(shown[p], say("mark_answer"), "correct");
      else if (isPicked) mark(shown[p], several ? say("mark_wrong_pick") : say("mark_your_choice"), "wrong");
    }

    var allRight = picks.length > 0 && !missed.length && !wrong.length;
    var words = { answers: joined(answers), chosen: joined(chosen) };
    var sentence, detail = "";
    if (!picks.length) {
      sentence = say(several ? "verdict_none_several" : "verdict_none_one", words);
    } else if (allRight) {
      sentence = say(several ? "verdict_right_several" : "verdict_right_one", words);
    } else {
      sentence = say(several ? "verdict_wrong_several" : "verdict_wrong_one", words);
      if (several) {  /* all or nothing: say which were right, missed and wrong */
        var parts = [];
        if (right.length) parts.push(say("detail_right", { letters: joined(right) }));
        if (missed.length) parts.push(say("detail_missed", { letters: joined(missed) }));
        if (wrong.length) parts.push(say("detail_wrong", { letters: joined(wrong) }));
        detail = " " + parts.join(" ");
      }
    }
    verdict.classList.add(!picks.length ? "nca-verdict-none" : allRight ? "nca-verdict-right" : "nca-verdict-wrong");
    /* Whatever befalls the link, the verdict is shown: a link that cannot be given the
       pick keeps the address it came with. */
    try {
      report(root, picks.map(function (source) { return written[source]; }),
             !picks.length ? "none" : allRight ? "right" : "wrong");
    } catch (error) {
      if (window.console) window.console.warn("nca-anki card: the report link is left without the pick:", error);
    }
    /* The verdict is a live region (role=status). One that arrives filled in is not
       announced: empty it now, write the result a moment later, and a screen reader
       reads the change. */
    verdict.textContent = "";
    window.setTimeout(function () {
      if (!root.isConnected) return;
      verdict.textContent = sentence;
      if (detail) {
        var more = document.createElement("span");
        more.className = "nca-verdict-detail";
        more.textContent = detail;  /* read apart from the sentence */
        verdict.appendChild(more);
      }
      verdict.setAttribute("data-nca-said", "true");
    }, SAY_MS);
  }

  return {
    version: VERSION,
    shuffledOrder: shuffledOrder,  /* exposed so tests can measure the shuffle's uniformity */
    /* side: "front" or "back"; text: the card's words (language.py), by key. */
    start: function (side, text) {
      var root = findRoot(side);
      if (!root || root.getAttribute("data-nca-started")) return;
      root.setAttribute("data-nca-started", side);
      T = text && typeof text === "object" ? text : {};
      DIR = root.getAttribute("dir") === "rtl" ? "rtl" : "ltr";
      var original = root.innerHTML;
      try {
        if (side === "front") front(root); else back(root);
        markScrollers(root);
        onePerPage("__ncaMcqResize", "resize", function () {
          if (root.isConnected) markScrollers(root);
        });
        if (document.readyState !== "complete") {  /* images still to come may widen a table */
          window.addEventListener("load", function () { markScrollers(root); });
        }
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
