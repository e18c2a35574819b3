// The Activity's page: sign in through Discord, load the reader's words and this instance's games,
// follow every move live, and play by tap, drag or keyboard. Every refusal the server gives is
// shown in its own words; nothing here decides a rule (the bot does).
import "./style.css";
import { Api, ApiError } from "./api.js";
import { followParticipants, signIn } from "./discord.js";
import { redraw } from "./dom.js";
import { followKeys, followDrags } from "./input.js";
import { Live } from "./live.js";
import { playing } from "./playing.js";
import { render } from "./view.js";
import { setWords, t } from "./words.js";

const root = document.getElementById("app");
const clientId = document.querySelector('meta[name="mastermind-client-id"]')?.content ?? "";
const instanceId = new URLSearchParams(location.search).get("instance_id") ?? "";
const api = new Api(instanceId);

const app = {
  phase: "connecting", failure: "", me: null, place: null, modes: [], pegs: [],
  mode: null, views: {}, draft: [], cursor: 0, reply: { black: 0, white: 0 },
  participants: [], live: "connecting", seq: 0, message: null, notice: "", busy: false,
  quitting: false, // "Give up" tapped once: the next tap gives up
  sending: null, // the request on its way: { mode, body, draft } (see sentRowShown)
  form: { pegs: 4, colors: 6, max_guesses: 10, repeats: true },
};

function show() {
  if (!playing(app.views[app.mode])) app.quitting = false;
  redraw(root, render(app, actions));
  root.setAttribute("aria-busy", String(app.phase === "connecting"));
  document.documentElement.lang = (app.locale ?? "en").replace("_", "-");
  const view = app.views[app.mode];
  const playable = app.phase === "ready" && playing(view) && !app.busy;
  root.dataset.playable = String(playable);
  root.dataset.seq = String(app.seq); // the last live update shown (the browser tests wait on it)
  if (playable && !performance.getEntriesByName("mastermind-playable").length) {
    performance.mark("mastermind-playable"); // bench/activity_client_bench.py reads it
  }
}

function rules() {
  return app.views[app.mode]?.rules ?? {};
}

/** A fresh, empty row the size of the current game. */
function freshDraft() {
  app.draft = Array(rules().pegs ?? 0).fill(null);
  app.cursor = 0;
  app.reply = { black: 0, white: 0 };
}

/** The row (or the key pegs) being drafted, as text: has the player touched it since? */
function drafted() {
  return JSON.stringify([app.draft, app.reply]);
}

/** Whether ``view`` shows the row on its way as played, the draft untouched since it was
 *  sent: a live update can show it before the answer to the request itself arrives (two
 *  connections), and the player may start the next row from what they see. */
function sentRowShown(mode, view) {
  const sent = app.sending;
  if (!sent || sent.mode !== mode || sent.body.code === undefined) return false;
  const move = view.game_id === sent.body.game_id ? view.moves?.[sent.body.turn] : undefined;
  return move?.code === sent.body.code && drafted() === sent.draft;
}

/** The game as it now stands. A game's moves only grow, so a view with fewer moves than the one
 *  shown is older news (a live echo that arrives after the answer to a later move) and is
 *  dropped. The row being drafted (or the key pegs being tapped) stays while it still answers
 *  the same question: the same game, and in a challenge the same turn; an update that changes
 *  neither (the echo of one's own move, a catch-up) never wipes taps. */
function setView(mode, view) {
  const old = app.views[mode];
  if (old && view && old.game_id === view.game_id && view.turn < old.turn) return; // older news
  app.views[mode] = view;
  const sameRow = old && old.game_id === view.game_id && (old.rules?.pegs === view.rules?.pegs)
    && (view.mode !== "challenge" || old.turn === view.turn);
  if (mode === app.mode && (!sameRow || !playing(view) || sentRowShown(mode, view))) {
    freshDraft();
    if (app.sending) app.sending.draft = drafted();
  }
}

function refused(error) {
  app.message = { kind: "error", text: error instanceof ApiError ? error.message : String(error?.message ?? error) };
}

async function loadGame(mode) {
  try {
    setView(mode, await api.get("/api/game", { mode }));
  } catch (error) {
    refused(error);
  }
  show();
}

async function send(path, body) {
  if (app.busy) return;
  app.busy = true;
  app.message = null;
  show();
  const mode = app.mode;
  app.sending = { mode, body, draft: drafted() };
  try {
    setView(mode, await api.post(path, body));
    // the row was played: a fresh one, unless the player has begun the next already
    if (mode === app.mode && drafted() === app.sending.draft) freshDraft();
  } catch (error) {
    refused(error);
    if (error instanceof ApiError && error.status === 409) await loadGame(mode); // out of date
  } finally {
    app.busy = false;
    app.sending = null;
    show();
  }
}

