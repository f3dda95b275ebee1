// dom.js: the page's shorthands for the document, shared by every screen:
// an element by id, a new element with its attributes and children in one
// expression, and an icon of the page's own set.

/** The element whose id is `id`, or null. */
export const $ = (id) => document.getElementById(id);

/** A new `tag` element. props: `class` sets the class name, `text` the text,
 * any other key an attribute (undefined values are skipped); children are
 * appended (nodes or strings). */
export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

/** An <svg> showing the icon `id` of the page's <symbol> set. */
export function svgIcon(id) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  const use = document.createElementNS(ns, 'use');
  use.setAttribute('href', `#${id}`);
  svg.append(use);
  return svg;
}
