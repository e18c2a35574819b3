// Keyboard and drag play. Keys: a digit or a colour's letter places a peg, Backspace takes the
// last one back, Enter guesses (also from a peg button: Space presses a focused button). A peg
// dragged from the palette drops into the place it is let go over; a tap places it in the
// current place (the click handler), so a drag must not also count as a tap.
import { playing } from "./playing.js";

const DRAG_START_PX = 8;

function typing(target) {
  return target instanceof HTMLElement && target.closest("input, select, textarea") !== null;
}

/** A button that isn't a peg or a place: Enter presses it, as usual. */
function otherButton(target) {
  return target instanceof HTMLElement && target.closest("button") !== null &&
    target.closest(".palette, .draft") === null;
}

export function followKeys(app, actions) {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    if (app.phase !== "ready" || !playing(app.views[app.mode])) return;
    const key = event.key;
    if (key === "Enter") {
      if (otherButton(event.target)) return;
      event.preventDefault();
      actions.submit();
      return;
    }
    if (app.mode === "challenge") return;
    if (key === "Backspace" || key === "Delete") {
      event.preventDefault();
      actions.takeBack();
      return;
    }
    const colours = app.views[app.mode].rules?.colors ?? app.pegs.length;
    const peg = app.pegs.find((p) => p.digit <= colours &&
      (String(p.digit) === key || p.letter.toLowerCase() === key.toLowerCase()));
    if (peg) {
      event.preventDefault();
      actions.place(peg.digit);
    }
  });
}

export function followDrags(root, actions) {
  let drag = null;
  root.addEventListener("pointerdown", (event) => {
    const source = event.target.closest?.(".palette .colour");
    if (!source || event.button !== 0) return;
    drag = { digit: Number(source.dataset.digit), x: event.clientX, y: event.clientY, ghost: null, source };
  });
  root.addEventListener("pointermove", (event) => {
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_START_PX) return;
      drag.ghost = drag.source.querySelector(".peg").cloneNode(true);
      drag.ghost.classList.add("ghost");
      document.body.append(drag.ghost);
      try { drag.source.setPointerCapture(event.pointerId); } catch { /* already released */ }
    }
    drag.ghost.style.transform = `translate(${event.clientX}px, ${event.clientY}px)`;
    target(event)?.classList.add("over");
    for (const slot of root.querySelectorAll(".slot.over")) if (slot !== target(event)) slot.classList.remove("over");
  });
  const end = (event) => {
    if (!drag) return;
    const { ghost, digit } = drag;
    drag = null;
    if (!ghost) return; // a tap: the click places the peg
    ghost.remove();
    const slot = event.type === "pointerup" ? target(event) : null;
    // the click that follows a drag must not place the peg a second time
    const swallow = (e) => e.stopPropagation();
    window.addEventListener("click", swallow, { capture: true, once: true });
    setTimeout(() => window.removeEventListener("click", swallow, { capture: true }), 50);
    if (slot) actions.place(digit, Number(slot.dataset.slot));
  };
  root.addEventListener("pointerup", end);
  root.addEventListener("pointercancel", end);
}

function target(event) {
  return document.elementFromPoint(event.clientX, event.clientY)?.closest(".slot") ?? null;
}
