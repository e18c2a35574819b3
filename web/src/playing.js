// Whether a game takes a move now: a running game, or today's code not yet begun (its first
// guess begins it: the daily code has no "start").
export function playing(view) {
  return view?.status === "running" || (view?.mode === "daily" && view.status === "none");
}