const actions = {
  selectMode(mode) {
    app.mode = mode;
    app.message = null;
    app.notice = "";
    freshDraft();
    show();
    loadGame(mode);
  },
  pick(index) {
    app.cursor = index;
    show();
  },
  place(digit, at) {
    if (!app.draft.length || !playing(app.views[app.mode])) return;
    const index = at ?? app.cursor;
    app.draft[index] = digit;
    const next = app.draft.findIndex((d, i) => i > index && d === null);
    const first = app.draft.indexOf(null);
    app.cursor = next >= 0 ? next : first >= 0 ? first : index;
    app.message = null;
    show();
  },
  takeBack() {
    const last = app.draft.findLastIndex((d) => d !== null);
    if (last >= 0) {
      app.draft[last] = null;
      app.cursor = last;
    }
    show();
  },
  clear() {
    freshDraft();
    show();
  },
  step(which, by) {
    const pegs = rules().pegs ?? 0;
    const value = Math.max(0, Math.min(pegs, app.reply[which] + by));
    app.reply[which] = value;
    show();
  },
  setForm(name, value) {
    app.form[name] = value;
  },
  submit() {
    const view = app.views[app.mode];
    if (!playing(view)) return;
    if (app.mode === "challenge") {
      return send("/api/reply", { game_id: view.game_id, turn: view.turn, black: app.reply.black, white: app.reply.white });
    }
    const missing = app.draft.filter((d) => d === null).length;
    if (missing) {
      app.message = { kind: "error", text: t("need_pegs", { count: missing }) };
      return show();
    }
    const code = app.draft.join("");
    if (app.mode === "puzzle") return send("/api/answer", { code });
    return send("/api/guess", { mode: app.mode, game_id: view.game_id, turn: view.turn, code });
  },
  newGame() {
    return send("/api/new", { mode: app.mode, ...app.form });
  },
  /** Two taps: the first asks, the second gives up (a phone's stray tap loses nothing). */
  giveUp() {
    const view = app.views[app.mode];
    if (!playing(view)) return;
    if (!app.quitting) {
      app.quitting = true;
      return show();
    }
    app.quitting = false;
    return send("/api/quit", { mode: app.mode, game_id: view.game_id });
  },
};
for (const [name, act] of Object.entries(actions)) { // any other action: "Give up" asks again
  if (name !== "giveUp") actions[name] = (...args) => { app.quitting = false; return act(...args); };
}

function liveMessage(message) {
  if (typeof message.seq === "number") app.seq = Math.max(app.seq, message.seq);
  if (message.type === "ready" || message.type === "resync") {
    if (app.mode) loadGame(app.mode); // catch up on whatever happened while away
    return;
  }
  if (message.type === "error") {
    app.message = { kind: "error", text: message.message };
    return show();
  }
  if (message.type !== "move" || !message.view) return;
  setView(message.mode, message.view);
  if (message.mode === app.mode && message.by && message.by.id !== app.me.id) {
    const last = message.view.moves?.at(-1) ?? {};
    app.notice = message.mode === "challenge"
      ? t("replied", { name: message.by.name, black: last.black, white: last.white })
      : t("moved", { name: message.by.name, code: last.code ?? "" });
  }
  show();
}

async function loadWords() {
  try {
    const { words } = await api.get("/api/words", { locale: navigator.language });
    setWords(words);
    show();
  } catch {
    // the state's words come with sign-in
  }
}

async function start() {
  show();
  const words = loadWords();
  let session;
  try {
    session = await signIn(clientId, api);
  } catch (error) {
    await words;
    app.phase = "failed";
    app.failure = t("signin_failed", { reason: error?.message ?? String(error) });
    return show();
  }
  api.token = session.token;
  try {
    // the game most likely asked for first, read alongside the state (a server: its channel's)
    const likely = new URLSearchParams(location.search).get("guild_id") ? "channel" : "daily";
    const [state, first] = await Promise.all([
      api.get("/api/state"), api.get("/api/game", { mode: likely }).catch(() => null),
      session.authenticated.catch((error) => {
        throw new Error(t("signin_failed", { reason: error?.message ?? String(error) }));
      })]);
    setWords(state.words);
    Object.assign(app, {
      me: state.me, locale: state.locale, place: state.place, modes: state.modes,
      pegs: state.pegs.filter((p) => p.digit > 0), hole: state.pegs.find((p) => p.digit === 0),
    });
    app.mode = state.modes.includes("channel") ? "channel" : state.modes[0];
    setView(app.mode, first && app.mode === likely ? first : await api.get("/api/game", { mode: app.mode }));
    app.phase = "ready";
    new Live({
      instanceId, token: session.token, since: state.seq, onMessage: liveMessage,
      onStatus: (status) => { app.live = status; show(); },
    }).connect();
  } catch (error) {
    app.phase = "failed";
    app.failure = error?.message ?? String(error);
  }
  show();
  followParticipants(session.sdk, (participants) => {
    app.participants = participants;
    show();
  }).catch(() => {});
}

followKeys(app, actions);
followDrags(root, actions);
start();
