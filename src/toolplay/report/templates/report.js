"use strict";
/* Scenario browser and trajectory viewer. Every piece of run data is put on the page with
   textContent or as an attribute value, never parsed as HTML. */
(async function () {
  const source = document.getElementById("run-data");
  if (!source) return;
  const data = JSON.parse(source.textContent);
  const $ = (id) => document.getElementById(id);

  /* The records come gzip-compressed (base64): a light index for the table, and the
     conversations in chunks inflated only when one of theirs is opened. */
  async function inflate(text) {
    const raw = atob(text);
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }
  if (typeof DecompressionStream === "undefined") {
    $("viewer").textContent = "This browser cannot read the report's compressed data " +
      "(it needs DecompressionStream: Chrome 80, Firefox 113, Safari 16.4 or later).";
    return;
  }
  const entries = await inflate(data.index);
  const chunks = new Map();
  function details(e) {
    if (!chunks.has(e.chunk)) chunks.set(e.chunk, inflate(data.chunks[e.chunk]));
    return chunks.get(e.chunk).then((list) => Object.assign({}, e, list[e.at]));
  }

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function add(parent, ...children) {
    for (const child of children) if (child) parent.appendChild(child);
    return parent;
  }
  function num(value) {
    return typeof value === "number" ? value.toFixed(3) : "–";
  }
  function pretty(value) {
    if (typeof value === "string") return value;
    return JSON.stringify(value, null, 2);
  }
  function failed(e) {
    return e.status === "error" || e.score === null || e.score < 1;
  }
  function outcome(e) {
    if (e.status === "error") return ["error", "error"];
    if (e.score === null) return ["not scored", "neutral"];
    if (e.score >= 1) return ["pass", "pass"];
    if (e.score > 0) return ["partial", "part"];
    return ["fail", "fail"];
  }
  function key(e) {
    return e.id + "#" + e.trial;
  }

  /* ---------- filters and table ---------- */
  const search = $("f-search"), catSel = $("f-category"), augSel = $("f-augmentation");
  const failedOnly = $("f-failed"), body = $("scenario-rows"), count = $("f-count");
  /* Trials whose simulated user erred (user-error checks): a filter, shown only when any. */
  const userOnly = $("f-user");
  const anyUserErrors = entries.some((e) => e.user_error_count);
  if (!anyUserErrors && userOnly) userOnly.parentElement.style.display = "none";
  function fillSelect(select, values) {
    if (!select) return;
    for (const value of values) {
      const option = el("option", null, value);
      option.value = value;
      select.appendChild(option);
    }
    if (!values.length) select.parentElement.style.display = "none";
  }
  fillSelect(catSel, data.categories);
  fillSelect(augSel, data.augmentations);

  let sortKey = "id", sortDir = 1, selected = null, perspective = "all";
  const anyTokens = entries.some((e) => e.usage && e.usage.calls);
  if (!anyTokens) for (const th of document.querySelectorAll(".tokens-col")) th.remove();
  const sorters = {
    id: (e) => e.id + "\u0000" + String(e.trial).padStart(6, "0"),
    score: (e) => (e.score === null ? -1 : e.score),
    turns: (e) => e.turn_count,
    tokens: (e) => (e.usage.prompt_tokens || 0) + (e.usage.completion_tokens || 0),
    outcome: (e) => outcome(e)[0] + " " + (e.termination || ""),
  };
  for (const th of document.querySelectorAll("th[data-sort]")) {
    th.addEventListener("click", () => {
      const k = th.getAttribute("data-sort");
      sortDir = sortKey === k ? -sortDir : 1;
      sortKey = k;
      renderTable();
    });
  }

  function visible() {
    const q = (search.value || "").toLowerCase();
    const cat = catSel ? catSel.value : "";
    const aug = augSel ? augSel.value : "";
    return entries.filter((e) =>
      (!failedOnly.checked || failed(e)) &&
      (!userOnly || !userOnly.checked || e.user_error_count > 0) &&
      (!cat || e.categories.includes(cat)) &&
      (!aug || e.augmentation === aug) &&
      (!q || e.id.toLowerCase().includes(q) || (e.description || "").toLowerCase().includes(q)));
  }

  function renderTable() {
    const rows = visible();
    const by = sorters[sortKey];
    rows.sort((a, b) => (by(a) < by(b) ? -1 : by(a) > by(b) ? 1 : 0) * sortDir);
    body.replaceChildren();
    for (const e of rows) {
      const tr = el("tr");
      tr.dataset.key = key(e);
      if (selected === key(e)) tr.classList.add("selected");
      const idCell = el("td");
      add(idCell, el("div", "sid", data.trials > 1 ? e.id + " · t" + e.trial : e.id));
      for (const c of e.categories) add(idCell, el("span", "cat", c));
      const [word, cls] = outcome(e);
      const status = el("td");
      const pill = el("span", "pill " + cls, word);
      pill.title = "ended: " + (e.termination || "?");
      add(status, pill);
      if (e.user_error_count) {
        const flag = el("span", "pill user", "user ✖" + e.user_error_count);
        flag.title = e.user_error_count + " message(s) flagged by the user-error checks";
        add(status, flag);
      }
      const tokens = (e.usage.prompt_tokens || 0) + (e.usage.completion_tokens || 0);
      add(tr, idCell, el("td", "num", num(e.score)), status, el("td", "num", e.turn_count),
        anyTokens ? el("td", "num", tokens ? tokens.toLocaleString("en-US") : "–") : null);
      tr.addEventListener("click", () => select(e));
      body.appendChild(tr);
    }
    count.textContent = rows.length + " of " + entries.length + " shown";
  }
  /* The hash holds the selection and the filters, so a filtered view can be linked. */
  function writeHash() {
    const params = new URLSearchParams();
    const e = entries.find((x) => key(x) === selected);
    if (e) { params.set("scenario", e.id); params.set("trial", String(e.trial)); }
    if (search.value) params.set("q", search.value);
    if (catSel && catSel.value) params.set("category", catSel.value);
    if (augSel && augSel.value) params.set("augmentation", augSel.value);
    if (failedOnly.checked) params.set("failed", "1");
    if (userOnly && userOnly.checked) params.set("user_errors", "1");
    if (perspective !== "all") params.set("view", perspective);
    const target = "#" + params.toString();
    if (location.hash !== target) history.replaceState(null, "", target);
  }
  function readFilters(params) {
    search.value = params.get("q") || "";
    if (catSel) catSel.value = params.get("category") || "";
    if (augSel) augSel.value = params.get("augmentation") || "";
    failedOnly.checked = params.get("failed") === "1";
    if (userOnly) userOnly.checked = params.get("user_errors") === "1";
    const view = params.get("view");
    perspective = view === "user" || view === "assistant" ? view : "all";
  }
  for (const input of [search, catSel, augSel, failedOnly, userOnly]) {
    if (input) input.addEventListener("input", () => { renderTable(); writeHash(); });
  }

  /* ---------- trajectory viewer ---------- */
  function select(e) {
    selected = key(e);
    for (const tr of body.querySelectorAll("tr")) {
      tr.classList.toggle("selected", tr.dataset.key === selected);
    }
    writeHash();
    const wanted = selected;
    details(e).then((full) => { if (selected === wanted) renderViewer(full); });
  }

  function fact(label, value) {
    const span = el("span", null, label + " ");
    add(span, el("b", null, value));
    return span;
  }

  function evidenceTable(title, columns, rows) {
    const box = el("div", "evidence");
    add(box, el("h3", null, title));
    const table = el("table", "data");
    const head = el("tr");
    for (const c of columns) add(head, el("th", null, c));
    add(table, add(el("thead"), head));
    const tb = el("tbody");
    for (const row of rows) {
      const tr = el("tr");
      for (const cell of row) {
        if (cell instanceof Node) add(tr, add(el("td"), cell));
        else add(tr, el("td", null, cell));
      }
      tb.appendChild(tr);
    }
    add(table, tb);
    return add(box, add(el("div", "table-wrap"), table));
  }

  function callBlock(call, e) {
    const wrap = el("div");
    const head = el("div");
    add(head, el("span", "toolname", call.name));
    const real = e.tool_names[call.name];
    if (real && real !== call.name) add(head, el("span", "badge renamed", "real tool: " + real));
    add(head, el("span", "idx", " " + call.id));
    let args = call.arguments, note = null;
    try {
      args = JSON.stringify(JSON.parse(call.arguments), null, 2);
    } catch (err) {
      note = el("div", "err", "arguments are not valid JSON");
    }
    return add(wrap, head, note, el("pre", null, args));
  }

  function changeText(c) {
    if (c.op === "update" && c.before && c.after) {
      const lines = [];
      for (const k of Object.keys(c.after)) {
        if (JSON.stringify(c.before[k]) !== JSON.stringify(c.after[k])) {
          lines.push(k + ": " + JSON.stringify(c.before[k]) + " → " + JSON.stringify(c.after[k]));
        }
      }
      return lines.join("\n") || "(no field changed)";
    }
    return JSON.stringify(c.op === "delete" ? c.before : c.after, null, 1);
  }

  /* What the model was really sent and really said for this message. */
  function exchangeBlock(x) {
    const det = el("details", "exchange");
    const local = x.prompt !== null && x.prompt !== undefined;
    add(det, el("summary", null, (local ? "Exact prompt and raw output" : "Raw request and response") +
      (x.cached ? " (served from the response cache)" : "")));
    if (local) {
      add(det, el("div", "who", "prompt the model read"), el("pre", null, x.prompt));
      add(det, el("div", "who", "raw output"), el("pre", null, x.output === null ? "" : x.output));
    } else {
      add(det, el("div", "who", "request"), el("pre", null, pretty(x.request)));
      add(det, el("div", "who", "response"), el("pre", null, pretty(x.response)));
    }
    return det;
  }

  function messageNode(m, e, marks) {
    const seen = m.visible_to || [];
    let kind = "assistant", who = "Assistant";
    if (m.sender === "system") { kind = "system"; who = "System prompt"; }
    else if (m.sender === "user" && m.tool_calls && m.tool_calls.length) { kind = "meta"; who = "User"; }
    else if (m.sender === "user") { kind = "user"; who = "User"; }
    else if (m.sender === "environment") {
      kind = "result" + (m.error ? " failed" : "");
      who = "Tool result";
    } else if (m.tool_calls && m.tool_calls.length) { kind = "call"; who = "Assistant → tools"; }
    const node = el("div", "msg " + kind + (m.from_reference ? " replayed" : ""));
    node.id = "msg-" + m.index;
    if (perspective !== "all" && !seen.includes(perspective)) node.classList.add("hidden-here");
    if (kind === "system") {
      const det = el("details");
      const exact = e.messages.some((x) => x.exchange);
      add(det, el("summary", null, "System prompt (as toolplay wrote it" +
        (exact ? "; what the model really read is under each of its answers)" : ")")),
        el("pre", null, m.content || ""));
      return add(node, det);
    }
    if (kind === "meta") {
      const names = m.tool_calls.map((c) => c.name).join(", ");
      add(node, el("div", null, "#" + m.index + " · the user called " + names + " (ends the conversation)"));
      for (const mark of marks.get(m.index) || []) add(node, mark);
      return node;
    }
    const whoRow = el("div", "who", who);
    if (m.sender === "environment") add(whoRow, el("span", "toolname", m.tool_name || "?"));
    if (m.from_reference) add(whoRow, el("span", "tag", "replayed from the reference"));
    if (m.turn !== null && m.turn !== undefined) add(whoRow, el("span", "tag", "turn " + m.turn));
    add(whoRow, el("span", "idx", "#" + m.index + (seen.length ? " · seen by " + seen.join(", ") : "")));
    add(node, whoRow);
    if (m.content) add(node, el("div", "text", m.content));
    for (const call of m.tool_calls || []) add(node, callBlock(call, e));
    if (m.sender === "environment") {
      if (m.error) {
        add(node, el("div", "err", (m.error_type || "error") + ": "), el("pre", null, m.error));
      } else {
        add(node, el("pre", null, pretty(m.result)));
      }
    }
    if (m.exchange) add(node, exchangeBlock(m.exchange));
    for (const mark of marks.get(m.index) || []) add(node, mark);
    if ((e.user_errors || []).some((u) => u.message_index === m.index)) node.classList.add("flagged");
    const changes = e.changes.filter((c) => c.index === m.index);
    if (changes.length) {
      const box = el("div", "changes");
      add(box, el("div", null, "World changed (" + changes.length + ")"));
      for (const c of changes) {
        add(box, el("div", "change", c.table + " · " + c.op + "\n" + changeText(c)));
      }
      add(node, box);
    }
    return node;
  }

  function renderViewer(e) {
    const view = $("viewer");
    view.replaceChildren();
    const head = el("div", "viewer-head");
    add(head, el("h2", null, e.id + (data.trials > 1 ? " · trial " + e.trial : "")));
    if (e.description) add(head, el("p", "sub", e.description));
    const [word, cls] = outcome(e);
    const facts = el("div", "facts");
    add(facts, add(el("span"), el("span", "pill " + cls, word)), fact("score", num(e.score)),
      fact("method", e.evaluation || "–"), fact("ended", e.termination || "–"),
      fact("turns", e.turn_count));
    const u = e.usage || {};
    if (u.calls) add(facts, fact("tokens", (u.prompt_tokens || 0).toLocaleString("en-US") + " + " + (u.completion_tokens || 0).toLocaleString("en-US")));
    if (e.augmentation) add(facts, fact("augmentation", e.augmentation));
    if (e.split) add(facts, fact("split", e.split));
    add(head, facts);
    for (const c of e.categories) add(head, el("span", "cat", c));
    add(view, head);
    if (e.error) {
      const box = el("div", "error-box");
      add(box, el("div", "err", "Not scored: infrastructure error"), el("pre", null, e.error));
      add(view, box);
    }
    const ev = e.evidence || {};
    const marks = new Map();
    function mark(index, node) {
      if (index === null || index === undefined) return;
      if (!marks.has(index)) marks.set(index, []);
      marks.get(index).push(node);
    }
    const jump = (index) => {
      if (index === null || index === undefined) return "–";
      const a = el("a", null, "#" + index);
      a.href = "#";
      a.addEventListener("click", (evt) => {
        evt.preventDefault();
        const target = document.getElementById("msg-" + index);
        if (target) target.scrollIntoView({ block: "center", behavior: "smooth" });
      });
      return a;
    };
    if (ev.milestones && ev.milestones.length) {
      const reached = (m) => m.similarity === null || m.similarity > 0;
      add(view, evidenceTable("Milestones → messages", ["milestone", "matched message", "similarity", "constraints"],
        ev.milestones.map((m) => [m.label, reached(m) ? jump(m.message_index) : "not reached",
          num(m.similarity), m.constraints || ""])));
      for (const m of ev.milestones) {
        if (!reached(m)) continue;
        mark(m.message_index, el("span", "badge milestone" + (m.similarity < 1 ? " weak" : ""),
          "◆ " + m.label + " · " + num(m.similarity)));
      }
    }
    if (ev.minefields && ev.minefields.length) {
      add(view, evidenceTable("Minefields", ["minefield", "closest message", "similarity", "fired"],
        ev.minefields.map((m) => [m.label, m.fired ? jump(m.message_index) : "–", num(m.similarity), m.fired ? "FIRED" : "no"])));
      for (const m of ev.minefields) {
        if (m.fired) mark(m.message_index, el("span", "badge minefield", "✖ minefield fired: " + m.label));
      }
      if (ev.minefields.some((m) => m.fired)) {
        const before = ev.before_veto;
        add(view, el("div", "error-box", "A minefield fired, so the score is 0" +
          (typeof before === "number" ? " (the milestones alone reached " + num(before) + ")." : ".")));
      }
    }
    if (ev.slot_rows && ev.slot_rows.length) {
      add(view, evidenceTable("Slots: label vs prediction", ["slot", "label", "predicted", "verdict"], ev.slot_rows));
    }
    for (const table of ev.tables || []) add(view, evidenceTable(table.title, table.columns, table.rows));
    for (const note of ev.notes || []) add(view, el("div", "notes", note));
    if (ev.calls && ev.calls.length) {
      const at = ev.call_columns.indexOf("message");
      add(view, evidenceTable("Predicted calls → ground truth", ev.call_columns,
        ev.calls.map((row) => row.map((cell, i) => (i === at ? (cell >= 0 ? jump(cell) : "–") : cell)))));
    }
    for (const m of ev.call_marks || []) {
      const cls = m.kind === "good" ? "milestone" : m.kind === "bad" ? "minefield" : "milestone weak";
      mark(m.message_index, el("span", "badge " + cls, (m.kind === "good" ? "✓ " : m.kind === "bad" ? "✖ " : "○ ") + m.label));
    }
    if (ev.missed && ev.missed.length) {
      add(view, el("div", "error-box", "Ground-truth calls never matched: " + ev.missed.join(", ")));
    }
    const userErrors = e.user_errors || [];
    if (userErrors.length) {
      add(view, evidenceTable("Simulated user errors", ["kind", "message", "evidence"],
        userErrors.map((u) => [u.kind, jump(u.message_index), u.evidence])));
      for (const u of userErrors) {
        mark(u.message_index, el("span", "badge user-error", "✖ user error: " + u.kind + " · " + u.evidence));
      }
    }
    for (const j of e.judged || []) {
      if (j.status !== "ok") {
        add(view, el("div", "notes", "Judge " + j.judge + ": malformed answer (" + (j.problem || "?") + "), kept as such"));
        continue;
      }
      if (!j.errors.length) {
        add(view, el("div", "notes", "Judge " + j.judge + ": no user error"));
        continue;
      }
      add(view, evidenceTable("Judge " + j.judge + ": user errors", ["kind", "message", "severity", "explanation"],
        j.errors.map((u) => [u.kind, jump(u.message_index), u.severity, u.explanation])));
      for (const u of j.errors) {
        mark(u.message_index, el("span", "badge judged", "◇ judge: " + u.kind + " (" + u.severity + ") · " + u.explanation));
      }
    }
    if (ev.error_types && ev.error_types.length) {
      add(view, el("div", "notes", "Error types: " + ev.error_types.join(" · ")));
    }
    const bar = el("div", "perspective");
    for (const [value, label] of [["all", "Everything"], ["user", "As the user saw it"], ["assistant", "As the assistant saw it"]]) {
      const button = el("button", perspective === value ? "on" : null, label);
      button.type = "button";
      button.addEventListener("click", () => { perspective = value; writeHash(); renderViewer(e); });
      bar.appendChild(button);
    }
    add(view, bar);
    const convo = el("div", "convo");
    for (const m of e.messages) add(convo, messageNode(m, e, marks));
    if (e.termination) add(convo, el("div", "msg meta", "Conversation ended: " + e.termination));
    add(view, convo);
    if (e.details && Object.keys(e.details).length) {
      const det = el("details", "evidence");
      add(det, el("summary", null, "Score evidence (raw)"), el("pre", null, JSON.stringify(e.details, null, 2)));
      add(view, det);
    }
  }

  function fromHash() {
    const wanted = new URLSearchParams(location.hash.slice(1));
    return entries.find((e) => e.id === wanted.get("scenario") &&
      String(e.trial) === (wanted.get("trial") || "0"));
  }
  window.addEventListener("hashchange", () => {
    const e = fromHash();
    if (e && key(e) !== selected) {
      select(e);
      $("scenarios").scrollIntoView();
    }
  });
  readFilters(new URLSearchParams(location.hash.slice(1)));
  renderTable();
  const shown = visible();
  const first = fromHash() || shown.find(failed) || shown[0] || entries.find(failed) || entries[0];
  if (first) select(first);
})();
