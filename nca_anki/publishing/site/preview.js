/* nca-anki preview site: the day/night switch of every page, and on a deck's page its
   cards, each playable as in Anki. How and why: docs/preview.md.

   - A deck's page carries the note type's front, back and CSS (the templates the decks
     carry, card.js included) once, and each card's fields, as JSON (#deck-data).
     fill() puts the fields into the templates by Anki's rules, as Anki does.
   - Each card is shown in its own <iframe sandbox="allow-scripts">, as Anki desktop's
     reviewer shows a card: its front put into the page, then its back put in its place
     (setInnerHTML below). A sandboxed frame has no storage of its own, so the card's
     script keeps the learner's pick in the frame's window until the back is shown, and
     no card sees another's pick.
   - The frame gets its card by postMessage, never spliced into markup or script, and
     tells its height back; each side checks whom a message comes from.
   - Frames are made as their place nears the screen and let go far from it: a deck of a
     thousand cards does not hold a thousand card scripts.
*/
(function () {
  "use strict";
  var THEME_KEY = "nca-anki-preview:theme";
  var TAG = "nca-anki-preview";  /* marks this site's messages */

  /* --- Anki's card templates ------------------------------------------------------------ */

  /* Anki treats a field as empty for a {{#Field}} section when it holds only white space,
     non-breaking spaces and line breaks. */
  var EMPTY_FIELD = /^(?:\s|&nbsp;|<br\s*\/?>|<div>|<\/div>)*$/i;

  function isEmpty(value) {
    return EMPTY_FIELD.test(value || "");
  }

  function withoutTags(html) {
    var box = document.createElement("template");
    box.innerHTML = html;
    return box.content.textContent || "";
  }

  /* The template with each {{Field}} replaced by the field's HTML and each section kept or
     dropped, as Anki's renderer does: a tag runs from "{{" to the first "}}"; "#Field"
     opens a section shown when the field is not empty, "^Field" one shown when it is,
     "/Field" closes it; otherwise the text after the last ":" is the field and what comes
     before names filters, of which "text" (the field without its HTML) changes what is
     shown. Templates were checked when the decks were built (cards/render.py). */
  function fill(template, fields) {
    var tag = /\{\{([\s\S]*?)\}\}/g;
    var out = "";
    var hidden = 0;  /* how many enclosing sections are not shown */
    var open = [];  /* for each open section: is it shown? */
    var last = 0;
    var match;
    while ((match = tag.exec(template)) !== null) {
      if (!hidden) out += template.slice(last, match.index);
      last = tag.lastIndex;
      var handle = match[1].replace(/^\{+/, "").trim();
      var kind = handle.length > 1 ? handle.charAt(0) : "";
      if (kind === "#" || kind === "^") {
        var present = !isEmpty(fields[handle.slice(1).trim()]);
        var shown = kind === "#" ? present : !present;
        open.push(shown);
        if (!shown) hidden += 1;
      } else if (kind === "/") {
        if (open.length && !open.pop()) hidden -= 1;
      } else if (handle && !hidden) {
        var parts = handle.split(":");
        var name = parts.pop().trim();
        var value = Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : "";
        if (parts.map(function (p) { return p.trim(); }).indexOf("text") >= 0) {
          value = withoutTags(value);
        }
        out += value;
      }
    }
    if (!hidden) out += template.slice(last);
    return out;
  }

  /* The fields a card's templates may name: the note's own and those Anki adds. */
  function cardFields(deck, card) {
    var fields = {};
    for (var name in card.fields) {
      if (Object.prototype.hasOwnProperty.call(card.fields, name)) fields[name] = card.fields[name];
    }
    fields.Tags = card.tags;
    fields.Type = deck.noteType;
    fields.Deck = deck.deck;
    fields.Subdeck = deck.deck.split("::").pop();
    fields.Card = deck.card;
    fields.CardFlag = "";
    fields.CardID = "";
    fields.FrontSide = "";
    fields.FrontSide = fill(deck.front, fields);
    return fields;
  }

  /* --- day and night --------------------------------------------------------------------- */

  function storedTheme() {
    try {
      var value = window.localStorage.getItem(THEME_KEY);
      return value === "day" || value === "night" ? value : null;
    } catch (e) {
      return null;  /* no storage (a private window, a file page in some browsers) */
    }
  }

  var theme = storedTheme() ||
    (window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "night" : "day");
  var frames = [];  /* {frame, slot, front, back} of each card's frame alive */
  /* The site's words in the project's language (base.html, nca_anki/language.py). */
  var TEXT = (function () {
    var node = document.getElementById("preview-text");
    try { return node ? JSON.parse(node.textContent) : {}; } catch (e) { return {}; }
  })();
  function say(key, values) {
    var text = Object.prototype.hasOwnProperty.call(TEXT, key) ? String(TEXT[key]) : key;
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }
  function escaped(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;");
  }

  function showTheme() {
    document.documentElement.setAttribute("data-theme", theme);
    var buttons = document.querySelectorAll(".theme-switch");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].hidden = false;
      /* A toggle keeps its name and says its state by aria-pressed: "Night mode,
         pressed" at night, never "Day, pressed". */
      buttons[i].textContent = say("night_mode");
      buttons[i].setAttribute("aria-pressed", theme === "night" ? "true" : "false");
    }
    for (var k = 0; k < frames.length; k++) send(frames[k], { kind: "theme", night: theme === "night" });
  }

  function switchTheme() {
    theme = theme === "night" ? "day" : "night";
    try { window.localStorage.setItem(THEME_KEY, theme); } catch (e) { /* kept for this page only */ }
    showTheme();
  }

  /* --- one card in its frame --------------------------------------------------------------- */

  function send(entry, message) {
    message.tag = TAG;
    if (entry.frame.contentWindow) entry.frame.contentWindow.postMessage(message, "*");
  }

  /* Runs inside each card's frame (its source is put into the frame's page, so it must use
     nothing from outside itself). The reviewer: it shows the front, then on "Show answer"
     (or the card's own pycmd("ans"), as in Anki desktop) the back in its place. */
  function reviewer() {
    var TAG = "nca-anki-preview";
    var qa = document.getElementById("qa");
    var css = document.getElementById("card-css");
    var flip = document.getElementById("show-answer");
    var again = document.getElementById("again");
    var card = null;
    var night = false;
    var side = "";

    function tell(message) {
      message.tag = TAG;
      window.parent.postMessage(message, "*");
    }

    function bodyClass() {
      document.body.className = "card card1" + (night ? " nightMode night_mode" : "");
    }

    /* Anki desktop's setInnerHTML: a script put in by innerHTML does not run, so each is
       replaced by a copy, which runs as it is put in; the body's class is set after. */
    function show(which) {
      side = which;
      qa.innerHTML = which === "front" ? card.front : card.back;
      var scripts = Array.prototype.slice.call(qa.getElementsByTagName("script"));
      for (var i = 0; i < scripts.length; i++) {
        var old = scripts[i];
        var fresh = document.createElement("script");
        for (var a = 0; a < old.attributes.length; a++) {
          fresh.setAttribute(old.attributes[a].name, old.attributes[a].value);
        }
        fresh.appendChild(document.createTextNode(old.innerHTML));
        old.parentNode.replaceChild(fresh, old);
      }
      bodyClass();
      flip.hidden = which !== "front";
      again.hidden = which === "front";
      document.body.setAttribute("data-side", which);
      tell({ kind: "side", side: which });
      /* Now, not only when ResizeObserver says: Chromium holds back its callbacks in a
         frame off the screen, and a reader who scrolls fast past a card would come back
         to a frame of the placeholder's height (bench/authoring.py found 35 of 100). */
      measure();
    }

    window.pycmd = function (command) {
      if (command === "ans" && side === "front") show("back");
    };

    window.addEventListener("message", function (event) {
      var data = event.data;
      if (event.source !== window.parent || !data || data.tag !== TAG) return;
      if (data.kind === "card" && card === null && typeof data.front === "string" &&
          typeof data.back === "string" && typeof data.css === "string") {
        card = { front: data.front, back: data.back };
        css.textContent = data.css;
        night = data.night === true;
        show("front");
      } else if (data.kind === "theme") {
        night = data.night === true;
        bodyClass();
      }
    });

    flip.addEventListener("click", function () { if (card) show("back"); });
    again.addEventListener("click", function () { if (card) show("front"); });

    /* A link opens in a new tab, never in place of the card. */
    document.addEventListener("click", function (event) {
      var link = event.target && event.target.closest ? event.target.closest("a[href]") : null;
      if (!link) return;
      event.preventDefault();
      if (/^(https?:|mailto:)/i.test(link.href)) window.open(link.href, "_blank", "noopener");
    });

    var root = document.documentElement;
    var height = 0;
    function measure() {
      if (card === null) return;  /* the empty page's height would shrink the slot, then grow it */
      var now = Math.ceil(root.getBoundingClientRect().height);
      if (now !== height) {
        height = now;
        tell({ kind: "height", height: now });
      }
    }
    if (window.ResizeObserver) new window.ResizeObserver(measure).observe(document.body);
    window.addEventListener("load", measure);
    tell({ kind: "ready" });
  }

  var FRAME_STYLE =
    "html,body{margin:0}" +
    "body{padding:16px 12px 12px}" +
    ".preview-bar{display:flex;justify-content:center;margin:1.2em auto 0;max-width:42em;" +
    "padding-top:.9em;border-top:1px solid var(--nca-line,#c9ccd1)}" +
    ".preview-bar button{font:inherit;font-size:17px;min-height:44px;padding:.4em 1.6em;" +
    "border-radius:8px;border:1px solid var(--nca-line,#c9ccd1);" +
    "background:var(--nca-soft,rgba(127,127,127,.12));color:inherit;cursor:pointer}" +
    ".preview-bar button:focus-visible{outline:3px solid var(--nca-accent,#1f5fbf);outline-offset:2px}" +
    ".preview-bar [hidden]{display:none}" +
    ".preview-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}";

  /* Every card's frame is a document of its own: its title names the card (as the frame
     element's title does) for a screen reader, and its card and buttons are its main
     landmark. */
  function frameDocument() {
    return "<!doctype html><html lang=\"" + escaped(document.documentElement.lang || "en") +
      "\" dir=\"" + escaped(document.documentElement.dir || "ltr") + "\"><head><meta charset=\"utf-8\">" +
      "<title>" + escaped(say("card")) + "</title>" +
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
      "<style id=\"card-css\"></style><style>" + FRAME_STYLE + "</style></head>" +
      "<body class=\"card card1\"><main><h1 class=\"preview-hidden\">" + escaped(say("card")) +
      "</h1><div id=\"qa\"></div>" +
      "<div class=\"preview-bar\"><button type=\"button\" id=\"show-answer\">" +
      escaped(say("show_answer")) + "</button>" +
      "<button type=\"button\" id=\"again\" hidden>" + escaped(say("again")) +
      "</button></div></main>" +
      "<script>(" + reviewer.toString() + ")();</" + "script></body></html>";
  }

  /* How near the screen a card's frame is made, and how far off it is let go. Chromium
     holds back the work of frames off the screen that are of another origin (a sandboxed
     frame is): with hundreds alive, those scrolled past took about a second each to show
     (bench/authoring.py, docs/preview.md). So only the frames near the screen live. */
  var MAKE_MARGIN = 200;
  var KEEP_MARGIN = 1600;

  /* The last of each card's entries in one observer's callback. When the page is busy,
     Chromium hands a callback several entries for one card, oldest first ("far", then
     "near" again after a fast scroll back); acting on each in turn let go a card that was
     near the screen, and, its place not moving again, it never came back. */
  function latest(seen) {
    var last = new Map();
    for (var i = 0; i < seen.length; i++) last.set(seen[i].target, seen[i]);
    return Array.from(last.values());
  }

  /* Is the card's place more than ``margin`` px above or below the screen, now? */
  function farFromScreen(slot, margin) {
    var box = slot.getBoundingClientRect();
    return box.bottom < -margin || box.top > window.innerHeight + margin;
  }

  function deckPage(deck) {
    var slots = document.querySelectorAll(".card-slot");
    var source = frameDocument();
    function entryOf(win) {
      for (var i = 0; i < frames.length; i++) {
        if (frames[i].frame.contentWindow === win) return frames[i];
      }
      return null;
    }

    /* A card above the screen (or under the sticky header) that grows or shrinks as its
       frame comes, goes or takes its height moves the page by as much, so the cards the
       reader looks at stay where they are (the browser's own scroll anchoring is off:
       preview.css). A card that has shown and is partly on the screen moves nothing:
       the reader may be playing it, and a page that scrolls under a click loses it. */
    function keepStill(slot, change) {
      var header = document.querySelector(".site-header");
      var line = header ? Math.max(0, header.getBoundingClientRect().bottom) : 0;
      var before = slot.getBoundingClientRect();
      var above = before.bottom <= line + 1 ||
        (before.top < line - 1 && !slot.classList.contains("shown"));
      change();
      if (above) window.scrollBy(0, slot.getBoundingClientRect().height - before.height);
    }

    function place(slot) {
      var card = deck.cards[Number(slot.getAttribute("data-card"))];
      if (!card || slot.querySelector("iframe")) return;
      var frame = document.createElement("iframe");
      frame.setAttribute("sandbox", "allow-scripts allow-popups allow-popups-to-escape-sandbox");
      frame.setAttribute("title", say("card_at", { i: slot.id.replace("card-", ""), where: card.where }));
      frame.className = "card-frame";
      if (slot.getAttribute("data-height")) frame.style.height = slot.getAttribute("data-height");
      var fields = cardFields(deck, card);
      var entry = { frame: frame, slot: slot, front: fill(deck.front, fields),
                    back: fill(deck.back, fields) };
      frame.srcdoc = source;
      keepStill(slot, function () { slot.appendChild(frame); });
      frames.push(entry);
    }

    /* Far off the screen: the frame goes, and its card starts again from the front when it
       comes back, as a card does in Anki's next review. The slot keeps the frame's height,
       so the page does not move under the reader. */
    function release(slot) {
      for (var i = 0; i < frames.length; i++) {
        if (frames[i].slot !== slot) continue;
        var entry = frames[i];
        frames.splice(i, 1);
        slot.setAttribute("data-height", entry.frame.style.height || "");
        slot.style.minHeight = slot.getBoundingClientRect().height + "px";  /* no change */
        slot.removeChild(entry.frame);
        slot.classList.remove("shown");
        slot.removeAttribute("data-side");
        return;
      }
    }

    window.addEventListener("message", function (event) {
      var entry = entryOf(event.source);
      var data = event.data;
      if (!entry || !data || data.tag !== TAG) return;
      if (data.kind === "ready") {
        send(entry, { kind: "card", front: entry.front, back: entry.back, css: deck.css,
                      night: theme === "night" });
      } else if (data.kind === "height" && typeof data.height === "number" && isFinite(data.height)) {
        keepStill(entry.slot, function () {
          entry.frame.style.height = Math.max(60, Math.min(Math.round(data.height), 40000)) + "px";
          entry.slot.style.minHeight = "";
          entry.slot.classList.add("shown");
        });
      } else if (data.kind === "side" && (data.side === "front" || data.side === "back")) {
        entry.slot.setAttribute("data-side", data.side);
      }
    });

    if (window.IntersectionObserver) {
      var near = new window.IntersectionObserver(function (seen) {
        seen = latest(seen);
        for (var i = 0; i < seen.length; i++) if (seen[i].isIntersecting) place(seen[i].target);
      }, { rootMargin: MAKE_MARGIN + "px 0px" });
      /* A card is let go only if it is far from the screen when the callback runs, not
         only when the observer last looked: nothing would make it again if it were near. */
      var kept = new window.IntersectionObserver(function (seen) {
        seen = latest(seen);
        for (var i = 0; i < seen.length; i++) {
          if (!seen[i].isIntersecting && farFromScreen(seen[i].target, KEEP_MARGIN)) {
            release(seen[i].target);
          }
        }
      }, { rootMargin: KEEP_MARGIN + "px 0px" });
      for (var i = 0; i < slots.length; i++) {
        near.observe(slots[i]);
        kept.observe(slots[i]);
      }
    } else {
      for (var k = 0; k < slots.length; k++) place(slots[k]);
    }
  }

  function start() {
    var buttons = document.querySelectorAll(".theme-switch");
    for (var i = 0; i < buttons.length; i++) buttons[i].addEventListener("click", switchTheme);
    showTheme();
    var data = document.getElementById("deck-data");
    if (data) deckPage(JSON.parse(data.textContent));
  }

  window.NcaPreview = { fill: fill, cardFields: cardFields };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
