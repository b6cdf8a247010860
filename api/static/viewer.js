/* yili-kg viewer: the toast network of a rite, the timeline of its steps by phase, and one page per step.
 *
 * Plain JavaScript over this server's JSON API (GET /rites, /toasts and /steps page by page, /phases, /steps/{rite}/{edition}/{block}/{ordinal})
 * and the toast network as /export/cytoscape draws it (one node per role concept, English glosses by concept).  Cytoscape.js (vendored under /static/vendor) draws the network.
 * Nothing is loaded from another host.
 *
 * Addresses: "/" (or "/#network?rite=yanli") the network, "/#timeline?rite=yanli&agent=主人&action=&vessel=" the
 * timeline, "/steps/{rite}/{edition}/{block}/{ordinal}" a step (the server answers a browser there with this page).
 * window.cy is the Cytoscape instance once the network has been drawn.
 */
"use strict";

const FONT = '"Yili Rare", "Noto Serif CJK TC", "Noto Serif CJK SC", "Noto Sans CJK TC", "Songti TC", "SimSun", serif';
const TYPE_COLOURS = {
  献: "#b2182b", 獻: "#b2182b", 酢: "#2166ac", 酬: "#1b7837", 媵: "#762a83",
  旅酬: "#d66a00", 赐: "#8c6d1f", 賜: "#8c6d1f",
};
const LAYERS = { jing: "經", zhu: "注", shu: "疏" };
const FIELDS = [
  ["agent", "人", "actor"], ["action", "事", "action"], ["recipient", "受", "recipient"], ["object", "物", "object"],
  ["vessel", "器", "cup"], ["wine", "酒", "wine"], ["location", "位", "place"], ["facing", "面", "facing"],
];

const state = {
  rites: null, // [{key, iri, label, editions}]
  rite: null, // the rite shown
  edition: null, // the key of the edition shown (one at a time; the rite's 述註 by default)
  token: 0, // the render in progress: an older one stops at its next await
  cache: new Map(), // url -> promise of JSON
  cy: null,
  cyRite: null,
};

/* ---------------------------------------------------------------------------------------------- helpers */

/** GET a URL of this API as JSON (cached); a non-2xx answer throws an Error with the API's message. */
function getJSON(url) {
  if (!state.cache.has(url)) {
    const promise = fetch(url, { headers: { Accept: "application/json" } }).then(async (response) => {
      let body = null;
      try { body = await response.json(); } catch (_) { /* not JSON */ }
      if (!response.ok) throw new Error((body && body.message) || `${url}: ${response.status} ${response.statusText}`);
      return body;
    });
    promise.catch(() => state.cache.delete(url));
    state.cache.set(url, promise);
  }
  return state.cache.get(url);
}

/** A query string from an object, leaving out empty values. */
function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== "") q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** An element: el("a", {href: "/", class: "x", dataset: {k: "v"}}, "text", child, ...). */
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (k === "style") e.style.cssText = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
}

/** The roles named in a label the API writes for several (賔+卿 together, 賔|长 either). */
function roles(label) {
  return label ? label.split(/[+|]/).filter(Boolean) : [];
}

function colour(type) {
  return TYPE_COLOURS[type] || "#555";
}

function status(message, error = false) {
  const p = document.getElementById("status");
  p.textContent = message || "";
  p.hidden = !message;
  p.classList.toggle("error", error);
}

function stepPath(url) {
  return url && url.startsWith("/steps/") ? url : null;
}

/* ---------------------------------------------------------------------------------------------- glosses */

/** A term as the edition writes it, with the English gloss of the concept the step names (concepts: the API's
 * [{iri, en, definition}] for this field, one per party of a joint label, in the label's order when they are as
 * many, else all glossed together).  A gloss is never looked up by the written label: one label can name two
 * concepts (媵 the bride's companion and 媵 to present a cup). */
function term(label, concepts = []) {
  if (!label) return el("span", { class: "none" }, "—");
  const names = roles(label);
  const one = concepts.length === names.length;
  const glossOf = (i) => (one ? [concepts[i]] : i === names.length - 1 ? concepts : []);
  return el("span", { class: "term" }, names.map((name, i) => {
    const cs = glossOf(i).filter(Boolean);
    return [
      i ? el("span", { class: "joiner" }, label.includes("|") ? " 或 " : " ＋ ") : null,
      el("span", { class: "zh", title: cs.map((c) => c.definition || "").filter(Boolean).join("; ") || null,
        dataset: { term: name, concept: cs.map((c) => c.iri).join(" ") } }, name),
      el("small", { class: "gloss", lang: "en" }, cs.map((c) => c.en || "").filter(Boolean).join("; ")),
    ];
  }));
}

/* ---------------------------------------------------------------------------------------------- routing */

function route() {
  const m = location.pathname.match(/^\/steps\/([^/]+)\/([^/]+)\/(\d+)\/(\d+)\/?$/);
  if (m) return { view: "step", rite: decodeURIComponent(m[1]), edition: decodeURIComponent(m[2]), path: location.pathname, params: new URLSearchParams() };
  const [view, q] = location.hash.slice(1).split("?");
  const params = new URLSearchParams(q || "");
  // no view named ("/"): the rite list when the graph holds several rites, else the one rite's network
  const named = { timeline: "timeline", plan: "plan", rites: "rites", search: "search", network: "network" }[view];
  return { view: named || (view ? "network" : "home"), rite: params.get("rite"), edition: params.get("edition"), params };
}

/** The key of an edition IRI (its last segment: shuzhu, zhushu, zhengzhu, shuzhu-excerpt). */
const editionKey = (iri) => String(iri).split("/").pop();

