// eartest report: the trials list and trial view. Plain DOM, no libraries, no network.
// Data: window.EARTEST_TRIALS, set by report_files/trials.js (see reports/html_trials.py).
(function () {
  "use strict";
  var PAGE_SIZE = 50;
  var data = window.EARTEST_TRIALS;
  var list = document.getElementById("trial-list");
  if (!list) return;
  var count = document.getElementById("trial-count");
  if (!data) {
    count.textContent = "The trial data (report_files/trials.js) is missing beside this page.";
    return;
  }
  var F = {};
  data.fields.forEach(function (name, i) { F[name] = i; });
  var T = {};
  data.turn_fields.forEach(function (name, i) { T[name] = i; });
  var rows = data.rows;
  var form = document.getElementById("trial-filters");
  var view = document.getElementById("trial-view");
  var state = { filters: {}, page: 0, shown: [] };

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }
  function text(value) { return value === null || value === undefined ? "" : String(value); }
  function verdict(row) {
    if (row[F.error_class] && !row[F.correct] && row[F.parsed_answer] === null) return "no answer";
    return row[F.correct] ? "correct" : "wrong";
  }
  function value(row, name) {
    if (name === "verdict") return row[F.correct] ? "correct" : "wrong";
    if (name === "error_class") return text(row[F.error_class]) || "none";
    return text(row[F[name]]);
  }

  // --- filters -------------------------------------------------------------------------------
  var selects = form.querySelectorAll("select[data-filter]");
  Array.prototype.forEach.call(selects, function (select) {
    var name = select.getAttribute("data-filter");
    var seen = {};
    rows.forEach(function (row) { seen[value(row, name)] = true; });
    Object.keys(seen).sort().forEach(function (v) {
      select.appendChild(el("option", { value: v, text: v === "" ? "(none)" : v }));
    });
    select.addEventListener("change", function () { readForm(); });
  });
  var itemInput = form.querySelector("input[data-filter=item]");
  itemInput.addEventListener("input", function () { readForm(); });
  document.getElementById("trial-reset").addEventListener("click", function () {
    location.hash = "#trials";
  });

  function readForm() {
    var filters = {};
    Array.prototype.forEach.call(selects, function (s) {
      if (s.value) filters[s.getAttribute("data-filter")] = s.value;
    });
    if (itemInput.value) filters.item = itemInput.value;
    var query = Object.keys(filters).map(function (k) {
      return encodeURIComponent(k) + "=" + encodeURIComponent(filters[k]);
    }).join("&");
    history.replaceState(null, "", "#trials" + (query ? "?" + query : ""));
    apply(filters, null);
  }

  function parseHash() {
    var hash = location.hash;
    if (hash.indexOf("#trials") !== 0) return null;
    var rest = hash.slice("#trials".length);
    var filters = {}, trial = null;
    if (rest.charAt(0) === "?") {
      rest.slice(1).split("&").forEach(function (pair) {
        if (!pair) return;
        var parts = pair.split("=");
        var key = decodeURIComponent(parts[0].replace(/\+/g, " "));
        var val = decodeURIComponent((parts[1] || "").replace(/\+/g, " "));
        if (key === "trial") trial = Number(val); else filters[key] = val;
      });
    }
    return { filters: filters, trial: trial };
  }

  function apply(filters, trial) {
    state.filters = filters;
    Array.prototype.forEach.call(selects, function (s) {
      s.value = filters[s.getAttribute("data-filter")] || "";
    });
    itemInput.value = filters.item || "";
    var keys = Object.keys(filters);
    state.shown = [];
    for (var i = 0; i < rows.length; i++) {
      var ok = true;
      for (var k = 0; k < keys.length && ok; k++) {
        var key = keys[k];
        if (key === "item") ok = value(rows[i], "item_id").indexOf(filters[key]) >= 0;
        else if (key in F || key === "verdict") ok = value(rows[i], key) === filters[key];
      }
      if (ok) state.shown.push(i);
    }
    state.page = 0;
    renderList();
    if (trial !== null && rows[trial]) showTrial(trial); else view.hidden = true;
  }

  // --- the list ------------------------------------------------------------------------------
  function renderList() {
    var body = list.tBodies[0];
    body.textContent = "";
    var pages = Math.max(1, Math.ceil(state.shown.length / PAGE_SIZE));
    state.page = Math.min(state.page, pages - 1);
    var start = state.page * PAGE_SIZE;
    state.shown.slice(start, start + PAGE_SIZE).forEach(function (i) {
      var row = rows[i];
      var link = el("a", { href: "#", "data-trial": String(i), text: row[F.trial_id] });
      link.addEventListener("click", function (event) { event.preventDefault(); showTrial(i); });
      var v = verdict(row);
      body.appendChild(el("tr", { "class": v.replace(" ", "-") }, [
        el("td", {}, [link]), el("td", { text: row[F.model] }),
        el("td", { text: text(row[F.parsed_answer]) }),
        el("td", { text: text(row[F.truth]) + (row[F.truth_label] ? " (" + row[F.truth_label] + ")" : "") }),
        el("td", { "class": "verdict", text: v }),
        el("td", { text: text(row[F.error_class]) })
      ]));
    });
    count.textContent = state.shown.length + " of " + rows.length + " trials" +
      (Object.keys(state.filters).length ? " match the filters" : "");
    document.getElementById("trial-page").textContent = "page " + (state.page + 1) + " of " + pages;
  }
  document.getElementById("trial-prev").addEventListener("click", function () {
    if (state.page > 0) { state.page -= 1; renderList(); }
  });
  document.getElementById("trial-next").addEventListener("click", function () {
    if ((state.page + 1) * PAGE_SIZE < state.shown.length) { state.page += 1; renderList(); }
  });

  // --- one trial -----------------------------------------------------------------------------
  function pre(content, cls) { return el("pre", { "class": cls || "", text: text(content) }); }
  function mediaNode(part) {
    var src = data.media[part.sha256];
    if (!src) return el("p", { "class": "note", text: part.media + " " + part.sha256.slice(0, 12) + " (file not available)" });
    if (part.media.indexOf("audio/") === 0) return el("audio", { controls: "", preload: "none", src: src });
    if (part.media.indexOf("image/") === 0) return el("img", { src: src, alt: "score", "class": "score" });
    return el("a", { href: src, text: part.media });
  }
  function promptNodes(hash) {
    var prompt = data.prompts[hash];
    if (!prompt) return [el("p", { "class": "note", text: "Prompt not recorded (a run made before prompts.jsonl)." })];
    var nodes = [el("h4", { text: "System instruction" }), pre(data.texts[prompt.system], "prompt")];
    prompt.turns.forEach(function (turn, n) {
      var parts = turn.parts.map(function (part) {
        return "text" in part ? pre(data.texts[part.text], "prompt") : mediaNode(part);
      });
      nodes.push(el("div", { "class": "turn " + turn.role }, [
        el("h4", { text: (turn.role === "model" ? "Model (example reply)" : "User") + " turn " + (n + 1) })
      ].concat(parts)));
    });
    return nodes;
  }
  function field(dl, name, content) {
    if (content === null || content === undefined || content === "") return;
    dl.appendChild(el("dt", { text: name }));
    dl.appendChild(el("dd", { text: typeof content === "object" ? JSON.stringify(content) : String(content) }));
  }
  function showTrial(i) {
    var row = rows[i];
    view.textContent = "";
    view.hidden = false;
    var head = el("dl", { "class": "header" });
    ["model", "task", "experiment", "dataset", "modality", "shot", "strategy", "control",
     "rendition", "item_id", "notation", "condition"]
      .forEach(function (name) { field(head, name, row[F[name]]); });
    var verdictDl = el("dl", { "class": "header outcome" });
    field(verdictDl, "verdict", verdict(row));
    field(verdictDl, "answer read", row[F.parsed_answer]);
    field(verdictDl, "truth", text(row[F.truth]) + (row[F.truth_label] ? " (" + row[F.truth_label] + ")" : ""));
    field(verdictDl, "reading", [row[F.answer_source], row[F.answer_via]].filter(Boolean).join(", ") ||
      (row[F.solver_verdict] !== null ? "LogicLM: the solver's verdict on the transcription" : ""));
    field(verdictDl, "solver verdict", row[F.solver_verdict]);
    field(verdictDl, "transcription", row[F.transcription]);
    field(verdictDl, "true transcription", row[F.truth_transcription]);
    field(verdictDl, "error class", row[F.error_class]);
    field(verdictDl, "error message", row[F.error_message]);
    field(verdictDl, "repair errors", row[F.repair_errors] && row[F.repair_errors].length ? row[F.repair_errors] : null);
    field(verdictDl, "answer extractor", row[F.extracted_answer]);
    var replies = (data.turns[i] || []).map(function (turn) {
      var title = turn[T.purpose] + " round " + turn[T.round] +
        (turn[T.repair_reason] ? " (repairing " + turn[T.repair_reason] + ")" : "") +
        " — finish: " + turn[T.finish_reason] + (turn[T.cached] ? ", replayed from cache" : "");
      var box = el("div", { "class": "reply" }, [el("h4", { text: title })]);
      if (turn[T.purpose] !== "answer" && data.prompts[turn[T.prompt_hash]]) {
        var asked = data.prompts[turn[T.prompt_hash]].turns;
        var last = asked[asked.length - 1];
        box.appendChild(el("p", { "class": "note", text: "asked:" }));
        last.parts.forEach(function (part) { if ("text" in part) box.appendChild(pre(data.texts[part.text], "prompt")); });
      }
      box.appendChild(pre(turn[T.text], "raw-reply"));
      if (turn[T.error]) box.appendChild(el("p", { "class": "note", text: "error: " + turn[T.error] }));
      return box;
    });
    var close = el("button", { type: "button", text: "close" });
    close.addEventListener("click", function () { view.hidden = true; });
    [el("h3", { text: row[F.trial_id] + " — " + row[F.model] }), close, head,
     el("h3", { text: "Verdict" }), verdictDl, el("h3", { text: "Prompt" })]
      .concat(promptNodes(row[F.prompt_hash]))
      .concat([el("h3", { text: "Replies" })]).concat(replies)
      .forEach(function (node) { view.appendChild(node); });
    view.setAttribute("data-trial", String(i));
    view.scrollIntoView();
  }

  function onHash() {
    var parsed = parseHash();
    if (!parsed) return;
    apply(parsed.filters, parsed.trial);
    if (parsed.trial === null) document.getElementById("trials").scrollIntoView();
  }
  window.addEventListener("hashchange", onHash);
  if (!parseHash()) apply({}, null); else onHash();
  // when the first page of trials is on screen (benchmarks/report_load.py reads it)
  document.documentElement.setAttribute("data-trials-ready", performance.now().toFixed(0));
})();
