// What the page shows, drawn from the app's state. No colour carries meaning alone: every peg
// shows its digit (and its name to screen readers), key pegs are a filled ● and a hollow ○ with
// their counts written beside them, and every control is a labelled button.
import { h } from "./dom.js";
import { playing } from "./playing.js";
import { has, t } from "./words.js";

const MODES = ["channel", "daily", "puzzle", "private", "challenge"];
/** Modes with a New game (of a size the player picks); the daily code and the puzzle of the
 *  day are the day's own and begin with their first move. */
const SIZED = new Set(["channel", "private", "challenge"]);
const KEY_GLYPHS = { black: "●", white: "○" };

export function render(app, act) {
  if (app.phase !== "ready") return splash(app);
  const view = app.views[app.mode];
  return [
    header(app, act),
    h("main", { class: "main" },
      h("section", { class: "board", "aria-label": t("mode_" + app.mode) },
        view ? board(app, view, act) : [app.message ? null : h("p", { class: "status" }, t("connecting")), message(app)]),
      h("aside", { class: "side" }, players(app), colourKey(app))),
  ];
}

function splash(app) {
  const failed = app.phase === "failed";
  return h("div", { class: "splash", role: failed ? "alert" : "status" },
    failed ? null : h("span", { class: "spinner", "aria-hidden": "true" }),
    h("span", {}, failed ? app.failure : t("connecting")));
}

function header(app, act) {
  return h("header", { class: "top" },
    h("nav", { class: "modes", "aria-label": t("modes") },
      MODES.filter((m) => app.modes.includes(m)).map((mode) => h("button", {
        type: "button", class: "mode", "data-key": "mode-" + mode,
        "aria-pressed": String(mode === app.mode), onclick: () => act.selectMode(mode),
      }, t("mode_" + mode)))),
    h("p", { class: "live " + app.live, role: "status" },
      h("span", { class: "dot", "aria-hidden": "true" }),
      app.live === "live" ? t("live") : app.live === "offline" ? t("offline") : t("connecting")));
}

function pegInfo(app, digit) {
  return app.pegs.find((p) => p.digit === Number(digit));
}

/** One code peg: the drawn peg with its digit on it. */
export function peg(app, digit) {
  const info = pegInfo(app, digit);
  return h("span", { class: "peg", "data-digit": digit },
    info ? h("img", { src: info.image, alt: "", draggable: "false" }) : null,
    h("span", { class: "peg-digit", "aria-hidden": "true" }, digit));
}

/** An empty place: the boards' drawn hole. */
function hole(app) {
  return app.hole ? h("img", { class: "hole", src: app.hole.image, alt: "", draggable: "false" })
    : h("span", { class: "hole", "aria-hidden": "true" });
}

function codeLabel(app, code) {
  return [...String(code)].map((d) => `${pegInfo(app, d)?.name ?? ""} ${d}`.trim()).join(", ");
}

function code(app, digits) {
  return h("span", { class: "code", role: "img", "aria-label": codeLabel(app, digits.join("")) },
    digits.map((d) => peg(app, d)));
}

function keyPegs(black, white) {
  const label = `${t("black", { count: black })}. ${t("white", { count: white })}.`;
  return h("span", { class: "keys", role: "img", "aria-label": label, title: label },
    h("span", { class: "key black" + (black ? "" : " none") }, KEY_GLYPHS.black, h("b", {}, black)),
    h("span", { class: "key white" + (white ? "" : " none") }, KEY_GLYPHS.white, h("b", {}, white)));
}

function moveRow(app, move, index) {
  const mine = move.by && move.by.id === app.me.id;
  return h("li", { class: "row" + (mine ? " mine" : "") },
    h("span", { class: "n" }, index + 1),
    code(app, [...move.code]),
    keyPegs(move.black, move.white),
    move.by && app.mode !== "challenge" ? h("span", { class: "by" }, mine ? t(has("by_you") ? "by_you" : "you") : t("by", { name: move.by.name })) : null);
}

