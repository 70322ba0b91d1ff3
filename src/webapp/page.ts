/**
 * The single page of the sample web application (GET /): plain HTML, CSS and a small inline script that calls
 * POST /descriptors, /depict and /similarity. Every piece of user or server text is written with textContent;
 * depictions are shown through <img> from blob URLs, so SVG content can never run as a document. The BOILED-Egg
 * plot is inline SVG built by the script element by element (createElementNS, textContent), with the two
 * ellipses of src/chem/boiled_egg.ts.
 *
 * @module
 */
import { BOILED_EGG_WHITE, BOILED_EGG_YOLK } from "../chem/boiled_egg.ts";

/** Content-Security-Policy of the page: no external resources, fetch only to this origin, images from blobs. */
export const PAGE_CSP: string =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " +
  "img-src blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE = `
:root { color-scheme: light dark; --accent: #1f6feb; --ok: #1a7f37; --bad: #cf222e; }
* { box-sizing: border-box; }
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem 1.25rem 3rem; }
h1 { font-size: 1.6rem; margin-bottom: 0.25rem; }
section { border: 1px solid #8886; border-radius: 8px; padding: 1rem 1.25rem; margin-top: 1.25rem; }
label { display: block; font-weight: 600; margin-top: 0.75rem; }
input, textarea { width: 100%; font: 15px ui-monospace, monospace; padding: 0.4rem 0.5rem; }
input[type=number] { width: 8rem; }
button { margin-top: 0.9rem; font: inherit; padding: 0.4rem 1.1rem; border-radius: 6px; border: 0;
  background: var(--accent); color: #fff; cursor: pointer; }
button:focus-visible, input:focus-visible, textarea:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.hint { color: #777; font-size: 0.9rem; margin: 0.2rem 0 0; }
.error { color: var(--bad); font-weight: 600; }
.result { display: flex; gap: 1.5rem; flex-wrap: wrap; align-items: flex-start; margin-top: 1rem; }
.result img, .hit img { background: #fff; border: 1px solid #8884; border-radius: 6px; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 0.2rem 0.8rem 0.2rem 0; }
td { font-variant-numeric: tabular-nums; }
.verdict { font-weight: 700; margin-top: 0.5rem; }
.verdict.pass { color: var(--ok); }
.verdict.fail { color: var(--bad); }
ol.hits { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(310px, 1fr)); gap: 0.75rem; }
.hit { border: 1px solid #8884; border-radius: 6px; padding: 0.5rem; }
.hit code { word-break: break-all; }
figure.egg { margin: 1rem 0 0; }
figure.egg svg { max-width: 100%; height: auto; font: 12px system-ui, sans-serif; }
figure.egg figcaption { font-size: 0.9rem; }
.egg .area { fill: #d0d7de; }
.egg .white { fill: #ffffff; stroke: #57606a; stroke-width: 1; }
.egg .yolk { fill: #ffd966; stroke: #9a6700; stroke-width: 1; }
.egg .axis { stroke: currentColor; stroke-width: 1; fill: none; }
.egg text { fill: currentColor; }
.egg circle { stroke: #fff; stroke-width: 1; }
.egg circle.query { stroke: #000; stroke-width: 2.5; }
.egg .bbb { fill: #c2410c; }
.egg .gi { fill: #1d4ed8; }
.egg .none { fill: #6b21a8; }
ul.legend { list-style: none; padding: 0; margin: 0.25rem 0 0; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; font-size: 0.9rem; }
ul.legend span { display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 50%; margin-right: 0.35rem; vertical-align: -0.05rem; }
ul.legend .bbb { background: #c2410c; }
ul.legend .gi { background: #1d4ed8; }
ul.legend .none { background: #6b21a8; }
`;

const EGG_ELLIPSES = JSON.stringify({ white: BOILED_EGG_WHITE, yolk: BOILED_EGG_YOLK });

const SCRIPT = `
"use strict";
const $ = (id) => document.getElementById(id);
const MAX_DEPICTED = 24;
const MAX_PLOTTED = 200;
const EGG = ${EGG_ELLIPSES};
const SVG_NS = "http://www.w3.org/2000/svg";
let blobUrls = [];

async function post(path, body) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) {
    let message = "HTTP " + res.status;
    try { const e = await res.json(); message = e.error.message; } catch (_) { /* keep status text */ }
    throw new Error(message);
  }
  return res;
}

async function depiction(smiles, alt) {
  const res = await post("/depict", { smiles });
  const url = URL.createObjectURL(await res.blob());
  blobUrls.push(url);
  const img = document.createElement("img");
  img.src = url;
  img.alt = alt;
  img.width = 300;
  img.height = 220;
  return img;
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

// BOILED-Egg plot (Daina & Zoete 2016): TPSA (x, Å²) against WLOGP (y), white and yolk ellipses, one point per
// molecule coloured by the server's verdict.
const EGG_CLASSES = {
  bbb: "BBB permeant (in the yolk)",
  gi: "GI absorbed, not BBB permeant (in the white only)",
  none: "Neither (outside both ellipses)",
};

function eggClass(p) {
  return p.bbb_penetrant ? "bbb" : p.gi_absorbed ? "gi" : "none";
}

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

// Outline of an ellipse given in data units (rotation in the TPSA–WLOGP plane), as a closed polygon.
function ellipsePath(e, x, y) {
  const theta = (e.angle * Math.PI) / 180;
  const parts = [];
  for (let i = 0; i < 180; i++) {
    const t = (2 * Math.PI * i) / 180;
    const u = (e.width / 2) * Math.cos(t);
    const v = (e.height / 2) * Math.sin(t);
    const tpsa = e.tpsa + u * Math.cos(theta) - v * Math.sin(theta);
    const wlogp = e.wlogp + u * Math.sin(theta) + v * Math.cos(theta);
    parts.push((i === 0 ? "M" : "L") + x(tpsa).toFixed(2) + "," + y(wlogp).toFixed(2));
  }
  return parts.join(" ") + " Z";
}

function eggPlot(id, points, caption) {
  const W = 480, H = 340, left = 52, right = 14, top = 12, bottom = 46;
  const tpsaMax = Math.max(160, Math.ceil((Math.max(...points.map((p) => p.tpsa)) + 10) / 20) * 20);
  const wMin = Math.min(-4, Math.floor(Math.min(...points.map((p) => p.wlogp)) - 0.5));
  const wMax = Math.max(8, Math.ceil(Math.max(...points.map((p) => p.wlogp)) + 0.5));
  const x = (tpsa) => left + (tpsa / tpsaMax) * (W - left - right);
  const y = (wlogp) => top + ((wMax - wlogp) / (wMax - wMin)) * (H - top - bottom);
  const root = svg("svg", { viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img" });
  const area = { x: left, y: top, width: W - left - right, height: H - top - bottom };
  // The yolk reaches slightly below TPSA 0: the ellipses are clipped to the axes (the geometry is unchanged).
  const clip = svg("clipPath", { id: id + "-clip" });
  clip.append(svg("rect", area));
  const defs = svg("defs", {});
  defs.append(clip);
  const clipped = "url(#" + id + "-clip)";
  root.append(
    svg("title", {}, "BOILED-Egg plot: " + caption),
    defs,
    svg("rect", { class: "area", ...area }),
    svg("path", { class: "white", d: ellipsePath(EGG.white, x, y), "clip-path": clipped }),
    svg("path", { class: "yolk", d: ellipsePath(EGG.yolk, x, y), "clip-path": clipped }),
    svg("path", { class: "axis", d: "M" + left + "," + top + " V" + (H - bottom) + " H" + (W - right) }),
  );
  const xStep = tpsaMax > 240 ? 40 : 20;
  for (let t = 0; t <= tpsaMax; t += xStep) {
    root.append(
      svg("path", { class: "axis", d: "M" + x(t) + "," + (H - bottom) + " v5" }),
      svg("text", { x: x(t), y: H - bottom + 18, "text-anchor": "middle" }, String(t)),
    );
  }
  for (let w = wMin; w <= wMax; w += 2) {
    root.append(
      svg("path", { class: "axis", d: "M" + left + "," + y(w) + " h-5" }),
      svg("text", { x: left - 8, y: y(w) + 4, "text-anchor": "end" }, String(w)),
    );
  }
  root.append(
    svg("text", { x: (left + W - right) / 2, y: H - 8, "text-anchor": "middle" }, "TPSA (Å²)"),
    svg("text", {
      x: 14,
      y: (top + H - bottom) / 2,
      "text-anchor": "middle",
      transform: "rotate(-90 14 " + (top + H - bottom) / 2 + ")",
    }, "WLOGP"),
  );
  // Hits first, so the query is drawn on top.
  for (const p of [...points].reverse()) {
    const cls = eggClass(p);
    const dot = svg("circle", {
      class: cls + (p.role === "query" ? " query" : ""),
      cx: x(p.tpsa).toFixed(2),
      cy: y(p.wlogp).toFixed(2),
      r: p.role === "query" ? 7 : 5,
      "data-role": p.role,
      "data-class": cls,
      "data-smiles": p.smiles,
      "data-tpsa": p.tpsa,
      "data-wlogp": p.wlogp,
    });
    dot.append(svg(
      "title",
      {},
      (p.role === "query" ? "Query " : "Hit ") + p.smiles + ": WLOGP " + p.wlogp.toFixed(2) + ", TPSA " +
        p.tpsa.toFixed(2) + " Å², " + EGG_CLASSES[cls],
    ));
    root.append(dot);
  }
  const figure = el("figure", undefined, "egg");
  figure.id = id;
  const legend = el("ul", undefined, "legend");
  for (const [cls, text] of Object.entries(EGG_CLASSES)) {
    const item = el("li");
    item.append(el("span", undefined, cls), text);
    legend.append(item);
  }
  const note = "BOILED-Egg (Daina & Zoete, ChemMedChem 2016): white = passive gastrointestinal absorption, " +
    "yolk = blood–brain barrier permeation; WLOGP = Wildman–Crippen logP, TPSA including S and P. " + caption;
  figure.append(root, legend, el("figcaption", note));
  return figure;
}

async function eggPoints(query, hits) {
  const smiles = [query, ...hits];
  const points = await (await post("/boiled-egg", { smiles })).json();
  return points.map((p, i) => ({ ...p, role: i === 0 ? "query" : "hit" }));
}

// Like Promise.all, but a failure is reported as the first request in order gives it, not as whichever
// answer came back first: an invalid SMILES reads the same on every submit.
async function allInOrder(promises) {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((r) => r.value);
}

function showError(target, error) {
  target.replaceChildren(el("p", "Error: " + error.message, "error"));
}

function freeBlobs() {
  for (const url of blobUrls) URL.revokeObjectURL(url);
  blobUrls = [];
}

$("mol-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const out = $("mol-result");
  const smiles = $("smiles").value.trim();
  out.setAttribute("aria-busy", "true");
  out.replaceChildren(el("p", "Computing…"));
  try {
    const [d, img, egg] = await allInOrder([
      post("/descriptors", { smiles }).then((r) => r.json()),
      depiction(smiles, "2D structure of " + smiles),
      eggPoints(smiles, []),
    ]);
    const table = el("table");
    table.id = "descriptors";
    const caption = el("caption", "Descriptors of " + smiles);
    caption.className = "hint";
    table.append(caption);
    const rows = [
      ["Molecular weight (g/mol)", d.mw.toFixed(3), "mw"],
      ["logP (Wildman–Crippen)", d.logp.toFixed(2), "logp"],
      ["TPSA (Å²)", d.tpsa.toFixed(2), "tpsa"],
      ["H-bond donors (NH + OH)", String(d.hbd), "hbd"],
      ["H-bond acceptors (N + O)", String(d.hba), "hba"],
    ];
    for (const [label, value, key] of rows) {
      const tr = el("tr");
      const th = el("th", label);
      th.scope = "row";
      const td = el("td", value);
      td.dataset.key = key;
      tr.append(th, td);
      table.append(tr);
    }
    const verdict = el(
      "p",
      d.lipinski_passes ? "Passes Lipinski's rule of five" : "Fails Lipinski's rule of five",
      "verdict " + (d.lipinski_passes ? "pass" : "fail"),
    );
    verdict.id = "verdict";
    const info = el("div");
    info.append(table, verdict);
    const plot = eggPlot("mol-egg", egg, "Large circle: " + smiles + ".");
    out.replaceChildren(img, info, plot);
  } catch (error) {
    showError(out, error);
  } finally {
    out.removeAttribute("aria-busy");
  }
});

$("search-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const out = $("search-result");
  const query = $("query").value.trim();
  // Empty lines are dropped, so remember each entry's line number in the textarea.
  const entries = $("library").value.split(/\\r?\\n/)
    .map((text, i) => ({ smiles: text.trim(), line: i + 1 }))
    .filter((e) => e.smiles.length > 0);
  const library = entries.map((e) => e.smiles);
  const threshold = Number($("threshold").value);
  out.setAttribute("aria-busy", "true");
  out.replaceChildren(el("p", "Searching " + library.length + " molecules…"));
  freeBlobs();
  try {
    const hits = await (await post("/similarity", { query, library, threshold })).json();
    const summary = el("p", hits.length + " of " + library.length + " molecules have Tanimoto ≥ " + threshold + ".");
    summary.id = "search-summary";
    const list = el("ol", undefined, "hits");
    list.id = "hits";
    list.setAttribute("aria-label", "Hits ranked by similarity");
    for (const [rank, hit] of hits.entries()) {
      const item = el("li", undefined, "hit");
      const title = el("p");
      title.append(
        el("strong", "#" + (rank + 1) + " score " + hit.score.toFixed(3)),
        el("span", " (line " + entries[hit.index].line + ") "),
        el("code", hit.smiles),
      );
      item.append(title);
      if (rank < MAX_DEPICTED) item.append(await depiction(hit.smiles, "2D structure of " + hit.smiles));
      list.append(item);
    }
    const plotted = hits.slice(0, MAX_PLOTTED).map((hit) => hit.smiles);
    const plot = eggPlot(
      "search-egg",
      await eggPoints(query, plotted),
      "Large circle: the query; small circles: " +
        (hits.length > MAX_PLOTTED ? "the first " + MAX_PLOTTED + " hits." : "the hits."),
    );
    out.replaceChildren(summary, plot, list);
  } catch (error) {
    showError(out, error);
  } finally {
    out.removeAttribute("aria-busy");
  }
});
`;

/** The page served at GET /. */
export const PAGE_HTML: string = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>chem-mcp sample: descriptors, BOILED-Egg and similarity search</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>chem-mcp sample application</h1>
<p class="hint">Computed with RDKit (WebAssembly) on this server. Nothing is stored.</p>
</header>
<main>
<section aria-labelledby="mol-title">
<h2 id="mol-title">One molecule</h2>
<form id="mol-form">
<label for="smiles">SMILES</label>
<input id="smiles" name="smiles" required autocomplete="off" spellcheck="false" value="CC(=O)Oc1ccccc1C(=O)O"
  aria-describedby="smiles-hint">
<p id="smiles-hint" class="hint">For example aspirin, CC(=O)Oc1ccccc1C(=O)O. Salts are reduced to their largest component. The result shows the depiction, the descriptors and the molecule on the BOILED-Egg plot.</p>
<button type="submit">Depict and compute</button>
</form>
<div id="mol-result" class="result" aria-live="polite"></div>
</section>
<section aria-labelledby="search-title">
<h2 id="search-title">Similarity search</h2>
<form id="search-form">
<label for="query">Query SMILES</label>
<input id="query" name="query" required autocomplete="off" spellcheck="false" value="CC(=O)Oc1ccccc1C(=O)O">
<label for="library">Library (one SMILES per line, at most 10,000)</label>
<textarea id="library" name="library" rows="8" spellcheck="false" aria-describedby="library-hint">OC(=O)c1ccccc1O
CC(=O)Oc1ccccc1C(=O)OC
CC(=O)Nc1ccc(O)cc1
CC(C)Cc1ccc(cc1)C(C)C(=O)O
Cn1cnc2c1c(=O)n(C)c(=O)n2C</textarea>
<p id="library-hint" class="hint">Empty lines are ignored; hits show their line number.</p>
<label for="threshold">Threshold (Tanimoto on ECFP4, 0 to 1)</label>
<input id="threshold" name="threshold" type="number" min="0" max="1" step="0.05" value="0.3" required>
<button type="submit">Search</button>
</form>
<div id="search-result" aria-live="polite"></div>
</section>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
