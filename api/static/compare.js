// The side-by-side comparison (/compare) and the pattern search (/patterns): each page asks its own URL
// for JSON (?format=json) with the form's fields, which are kept in the address so a result can be bookmarked.
"use strict";

const page = document.body.dataset.page;
const form = document.querySelector("form");
const status = document.getElementById("status");
const summary = document.getElementById("summary");

/** Show `text` in the status line (hidden when empty); `error` marks it as the answer's error message. */
function say(text, error = false) {
  status.textContent = text;
  status.hidden = !text;
  status.classList.toggle("error", error);
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function stepLink(step) {
  const who = [step.agent || "", step.recipient ? "→" + step.recipient : ""].join("");
  return el("a", { href: step.url, class: "step", title: `${step.sequence}. ${who} ${step.action}` }, step.text);
}

function fillFormFromAddress() {
  const params = new URLSearchParams(location.search);
  for (const [k, v] of params) {
    const input = form.elements.namedItem(k);
    if (input && input.type === "checkbox") input.checked = v === "1";
    else if (input) input.value = v;
  }
  return params;
}

function query() {
  const params = new URLSearchParams();
  for (const input of form.elements) {
    if (!input.name || input.type === "submit") continue;
    if (input.type === "checkbox") {
      if (input.checked) params.set(input.name, "1");
    } else if (input.value.trim()) {
      params.set(input.name, input.value.trim());
    }
  }
  return params;
}

async function getJson(path, params) {
  const api = new URLSearchParams(params);
  api.delete("diff");
  api.set("format", "json");
  const response = await fetch(`${path}?${api}`, { headers: { Accept: "application/json" } });
  const body = await response.json();
  if (!response.ok) throw new Error(body.message || response.statusText);
  return body;
}

const KIND = { same: "＝", substitution: "≈", deletion: "甲", insertion: "乙", joined: "⊂" };

async function runCompare(params) {
  delete document.body.dataset.rendered;
  const table = document.getElementById("alignment");
  const body = table.querySelector("tbody");
  if (!params.get("a") || !params.get("b")) return;
  say("比較中 comparing…");
  try {
    const r = await getJson("/compare", params);
    body.replaceChildren();
    const onlyDiff = params.get("diff") === "1";
    for (const row of r.rows) {
      if (onlyDiff && row.kind === "same") continue;
      const cell = (step, side) => {
        const td = el("td", { class: side });
        if (step) {
          td.append(el("span", { class: "who" }, `${step.sequence}. ${step.agent || ""}${step.recipient ? "→" + step.recipient : ""} `), stepLink(step));
        }
        return td;
      };
      body.append(el("tr", { class: row.kind, "data-kind": row.kind }, cell(row.a, "a"), el("td", { class: "kind", title: row.within ? `${row.kind}: within ${row.within.sequence}. ${row.within.text}` : row.kind }, KIND[row.kind]), cell(row.b, "b")));
    }
    summary.textContent = `${r.a} ↔ ${r.b}: similarity ${r.similarity}; ${r.same} same, ${r.substitutions} substituted, ${r.deletions} only in A, ${r.insertions} only in B, ${r.joined} joined`;
    summary.hidden = false;
    table.hidden = false;
    say("");
    document.body.dataset.rendered = "compare";
  } catch (e) {
    table.hidden = true;
    summary.hidden = true;
    say(e.message, true);
  }
}

async function runPatterns(params) {
  delete document.body.dataset.rendered;
  const hits = document.getElementById("hits");
  if (!params.get("seq")) return;
  say("尋 searching…");
  try {
    const r = await getJson("/patterns", params);
    hits.replaceChildren();
    for (const rite of r.rites) {
      const list = el("ol");
      for (const o of rite.occurrences) {
        const li = el("li", { "data-edition": o.edition });
        for (const step of o.steps) li.append(stepLink(step));
        list.append(li);
      }
      hits.append(el("section", { class: "rite-hits", "data-rite": rite.rite }, el("h2", {}, `${rite.label} (${rite.count})`), list));
    }
    summary.textContent = `${r.total} occurrence${r.total === 1 ? "" : "s"} within ${r.within} steps` + (r.truncated ? " (list cut)" : "");
    summary.hidden = false;
    say("");
    document.body.dataset.rendered = "patterns";
  } catch (e) {
    hits.replaceChildren();
    summary.hidden = true;
    say(e.message, true);
  }
}

async function fillSequences() {
  const list = document.getElementById("sequences");
  if (!list) return;
  try {
    const rites = await (await fetch("/rites", { headers: { Accept: "application/json" } })).json();
    for (const r of rites) {
      const key = r.rite.split("/").pop();
      list.append(el("option", { value: r.label["zh-Hant"] || key }));
      for (const e of r.editions) list.append(el("option", { value: `${key}/${e.edition.split("/").pop()}` }));
    }
  } catch (e) {
    /* the list only helps typing */
  }
}

const run = page === "compare" ? runCompare : runPatterns;
form.addEventListener("submit", (event) => {
  event.preventDefault();
  const params = query();
  history.pushState(null, "", `${location.pathname}?${params}`);
  run(params);
});
window.addEventListener("popstate", () => run(fillFormFromAddress()));
fillSequences();
run(fillFormFromAddress());