/** The edition shown by default for a rite: its 述註 (shuzhu), else its first. */
function defaultEdition(rite) {
  const keys = rite.editions.map((e) => editionKey(e.edition));
  return keys.find((k) => k === "shuzhu") || keys.find((k) => k.startsWith("shuzhu")) || keys[0];
}

const EDITION_NAMES = { shuzhu: "述註", zhushu: "注疏", zhengzhu: "鄭注", "shuzhu-excerpt": "述註 (excerpt)" };

function fillEditions(rite, chosen) {
  const select = document.getElementById("edition");
  select.replaceChildren(...rite.editions.map((e) => {
    const key = editionKey(e.edition);
    return el("option", { value: key }, `${EDITION_NAMES[key] || key} · ${e.steps} steps, ${e.toasts} toasts`);
  }));
  select.value = chosen;
}

function navigate(url, replace = false) {
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  render();
}

document.addEventListener("click", (event) => {
  const a = event.target.closest("a[data-nav]");
  if (!a || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(a.getAttribute("href"));
});
window.addEventListener("popstate", () => render());

async function loadRites() {
  if (!state.rites) {
    const rites = await getJSON("/rites");
    state.rites = rites.map((r) => ({ ...r, key: r.rite.split("/").pop() }));
    const select = document.getElementById("rite");
    select.replaceChildren(...state.rites.map((r) =>
      el("option", { value: r.key }, `${r.label["zh-Hant"] || r.key}${r.label.en ? ` · ${r.label.en}` : ""}`)));
    select.addEventListener("change", () => {
      const view = ["timeline", "plan"].includes(route().view) ? route().view : "network";
      navigate(`/#${view}${query({ rite: select.value })}`);
    });
    const editions = document.getElementById("edition");
    editions.addEventListener("change", () => {
      const view = route().view === "timeline" ? "timeline" : "network";
      navigate(`/#${view}${query({ rite: state.rite, edition: editions.value })}`);
    });
  }
  return state.rites;
}

async function render() {
  const token = ++state.token;
  const r = route();
  delete document.body.dataset.rendered;
  status("");
  try {
    const rites = await loadRites();
    if (token !== state.token) return;
    if (!rites.length) throw new Error("The graph holds no rite.");
    const find = (key) => rites.find((x) => x.key === key);
    // a rite or edition the graph does not hold is named, never replaced by another
    if (r.rite && !find(r.rite)) {
      throw new Error(`unknown rite '${r.rite}': the graph holds ${rites.map((x) => x.key).join(", ")}`);
    }
    state.rite = r.rite || (find(state.rite) ? state.rite : rites[0].key);
    const rite = find(state.rite);
    const keys = rite.editions.map((e) => editionKey(e.edition));
    if (r.edition && !keys.includes(r.edition)) {
      throw new Error(`unknown edition '${r.edition}' of ${state.rite}: it has ${keys.join(", ")}`);
    }
    state.edition = r.edition || (r.rite || !keys.includes(state.edition) ? defaultEdition(rite) : state.edition);
    document.getElementById("rite").value = state.rite;
    if (r.view === "home") r.view = rites.length > 1 ? "rites" : "network";
    fillEditions(rite, state.edition);
    for (const section of document.querySelectorAll(".view")) section.hidden = section.id !== `view-${r.view}`;
    for (const a of document.querySelectorAll("nav a[data-view]")) {
      if (a.dataset.view === r.view) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    }
    if (r.view === "step") await renderStep(r.path, token);
    else if (r.view === "rites") renderRites(rites);
    else if (r.view === "timeline") await renderTimeline(state.rite, state.edition, r.params, token);
    else if (r.view === "plan") await renderPlan(state.rite, r.params, token);
    else if (r.view === "search" && typeof renderSearch === "function") await renderSearch(r.params, token);
    else await renderNetwork(state.rite, state.edition, token);
    if (token === state.token) document.body.dataset.rendered = r.view;
  } catch (error) {
    if (token === state.token) {
      for (const section of document.querySelectorAll(".view")) section.hidden = true;
      status(error.message, true);
    }
  }
}

/* ---------------------------------------------------------------------------------------------- floor plan */

const SVG = "http://www.w3.org/2000/svg";
/** An SVG element with attributes. */
function svgEl(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}
/** The unit vector of a facing as written (北面 up, 東面/东面 right …; 东北面 between). */
function facingVector(facing) {
  if (!facing) return null;
  let dx = 0, dy = 0;
  if (/[北]/.test(facing)) dy += 1;
  if (/[南]/.test(facing)) dy -= 1;
  if (/[東东]/.test(facing)) dx += 1;
  if (/[西]/.test(facing)) dx -= 1;
  const n = Math.hypot(dx, dy);
  return n ? [dx / n, dy / n] : null;
}

/** The floor plan: the ground of ontology/ground.ttl north up (plan y to the north, so the SVG's y is -y),
 * each person a mark at his place after the chosen step, with a tick for his facing; a slider and a play
 * button run the rite step by step; a click on a mark lists where he has been. */
async function renderPlan(rite, params, token) {
  document.title = "位 Floor plan · 儀禮 yili-kg";
  const [ground, steps, moves, stages, phases, furnishings] = await Promise.all([
    getJSON("/ground"), allSteps({ rite }), getJSON(`/moves${query({ rite })}`), getJSON(`/stages${query({ rite })}`),
    getJSON(`/phases${query({ rite })}`), getJSON(`/furnishings${query({ rite })}`),
  ]);
  if (token !== state.token) return;
  const edition = steps.length ? steps[0].edition : null;
  const chain = steps.filter((s) => s.edition === edition);
  const mine = moves.filter((m) => m.edition === edition);
  const things = furnishings.filter((f) => f.edition === edition);
  const svg = document.getElementById("plan-svg");
  svg.setAttribute("viewBox", "-1.9 -2.3 3.8 6.2"); // x from -1.9 to 1.9; plan y from 2.3 (north) down to -3.9
  const base = svgEl("g", { class: "ground" });
  for (const f of ground) {
    if (Math.abs(f.x) > 2 || f.y < -4 || f.key.endsWith("qin") || f.key.endsWith("miao")) continue;
    const label = svgEl("text", { class: "feature-label", x: f.x + 0.02, y: -f.y - 0.02 }, f.label);
    if (f.width || f.depth) {
      const line = !f.width || !f.depth;
      base.append(svgEl("rect", { class: `feature${line ? " line" : ""}`, "data-key": f.key, x: f.x - f.width / 2, y: -f.y - f.depth / 2,
        width: Math.max(f.width, 0.004), height: Math.max(f.depth, 0.004) }));
    } else {
      base.append(svgEl("circle", { class: "feature", "data-key": f.key, cx: f.x, cy: -f.y, r: 0.025 }));
    }
    base.append(label);
  }
  const people = svgEl("g", { class: "people" });
  const setOut = svgEl("g", { class: "furnishings" });
  svg.replaceChildren(base, setOut, people);
  const stageOf = new Map();
  for (const st of stages) for (const m of st.members) stageOf.set(m, st);
  const phaseOf = new Map();
  for (const g of groupByPhase(chain, phases)) for (const s of g.steps) phaseOf.set(s.id, g.phase);
  const slider = document.getElementById("plan-slider");
  slider.max = String(Math.max(1, chain.length));
  let selected = null;
  const at = Number(params.get("at")) || 1;
  slider.value = String(Math.min(Math.max(1, at), chain.length || 1));

  function draw() {
    const seq = Number(slider.value);
    const step = chain[seq - 1];
    const now = new Map();
    for (const m of mine) {
      if (m.sequence > seq) break;
      if (m.present === false) now.delete(m.role || m.person); // the text took him out (出, seen off)
      else now.set(m.role || m.person, m);
    }
    people.replaceChildren();
    // the vessels and mats the text has set out by this step, and not cleared away (徹)
    setOut.replaceChildren(...things.filter((f) => f.sequence <= seq && (f.removed_sequence === null || f.removed_sequence > seq)).map((f) => {
      const g = svgEl("g", { class: `furnishing ${f.kind}`, "data-object": f.object, "data-kind": f.kind, "data-place": f.place,
        "data-x": f.x, "data-y": f.y, "data-facing": f.facing || "" });
      const across = f.facing && /[東东西]/.test(f.facing); // a mat laid facing east or west runs north-south
      if (f.kind === "mat") {
        const w = across ? 0.06 : 0.2, h = across ? 0.2 : 0.06;
        g.append(svgEl("rect", { x: f.x - w / 2, y: -f.y - h / 2, width: w, height: h }));
      } else if (f.kind === "vessel") {
        g.append(svgEl("rect", { x: f.x - 0.03, y: -f.y - 0.03, width: 0.06, height: 0.06, rx: 0.015 }));
      } else {
        g.append(svgEl("circle", { cx: f.x, cy: -f.y, r: 0.02 }));
      }
      g.append(svgEl("title", {}, `${f.object} ${f.place}${f.facing ? " " + f.facing : ""}`));
      g.append(svgEl("text", { x: f.x + 0.035, y: -f.y + 0.06 }, f.object));
      return g;
    }));

    for (const [who, m] of now) {
      if (m.x === null || m.y === null) continue;
      // persons at one point stand side by side
      const same = [...now.values()].filter((o) => o.x === m.x && o.y === m.y);
      const off = same.indexOf(m) * 0.09;
      const x = m.x + off, y = -m.y;
      const g = svgEl("g", { class: `person ${m.status}${who === selected ? " selected" : ""}`, "data-person": m.person, "data-x": m.x, "data-y": m.y,
        "data-place": m.place || "", "data-facing": m.facing || "", "data-facing-rule": m.facing_rule || "", tabindex: "0" });
      const v = facingVector(m.facing);
      if (v) g.append(svgEl("line", { x1: x, y1: y, x2: x + v[0] * 0.08, y2: y - v[1] * 0.08 }));
      g.append(svgEl("circle", { cx: x, cy: y, r: 0.035 }));
      g.append(svgEl("text", { x: x + 0.04, y: y - 0.04 }, m.person));
      g.addEventListener("click", () => { selected = who; draw(); });
      people.append(g);

    }
    // those present at a place with no point on this plan (賔之家門外: at the guest's own gate; 序端)
    const elsewhere = [...now.values()].filter((m) => m.x === null || m.y === null);
    const away = document.getElementById("plan-elsewhere");
    away.hidden = !elsewhere.length;
    away.replaceChildren(...(elsewhere.length ? [el("span", { lang: "en" }, "Not on the plan: "),
      ...elsewhere.flatMap((m, i) => [i ? " · " : "", el("span", { class: "elsewhere", "data-person": m.person, "data-place": m.place || "" },
        `${m.person} ${m.place || "?"}${m.facing ? " " + m.facing : ""}`)])] : []));
    document.getElementById("plan-seq").textContent = step ? `step ${seq} of ${chain.length}` : "";
    const st = step ? stageOf.get(step.id) : null;
    const ph = step ? phaseOf.get(step.id) : null;
    document.getElementById("plan-stage").textContent = st ? `${st.number} ${st.title}` : ph ? `${ph.number} ${ph.label}` : "";
    const text = document.getElementById("plan-text");
    text.replaceChildren(step ? el("a", { href: step.url, "data-nav": true }, step.text) : "");
    history();
  }
  function history() {
    const list = document.getElementById("plan-history");
    if (!selected) { list.replaceChildren(); return; }
    const seq = Number(slider.value);
    list.replaceChildren(...mine.filter((m) => (m.role || m.person) === selected && m.sequence <= seq).map((m) =>
      el("li", {}, el("span", { class: "seq" }, m.sequence), ` ${m.person} ${m.present === false ? "out" : m.place || "—"} ${m.facing || ""} `,
        el("small", { lang: "en" }, `${m.status} · ${m.rule}${m.facing_rule ? ` · facing ${m.facing_status} · ${m.facing_rule}` : ""}`))));
  }
  slider.oninput = draw;
  const play = document.getElementById("plan-play");
  if (state.playing) clearInterval(state.playing);
  state.playing = null;
  play.textContent = "Play";
  play.onclick = () => {
    if (state.playing) { clearInterval(state.playing); state.playing = null; play.textContent = "Play"; return; }
    play.textContent = "Pause";
    state.playing = setInterval(() => {
      if (Number(slider.value) >= chain.length) { clearInterval(state.playing); state.playing = null; play.textContent = "Play"; return; }
      slider.value = String(Number(slider.value) + 1);
      draw();
    }, 400);
  };
  draw();
}

/* ---------------------------------------------------------------------------------------------- rites */

/** The rite list (GET /rites): one row per edition, with its steps and toasts and links to its views. */
function renderRites(rites) {
  const rows = [];
  for (const r of rites) {
    const name = `${r.label["zh-Hant"] || r.key}${r.label.en ? ` · ${r.label.en}` : ""}`;
    for (const e of r.editions) {
      const q = `?rite=${encodeURIComponent(r.key)}`;
      rows.push(el("tr", { "data-rite": r.key },
        el("td", {}, name), el("td", {}, e.edition.split("/").pop()), el("td", { class: "n" }, String(e.steps)),
        el("td", { class: "n" }, String(e.toasts)),
        el("td", {}, el("a", { href: `/#network${q}`, "data-nav": "" }, "獻酬"), " ",
          el("a", { href: `/#timeline${q}`, "data-nav": "" }, "節次"))));
    }
  }
  document.querySelector("#rite-list tbody").replaceChildren(...rows);
}

/* ---------------------------------------------------------------------------------------------- network */

/** The toast network of one edition, as the API exports it for Cytoscape (/export/cytoscape): one node per role
 * concept, whatever the spelling (賔 and 賓 are one guest), with its English gloss by concept, and one edge per
 * toast (a party the text does not name is the node "unnamed").  An export being written elsewhere answers 503
 * busy: asked again after its Retry-After. */
async function networkOf(rite, edition) {
  const url = `/export/cytoscape${query({ view: "toasts", rite, edition })}`;
  for (let attempt = 0; ; attempt++) {
    try {
      return await getJSON(url);
    } catch (error) {
      if (attempt >= 5 || !/busy|another export/.test(error.message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** The step page of a step IRI: the path after /step/ (the IRI's rite/edition/block/ordinal). */
function stepUrl(iri) {
  const m = String(iri).match(/\/step\/(.+)$/);
  return m ? `/steps/${m[1]}` : null;
}

async function renderNetwork(rite, edition, token) {
  document.title = "獻酬 Toast network · 儀禮 yili-kg";
  const network = await networkOf(rite, edition);
  if (token !== state.token) return;
  const nodes = new Map(network.elements.nodes.map((n) => [n.data.id, n.data]));
  const toasts = network.elements.edges.map((e) => e.data).sort((a, b) => a.order - b.order);
  const types = [...new Set(toasts.map((t) => t.toast_type))];
  const typeGloss = new Map(toasts.map((t) => [t.toast_type, t.label_en]));
  document.getElementById("legend").replaceChildren(...types.map((type) =>
    el("li", {}, el("span", { class: "swatch", style: `background:${colour(type)}` }),
      el("span", { class: "term" }, el("span", { class: "zh" }, type), el("small", { class: "gloss", lang: "en" }, typeGloss.get(type) || "")))));
  document.getElementById("toast-list").replaceChildren(...toasts.map((t) =>
    el("li", {}, el("a", { href: stepUrl(t.step), "data-nav": true },
      el("span", { class: "seq" }, t.sequence), " ", t.giver || "—", " ",
      el("b", { style: `color:${colour(t.toast_type)}` }, t.toast_type), " ", t.receiver || "—", " ",
      el("q", {}, t.text)))));
  const key = `${rite}/${edition}`;
  if (!state.cy || state.cyRite !== key) drawNetwork(nodes, toasts, key);
  else state.cy.resize();
}

const measure = document.createElement("canvas").getContext("2d");
const NODE_FONT = 16;
const GLOSS_WIDTH = 120;

/** A node's size for its label (the role as written) and, on a line of its own, its gloss (wrapped). */
function nodeSize(label, en) {
  measure.font = `${NODE_FONT}px ${FONT}`;
  const width = (text) => measure.measureText(text).width;
  // the gloss wrapped at word boundaries, as Cytoscape wraps it at text-max-width
  const lines = [label];
  for (const word of en ? en.split(" ") : []) {
    const last = lines.length > 1 ? lines[lines.length - 1] : null;
    if (last !== null && width(`${last} ${word}`) <= GLOSS_WIDTH) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return { w: Math.ceil(Math.max(...lines.map(width)) + 16), h: Math.ceil(lines.length * NODE_FONT * 1.25 + 10) };
}

/** Concentric circles: the role with the most toasts in the middle, the others around it in the order they
 * first toast or are toasted (so that who toast each other in one phase stand side by side). */
const LAYOUT = {
  name: "concentric",
  concentric: (n) => (n.data("hub") ? 2 : 1),
  levelWidth: () => 1,
  minNodeSpacing: 18,
  avoidOverlap: true,
  animate: false,
  padding: 16,
  startAngle: Math.PI / 2 + Math.PI / 16,
};

function drawNetwork(concepts, toasts, rite) {
  const nodes = new Map();
  const edges = [];
  for (const t of toasts) {
    for (const id of [t.source, t.target]) {
      if (!nodes.has(id)) {
        const c = concepts.get(id) || { label: id, label_en: "" };
        const display = c.label_en ? `${c.label}\n${c.label_en}` : c.label;
        nodes.set(id, { data: { id, label: c.label, en: c.label_en, display, degree: 0, ...nodeSize(c.label, c.label_en) } });
      }
      nodes.get(id).data.degree += 1;
    }
    const alternative = `${t.giver || ""}${t.receiver || ""}`.includes("|");
    edges.push({
      data: {
        id: `toast-${t.order}`, source: t.source, target: t.target, type: t.toast_type, label: t.toast_type,
        colour: colour(t.toast_type), url: stepUrl(t.step), text: t.text, sequence: t.sequence, giver: t.giver, receiver: t.receiver,
      },
      classes: alternative ? "alternative" : "",
    });
  }
  const ordered = [...nodes.values()];
  const hub = ordered.reduce((a, b) => (b.data.degree > a.data.degree ? b : a), ordered[0]);
  if (hub) hub.data.hub = true;
  if (state.cy) state.cy.destroy();
  const cy = cytoscape({
    container: document.getElementById("cy"),
    elements: { nodes: ordered, edges },
    style: [
      {
        selector: "node",
        style: {
          label: "data(display)", "text-wrap": "wrap", "text-valign": "center", "text-halign": "center",
          shape: "round-rectangle", width: "data(w)", height: "data(h)", "text-max-width": `${GLOSS_WIDTH}px`,
          "background-color": "#fbf3e0", "border-color": "#8a6d3b", "border-width": 1.5,
          "font-family": FONT, "font-size": NODE_FONT, color: "#1d1d1d", "line-height": 1.2,
        },
      },
      {
        selector: "edge",
        style: {
          "curve-style": "bezier", "control-point-step-size": 34, width: 2.2,
          "line-color": "data(colour)", "target-arrow-color": "data(colour)", "target-arrow-shape": "triangle", "arrow-scale": 1.2,
          label: "data(label)", color: "data(colour)", "font-family": FONT, "font-size": 14,
          "text-background-color": "#ffffff", "text-background-opacity": 0.85, "text-background-padding": "1px",
        },
      },
      { selector: "edge.alternative", style: { "line-style": "dashed" } },
      { selector: "edge:loop", style: { "loop-direction": "0deg", "loop-sweep": "50deg", "control-point-step-size": 60 } },
      { selector: "node[?hub]", style: { "background-color": "#f3dfb0", "border-width": 2.5 } },
      { selector: "edge.hover", style: { width: 4.5, "z-index": 10 } },
      { selector: ".faded", style: { opacity: 0.18 } },
    ],
    layout: LAYOUT,
  });
  cy.on("tap", "edge", (event) => {
    const url = event.target.data("url");
    if (url) navigate(url);
  });
  cy.on("tap", "node", (event) => {
    const node = event.target;
    cy.elements().addClass("faded");
    node.closedNeighborhood().removeClass("faded");
  });
  cy.on("tap", (event) => {
    if (event.target === cy) cy.elements().removeClass("faded");
  });
  cy.on("mouseover", "edge", (event) => {
    event.target.addClass("hover");
    cy.container().style.cursor = "pointer";
  });
  cy.on("mouseout", "edge", (event) => {
    event.target.removeClass("hover");
    cy.container().style.cursor = "";
  });
  state.cy = cy;
  state.cyRite = rite;
  window.cy = cy;
  return cy;
}

/* ---------------------------------------------------------------------------------------------- timeline */

/** Every step of a rite (or only those matching the filters), following the API's pages. */
/** Every item of a paginated list (/steps, /toasts), page after page, cached per query. */
async function allPages(path, params) {
  const key = `${path}${query(params)}`;
  if (!state.cache.has(key)) {
    const promise = (async () => {
      const items = [];
      let url = `${path}${query({ ...params, limit: 1000, offset: 0 })}`;
      while (url) {
        const page = await getJSON(url);
        items.push(...page.items);
        url = page.next;
      }
      return items;
    })();
    promise.catch(() => state.cache.delete(key));
    state.cache.set(key, promise);
  }
  return state.cache.get(key);
}

const allSteps = (params) => allPages("/steps", params);
const allToasts = (params) => allPages("/toasts", params);

/** Runs of consecutive steps in one phase: [{phase (or null), edition, steps}], in order. */
function groupByPhase(steps, phases) {
  const index = new Map(steps.map((s, i) => [s.id, i]));
  const phaseOf = new Array(steps.length).fill(null);
  for (const p of phases) {
    const first = index.get(p.first);
    const last = index.get(p.last);
    if (first === undefined || last === undefined) continue;
    for (let i = first; i <= last; i++) phaseOf[i] = p;
  }
  const groups = [];
  steps.forEach((s, i) => {
    const current = groups[groups.length - 1];
    if (current && current.phase === phaseOf[i] && current.edition === s.edition) current.steps.push(s);
    else groups.push({ phase: phaseOf[i], edition: s.edition, steps: [s] });
  });
  return groups;
}

/** Runs of consecutive steps in one stage of 楊復's 儀禮圖: [{stage (or null), edition, steps}], in order.
 * A stage's steps need not be consecutive (楊復 moves the 辭 and the 記 into their stage), so a stage
 * can head more than one run. */
function groupByStage(steps, stages) {
  const stageOf = new Map();
  for (const st of stages) for (const m of st.members) stageOf.set(m, st);
  const groups = [];
  for (const s of steps) {
    const st = stageOf.get(s.id) || null;
    const current = groups[groups.length - 1];
    if (current && current.stage === st && current.edition === s.edition) current.steps.push(s);
    else groups.push({ stage: st, edition: s.edition, steps: [s] });
  }
  return groups;
}

/** Options of a filter select: the values found in the steps, the commonest first, with their counts. */
function fillSelect(select, values, chosen) {
  const counts = new Map();
  for (const v of values) if (v) counts.set(v, (counts.get(v) || 0) + 1);
  if (chosen && !counts.has(chosen)) counts.set(chosen, 0);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  select.replaceChildren(el("option", { value: "" }, "— all —"),
    ...sorted.map(([v, n]) => el("option", { value: v }, `${v} (${n})`)));
  select.value = chosen || "";
}

async function renderTimeline(rite, edition, params, token) {
  document.title = "節次 Timeline · 儀禮 yili-kg";
  const filters = { agent: params.get("agent") || "", action: params.get("action") || "", vessel: params.get("vessel") || "" };
  const inEdition = (x) => editionKey(x.edition) === edition;
  const [allOfRite, allPhases, allRiteToasts, allStages] = await Promise.all([
    allSteps({ rite }), getJSON(`/phases${query({ rite })}`), allToasts({ rite }), getJSON(`/stages${query({ rite })}`),
  ]);
  const steps = allOfRite.filter(inEdition);
  const phases = allPhases.filter(inEdition);
  const toasts = allRiteToasts.filter(inEdition);
  const stages = allStages.filter((st) => !st.edition || inEdition(st));
  if (token !== state.token) return;
  const form = document.getElementById("filters");
  fillSelect(form.elements.agent, steps.flatMap((s) => roles(s.agent)), filters.agent);
  fillSelect(form.elements.action, steps.map((s) => s.action), filters.action);
  fillSelect(form.elements.vessel, steps.map((s) => s.vessel), filters.vessel);
  form.onchange = () => {
    const f = Object.fromEntries(["agent", "action", "vessel"].map((k) => [k, form.elements[k].value]));
    navigate(`/#timeline${query({ rite, edition, ...f })}`, true);
  };
  form.onreset = (event) => {
    event.preventDefault();
    navigate(`/#timeline${query({ rite, edition })}`, true);
  };
  const filtered = filters.agent || filters.action || filters.vessel;
  // the API filters (variants folded, narrower terms included: 拜 finds 再拜, 爵 finds 觚)
  const matching = filtered ? new Set((await allSteps({ rite, ...filters })).map((s) => s.id)) : null;
  if (token !== state.token) return;
  const toastOf = new Map(toasts.map((t) => [t.step, t]));
  const editions = new Set(steps.map((s) => s.edition));
  const shown = matching ? steps.filter((s) => matching.has(s.id)) : steps;
  // 楊復's stages (節) where 儀禮圖 covers the rite: the timeline runs by stage, each step showing its phase
  const byStage = stages.length > 0;
  const phaseOfStep = new Map();
  for (const g of groupByPhase(steps, phases)) for (const s of g.steps) phaseOfStep.set(s.id, g.phase);
  const groups = byStage ? groupByStage(steps, stages) : groupByPhase(steps, phases);
  const sections = groups.map((group) => {
    const items = group.steps.filter((s) => !matching || matching.has(s.id));
    if (!items.length) return null;
    const first = group.steps[0].sequence;
    const last = group.steps[group.steps.length - 1].sequence;
    if (byStage) {
      const st = group.stage;
      return el("section", { class: "phase stage", dataset: { stage: st ? st.title : "" } },
        el("h3", {},
          st ? el("span", { class: "phase-number" }, st.number) : null,
          st ? st.title : el("span", { lang: "en" }, "(no stage)"),
          el("small", { lang: "en" }, ` steps ${first}–${last}${items.length < group.steps.length ? ` · ${items.length} shown` : ""}`),
          st ? el("small", { class: "source", title: "楊復 儀禮圖" }, ` ${st.source}`) : null,
          editions.size > 1 ? el("small", { class: "edition", lang: "en" }, ` ${group.edition.split("/").pop()}`) : null),
        el("ol", { class: "steps" }, items.map((s) => stepRow(s, toastOf.get(s.id), phaseOfStep.get(s.id)))));
    }
    return el("section", { class: "phase", dataset: { phase: group.phase ? group.phase.label : "" } },
      el("h3", {},
        group.phase ? el("span", { class: "phase-number" }, group.phase.number) : null,
        group.phase ? group.phase.label : el("span", { lang: "en" }, "(no phase)"),
        el("small", { lang: "en" }, ` steps ${first}–${last}${items.length < group.steps.length ? ` · ${items.length} shown` : ""}`),
        editions.size > 1 ? el("small", { class: "edition", lang: "en" }, ` ${group.edition.split("/").pop()}`) : null),
      el("ol", { class: "steps" }, items.map((s) => stepRow(s, toastOf.get(s.id)))));
  });
  const timeline = document.getElementById("timeline");
  timeline.replaceChildren(...sections.filter(Boolean));
  const count = document.getElementById("timeline-count");
  count.dataset.count = shown.length;
  count.dataset.total = steps.length;
  count.textContent = filtered ? `${shown.length} of ${steps.length} steps` : `${steps.length} steps`;
  const at = params.get("at");
  const current = at && [...timeline.querySelectorAll("li[data-url]")].find((li) => li.dataset.url === at);
  if (current) {
    current.classList.add("current");
    current.scrollIntoView({ block: "center" });
  }
}

function stepRow(s, toast, phase) {
  const tags = [
    phase ? el("span", { class: "phase-tag", title: "phase" }, phase.label) : null,
    s.agent ? el("span", { class: "agent" }, s.agent) : null,
    el("span", { class: "action" }, s.action),
    s.recipient ? el("span", { class: "recipient" }, `→ ${s.recipient}`) : null,
    s.vessel ? el("span", { class: "vessel" }, s.vessel) : null,
    s.location ? el("span", { class: "location" }, s.location) : null,
  ];
  return el("li", { dataset: { url: s.url || "", agent: s.agent || "", action: s.action || "", vessel: s.vessel || "" } },
    el("a", { href: s.url, "data-nav": true },
      el("span", { class: "seq" }, s.sequence),
      el("span", { class: "text" }, s.text),
      toast ? el("span", { class: "toast-badge", style: `background:${colour(toast.type)}` }, toast.type) : null,
      el("span", { class: "tags" }, tags)));
}

/* ---------------------------------------------------------------------------------------------- step page */

async function renderStep(path, token) {
  const s = await getJSON(path);
  if (token !== state.token) return;
  const neighbour = async (url) => (url ? getJSON(url).catch(() => null) : null);
  const [previous, next] = await Promise.all([neighbour(s.links.previous), neighbour(s.links.next)]);
  if (token !== state.token) return;
  document.title = `${s.text} · 儀禮 yili-kg`;
  const rite = path.split("/")[2];
  const timeline = `/#timeline${query({ rite: decodeURIComponent(rite), edition: decodeURIComponent(path.split("/")[3]), at: path })}`;
  const article = document.getElementById("step");
  article.replaceChildren(...[ // (a section the step lacks is null, and left out)
    el("nav", { class: "stepnav", "aria-label": "neighbouring steps" },
      previous ? el("a", { href: s.links.previous, "data-nav": true, rel: "prev" }, "← 前 ", el("q", {}, previous.text))
        : el("span", { class: "none" }, "← (first step)"),
      el("a", { href: timeline, "data-nav": true, class: "up" }, "節次 ", el("span", { lang: "en" }, "timeline")),
      el("a", { href: `/#plan${query({ rite: decodeURIComponent(rite), at: s.sequence })}`, "data-nav": true, class: "up scene" },
        "位 ", el("span", { lang: "en" }, "scene")),
      next ? el("a", { href: s.links.next, "data-nav": true, rel: "next" }, "後 ", el("q", {}, next.text), " →")
        : el("span", { class: "none" }, "(last step) →")),
    el("header", {},
      s.phase ? el("p", { class: "phase" }, s.phase) : null,
      el("h2", { class: "step-text" }, s.text),
      el("p", { class: "meta", lang: "en" },
        `step ${s.sequence} · block ${s.block} · characters ${s.char_start}–${s.char_end}`,
        s.page !== undefined && s.page !== null ? ` · page ${s.page}` : "",
        s.mode && s.mode !== "actual" ? ` · ${s.mode}` : "")),
    blockSection(s),
    el("dl", { class: "fields" }, FIELDS.map(([key, zh, en]) => [
      el("dt", {}, zh, " ", el("span", { lang: "en" }, en)),
      el("dd", { class: `field-${key}` }, term(s[key], (s.concepts || {})[key])),
    ])),
    toastSection(s),
    rulesSection(s),
    commentarySection(s),
    el("footer", { class: "formats", lang: "en" }, "This step as ",
      [["json", "JSON"], ["jsonld", "JSON-LD"], ["turtle", "Turtle"], ["ntriples", "N-Triples"], ["rdfxml", "RDF/XML"]]
        .flatMap(([f, name], i) => [i ? " · " : "", el("a", { href: `${path}?format=${f}` }, name)]),
      el("br"), "IRI ", el("code", {}, s.id)),
  ].filter(Boolean));
  window.scrollTo(0, 0);
}

/** The classic text of the step's block, the step marked in it. */
function blockSection(s) {
  const text = s.block_text;
  let body = [s.text];
  if (text) {
    // block_mark: code points into the block's text (the layout taken out), as the API computes them
    const chars = Array.from(text);
    const mark = Array.isArray(s.block_mark) ? s.block_mark : null;
    // the commentary's glosses are placed by offsets into the file: only where the block's text holds no layout
    const plain = Number.isInteger(s.block_char_start) && Number.isInteger(s.block_char_end)
      && s.block_char_end - s.block_char_start === chars.length;
    const g = (from, to) => (plain ? withGlosses(chars.slice(from, to).join(""), from, s) : [chars.slice(from, to).join("")]);
    body = mark ? [g(0, mark[0]), el("mark", {}, g(mark[0], mark[1])), g(mark[1], chars.length)] : g(0, chars.length);
  }
  return el("section", { class: "block" },
    el("h3", {}, "經 ", el("span", { lang: "en" }, `the classic text of block ${s.block}`)),
    el("p", { class: "classic" }, body));
}

/** A stretch of the block's text (starting at ``from``, code points into the block) with the words the
 * commentary glosses or reads otherwise highlighted; the title says who glosses them and how. */
function withGlosses(str, from, s) {
  const base = s.block_char_start;
  const notes = [];
  for (const st of s.statements || []) {
    for (const g of st.glosses) notes.push([g.target_start, g.target_end, `${st.authority || st.authority_label}: ${g.term} ${g.formula === "也" ? "" : g.formula}${g.gloss_text}`]);
    for (const r of st.readings) notes.push([r.target_start, r.target_end, `${st.authority || st.authority_label}: ${r.witness}${r.term}${r.variant ? "為" + r.variant : "無"}`]);
  }
  if (!Number.isInteger(base) || !notes.length) return [str];
  const chars = Array.from(str);
  const titles = new Map();
  for (const [a, b, title] of notes) {
    for (let k = a - base - from; k < b - base - from; k++) if (k >= 0 && k < chars.length) titles.set(k, [titles.get(k), title].filter(Boolean).join("\n"));
  }
  const out = [];
  let k = 0;
  while (k < chars.length) {
    const title = titles.get(k);
    let j = k + 1;
    while (j < chars.length && titles.get(j) === title) j++;
    const piece = chars.slice(k, j).join("");
    out.push(title ? el("span", { class: "glossed", title }, piece) : piece);
    k = j;
  }
  return out;
}

/** Which rule decided each field of the step (``why`` of /steps/…: field, rule id, what it does, its citation). */
function rulesSection(s) {
  const rules = s.why || [];
  if (!rules.length) return null;
  return el("section", { class: "rules" },
    el("h3", {}, "據 ", el("span", { lang: "en" }, "the rule that decided each field")),
    el("dl", { class: "why", lang: "en" }, rules.map((r) => [
      el("dt", {}, r.field),
      el("dd", { title: r.doc || "" }, el("code", { class: `rule rule-${r.field}` }, r.rule),
        r.cites ? el("span", { class: "cites", lang: "zh-Hant" }, ` ${r.cites}`) : null,
        // the commentary statement the rule read to decide this field (yk:agentFromNote): who says it, and what
        (r.statements || []).map((st) => el("blockquote", { class: "from-note", lang: "zh-Hant", "data-statement": st.statement },
          el("span", { class: "who" }, st.authority || st.authority_label || "?",
            st.authority_label && st.authority_label !== st.authority ? el("small", {}, ` ${st.authority_label}`) : null),
          " ", el("span", { class: "text" }, st.text)))),
    ])));
}

function toastSection(s) {
  if (!s.toast) return null;
  const t = s.toast;
  return el("section", { class: "toast" },
    el("h3", {}, "獻酬 ", el("span", { lang: "en" }, "the toast this step expresses")),
    el("p", {}, term(t.giver, (s.concepts || {}).giver),
      el("span", { class: "arrow", style: `color:${colour(t.type)}` }, " — ", term(t.type, (s.concepts || {}).type), " → "),
      term(t.receiver, (s.concepts || {}).receiver)));
}

function commentarySection(s) {
  const statements = s.statements || [];
  if (statements.length) {
    return el("section", { class: "commentary" },
      el("h3", {}, "注疏 ", el("span", { lang: "en" }, `commentary on block ${s.block}, by authority`)),
      statements.map((st) => el("div", { class: (s.derived_from || []).includes(st.statement) ? "comment statement decides" : "comment statement" },
        el("p", { class: "who" }, st.authority || st.authority_label || "?",
          st.authority_label && st.authority_label !== st.authority ? el("small", {}, ` ${st.authority_label}`) : null,
          (s.derived_from || []).includes(st.statement) ? el("small", { class: "why", lang: "en" }, " — the graph reads a field of this step from it (see 據 above)") : null),
        el("p", { class: "text" }, st.text),
        st.glosses.length || st.readings.length ? el("p", { class: "glosses" },
          st.glosses.map((g) => el("span", { class: "glossed" }, `${g.term}：${g.gloss_text}`)),
          st.readings.map((r) => el("span", { class: "glossed" }, `${r.witness}${r.term}${r.variant ? "為" + r.variant : "無"}`))) : null)));
  }
  const items = s.commentary || [];
  return el("section", { class: "commentary" },
    el("h3", {}, "注疏 ", el("span", { lang: "en" }, `commentary on block ${s.block}`)),
    items.length ? items.map((c) => el("div", { class: `comment layer-${c.layer}` },
      el("p", { class: "who" }, c.commentator || LAYERS[c.layer] || c.layer,
        LAYERS[c.layer] && c.commentator !== LAYERS[c.layer] ? el("small", {}, ` ${LAYERS[c.layer]}`) : null),
      el("p", { class: "text" }, c.text)))
      : el("p", { class: "none", lang: "en" }, "No commentary on this block."));
}

/* ---------------------------------------------------------------------------------------------- search */

const RITE_NAMES = () => new Map((state.rites || []).map((r) => [r.rite, r.label["zh-Hant"] || r.key]));

/** The matches of GET /search for the query in the address (#search?q=玄端), each linked to its step (or block)
 * with the match marked in its context. */
async function renderSearch(params, token) {
  const q = params.get("q") || "";
  document.title = `搜 ${q} · 儀禮 yili-kg`;
  document.querySelector("#search-form input").value = q;
  const list = document.getElementById("search-results");
  const count = document.getElementById("search-count");
  if (!q.trim()) {
    list.replaceChildren();
    count.textContent = "";
    return;
  }
  const page = await getJSON(`/search${query({ q, limit: 500 })}`);
  if (token !== state.token) return;
  const names = RITE_NAMES();
  count.dataset.total = page.total;
  count.textContent = page.total > page.items.length ? `${page.items.length} of ${page.total} matches` : `${page.total} matches`;
  list.replaceChildren(...page.items.map((i) => el("li", { class: `hit hit-${i.kind}`, dataset: { rite: i.rite.split("/").pop(), edition: editionKey(i.edition) } },
    el("a", { href: i.url, "data-nav": i.url && i.url.startsWith("/steps/") ? true : null },
      el("span", { class: "where" }, `${names.get(i.rite) || i.rite.split("/").pop()} · ${EDITION_NAMES[editionKey(i.edition)] || editionKey(i.edition)} · `,
        el("span", { lang: "en" }, `block ${i.block}`), i.kind === "commentary" ? ` · ${i.commentator || LAYERS[i.layer] || i.layer}` : " · 經"),
      " ", el("span", { class: "context" }, i.before, el("mark", {}, i.match), i.after)))));
}

document.getElementById("search-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const q = event.target.elements.q.value.trim();
  if (q) navigate(`/#search${query({ q })}`);
});

render();