function board(app, view, act) {
  const rules = view.rules ?? {};
  const rows = app.mode === "puzzle" ? (view.clues ?? []) : (view.moves ?? []);
  const parts = [];
  if (playing(view) && rules.max_guesses && app.mode !== "puzzle") {
    parts.push(h("p", { class: "turn" }, t("turn", { n: Math.min(view.turn + 1, rules.max_guesses), max: rules.max_guesses })));
  }
  if (app.mode === "puzzle" && rows.length) parts.push(h("h2", { class: "sub" }, t("clues")));
  if (app.mode === "challenge" && view.status === "running") parts.push(h("p", { class: "hint" }, t("challenge_intro")));
  parts.push(h("ol", { class: "history", "aria-label": app.mode === "puzzle" ? t("clues") : t("mode_" + app.mode) },
    rows.map((move, i) => moveRow(app, move, i))));
  if (playing(view)) {
    parts.push(app.mode === "challenge" ? challengeReply(app, view, act) : draftRow(app, view, act));
  } else if (view.status === "none") {
    parts.push(h("p", { class: "status" }, t("no_game")));
  }
  if (view.named) parts.push(h("p", { class: "secret" }, h("span", {}, t("answer")), code(app, [...view.named])));
  if (view.secret) {
    parts.push(h("p", { class: "secret" }, h("span", {}, t("secret")), code(app, [...view.secret])));
  }
  const said = outcome(view);
  if (said.length) parts.push(h("div", { class: "result", role: "status" }, said.map((line) => h("p", {}, line))));
  parts.push(message(app));
  parts.push(h("p", { class: "notice", "aria-live": "polite" }, app.notice ?? ""));
  if (SIZED.has(view.mode) && playing(view) && (view.mode !== "channel" || view.started_by?.id === app.me?.id)) {
    parts.push(h("p", { class: "give-up" },
      h("button", { type: "button", class: app.quitting ? "danger" : "quiet", "data-key": "give-up", onclick: act.giveUp, disabled: app.busy },
        app.quitting ? t("give_up_sure") : t("give_up"))));
  }
  if (SIZED.has(view.mode) && view.status !== "running" && view.status !== "busy") {
    parts.push(newGame(app, act));
  }
  return parts;
}

function message(app) {
  return h("p", { class: "message " + (app.message?.kind ?? ""), role: "alert" }, app.message?.text ?? "");
}

/** How the game stands, in words: the view holds facts (status, winner, streak), the words
 *  come from the reader's catalog. */
function outcome(view) {
  const lines = [];
  const status = view.status;
  if (view.mode === "challenge") {
    if (status === "running" && view.codes_left != null) lines.push(t("codes_left", { count: view.codes_left }));
    if (status === "won") lines.push(t("bot_won"));
    if (status === "lost") lines.push(t("bot_lost"));
  } else if (view.mode === "puzzle") {
    if (status === "running") lines.push(t("puzzle_prompt"));
    if (status === "won") lines.push(t("solved"));
    if (status === "lost") lines.push(t("missed"));
  } else if (status === "won") {
    lines.push(view.winner?.name ? t("won_by", { name: view.winner.name }) : t("won"));
  } else if (status === "lost") {
    lines.push(t("lost"));
  }
  if (status === "quit" || status === "abandoned") lines.push(t("ended"));
  if (status === "busy") lines.push(t("busy"));
  if (view.mode === "daily" && (status === "won" || status === "lost")) lines.push(t("daily_done"));
  if (view.streak && (view.mode === "daily" || view.mode === "puzzle") && status !== "running" && status !== "none") {
    lines.push(t("streak", view.streak));
  }
  return lines;
}

