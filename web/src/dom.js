// A tiny DOM builder: the app redraws itself from its state (no framework: the page stays small),
// keeping the focused control focused across a redraw through its data-key.

/** An element: h("button", {class: "x", onclick: f}, "text", child, [more]). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "class") el.className = value;
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replace `root`'s content with `content`, giving focus back to the control that had it. */
export function redraw(root, content) {
  const key = document.activeElement?.dataset?.key;
  root.replaceChildren(...[content].flat());
  if (key) root.querySelector(`[data-key="${CSS.escape(key)}"]`)?.focus();
}
