/**
 * An XML well-formedness check for tests (XML 1.0: one root element, every tag closed in order, attributes
 * quoted and not repeated, `<` never in text or attribute values, `&` only in references). Node and Deno have no
 * XML parser; the browser test parses the same documents with Chromium's DOMParser.
 */

const NAME = "[A-Za-z_:][-A-Za-z0-9_:.]*";
const REFERENCE = new RegExp(`&(?:${NAME}|#[0-9]+|#x[0-9A-Fa-f]+);`, "g");
const ATTRIBUTE = new RegExp(`\\s+(${NAME})\\s*=\\s*(?:'([^'<]*)'|"([^"<]*)")`, "y");
const START = new RegExp(`<(${NAME})`, "y");

/** Throws with the offset of the first problem; returns the root element's name. */
export function checkWellFormed(xml: string): string {
  let at = 0;
  const open: string[] = [];
  let root: string | undefined;
  const fail = (why: string): never => {
    throw new Error(`not well-formed at ${at}: ${why} near ${JSON.stringify(xml.slice(at, at + 40))}`);
  };
  const text = (chunk: string) => {
    if (chunk.replace(REFERENCE, "").includes("&")) fail("bare &");
    if (open.length === 0 && chunk.trim()) fail("text outside the root element");
  };
  if (xml.startsWith("<?xml")) at = xml.indexOf("?>") + 2;
  while (at < xml.length) {
    const next = xml.indexOf("<", at);
    if (next < 0) {
      text(xml.slice(at));
      break;
    }
    text(xml.slice(at, next));
    at = next;
    if (xml.startsWith("<!--", at)) {
      const end = xml.indexOf("-->", at);
      if (end < 0) fail("unclosed comment");
      at = end + 3;
    } else if (xml.startsWith("</", at)) {
      const match = new RegExp(`</(${NAME})\\s*>`, "y");
      match.lastIndex = at;
      const m = match.exec(xml) ?? fail("bad end tag");
      if (open.pop() !== m[1]) fail(`</${m[1]}> closes another element`);
      at = match.lastIndex;
    } else {
      START.lastIndex = at;
      const m = START.exec(xml) ?? fail("bad start tag");
      if (open.length === 0) root === undefined ? (root = m[1]) : fail("second root element");
      at = START.lastIndex;
      const seen = new Set<string>();
      for (;;) {
        ATTRIBUTE.lastIndex = at;
        const a = ATTRIBUTE.exec(xml);
        if (!a) break;
        if (seen.has(a[1]!)) fail(`attribute ${a[1]} repeated`);
        seen.add(a[1]!);
        if ((a[2] ?? a[3]!).replace(REFERENCE, "").includes("&")) fail("bare & in an attribute");
        at = ATTRIBUTE.lastIndex;
      }
      const close = /\s*(\/?)>/y;
      close.lastIndex = at;
      const c = close.exec(xml) ?? fail("unterminated start tag");
      if (!c[1]) open.push(m[1]!);
      at = close.lastIndex;
    }
  }
  if (open.length) fail(`unclosed <${open.join("> <")}>`);
  return root ?? fail("no root element");
}