function draftRow(app, view, act) {
  const slots = app.draft.map((digit, i) => h("button", {
    type: "button", class: "slot" + (i === app.cursor ? " current" : ""), "data-slot": i,
    "data-key": "slot-" + i, "aria-pressed": String(i === app.cursor),
    "aria-label": `${t("place", { n: i + 1 })}: ${digit ? codeLabel(app, digit) : t("empty")}`,
    onclick: () => act.pick(i),
  }, digit ? peg(app, digit) : hole(app)));
  const colours = view.rules?.colors ?? app.pegs.length;
  const palette = app.pegs.filter((p) => p.digit <= colours).map((p) => h("button", {
    type: "button", class: "colour", "data-digit": p.digit, "data-key": "colour-" + p.digit,
    "aria-label": `${p.name} ${p.digit} (${p.letter})`, title: `${p.name} (${p.digit}, ${p.letter})`,
    onclick: () => act.place(p.digit),
  }, peg(app, p.digit), h("span", { class: "letter", "aria-hidden": "true" }, p.letter)));
  const verb = app.mode === "puzzle" ? t("answer") : t("guess");
  return h("div", { class: "play" },
    h("div", { class: "draft", role: "group", "aria-label": t("row", { n: (view.moves?.length ?? 0) + 1 }) }, slots),
    h("div", { class: "palette", role: "group", "aria-label": t("colour_key") }, palette),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary", "data-key": "delete", onclick: act.takeBack, "aria-label": t("delete") }, "⌫"),
      h("button", { type: "button", class: "secondary", "data-key": "clear", onclick: act.clear }, t("clear")),
      h("button", { type: "button", class: "primary", "data-key": "submit", onclick: act.submit, disabled: app.busy }, app.busy ? t("sending") : verb)),
    h("p", { class: "hint" }, t("keys_help")));
}

function stepper(app, which, act) {
  const value = app.reply[which];
  const label = t(which === "black" ? "reply_black" : "reply_white");
  return h("div", { class: "stepper " + which, role: "group", "aria-label": label },
    h("span", { class: "stepper-label" }, h("span", { class: "key " + which, "aria-hidden": "true" }, KEY_GLYPHS[which]), label),
    h("button", { type: "button", "data-key": which + "-less", "aria-label": `${label} −1`, onclick: () => act.step(which, -1) }, "−"),
    h("output", { "aria-live": "polite" }, value),
    h("button", { type: "button", "data-key": which + "-more", "aria-label": `${label} +1`, onclick: () => act.step(which, 1) }, "+"));
}

function challengeReply(app, view, act) {
  return h("div", { class: "play reply" },
    h("p", { class: "sub" }, t("bot_guesses")),
    view.bot_guess ? code(app, [...view.bot_guess]) : null,
    stepper(app, "black", act),
    stepper(app, "white", act),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", "data-key": "reply", onclick: act.submit, disabled: app.busy },
        app.busy ? t("sending") : t("reply"))));
}

function choice(name, label, value, options, act) {
  return h("label", { class: "field" }, h("span", {}, label),
    h("select", { "data-key": "form-" + name, onchange: (e) => act.setForm(name, Number(e.target.value)) },
      options.map((n) => h("option", { value: n, selected: n === value }, n))));
}

function range(from, to) {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

function newGame(app, act) {
  const form = app.form;
  return h("div", { class: "new-game" },
    h("div", { class: "fields" },
      choice("pegs", t("pegs"), form.pegs, range(2, 8), act),
      choice("colors", t("colors"), form.colors, range(2, 9), act),
      choice("max_guesses", t("max_guesses"), form.max_guesses, range(1, 20), act),
      h("label", { class: "field check" },
        h("input", { type: "checkbox", "data-key": "form-repeats", checked: form.repeats, onchange: (e) => act.setForm("repeats", e.target.checked) }),
        h("span", {}, t("repeats")))),
    h("button", { type: "button", class: "primary", "data-key": "new-game", onclick: act.newGame, disabled: app.busy },
      t("new_game")));
}

function players(app) {
  return h("section", { class: "players", "aria-label": t("players") },
    h("h2", { class: "sub" }, t("players")),
    h("ul", {}, app.participants.map((p) => h("li", { class: p.id === app.me.id ? "me" : "" },
      p.nickname ?? p.global_name ?? p.username, p.id === app.me.id ? ` (${t("you")})` : ""))));
}

function colourKey(app) {
  const colours = app.views[app.mode]?.rules?.colors ?? app.pegs.length;
  return h("section", { class: "key-table", "aria-label": t("colour_key") },
    h("h2", { class: "sub" }, t("colour_key")),
    h("ul", {}, app.pegs.filter((p) => p.digit <= colours).map((p) =>
      h("li", { "data-digit": p.digit, "data-letter": p.letter }, peg(app, p.digit),
        h("span", {}, `${p.digit} · ${p.letter} · ${p.name}`)))),
    h("p", { class: "hint" }, h("span", { class: "key black", "aria-hidden": "true" }, KEY_GLYPHS.black), " ",
      h("span", { class: "key white", "aria-hidden": "true" }, KEY_GLYPHS.white), " ", t("key")));
}
