// The live connection: every move made in this instance (here, in another page, or by /guess in
// the chat) arrives as it happens. The token goes in the first message, never in the URL (URLs get
// logged). When the connection drops (network, a restarted bot) it comes back by itself, waiting a
// little longer each time, and asks for what it missed since the last sequence number it saw.
const FIRST_WAIT_MS = 200;
const LONGEST_WAIT_MS = 5000;
/** Refusals that another try would only repeat: the page says why and stops trying. */
const FINAL = new Set(["bad_token", "not_in_instance", "no_instance"]);

export class Live {
  constructor({ instanceId, token, since, onMessage, onStatus }) {
    this.instanceId = instanceId;
    this.token = token;
    this.seq = since ?? 0;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.wait = FIRST_WAIT_MS;
    this.socket = null;
    this.timer = null;
  }

  connect() {
    clearTimeout(this.timer);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/api/live?instance_id=${encodeURIComponent(this.instanceId)}`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ type: "auth", token: this.token, since: this.seq }));
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", () => this.dropped(socket));
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof message.seq === "number") this.seq = Math.max(this.seq, message.seq);
    if (message.type === "ready") {
      this.wait = FIRST_WAIT_MS;
      this.onStatus("live");
    }
    if (message.type === "error" && FINAL.has(message.code)) this.stopped = true;
    this.onMessage(message);
  }

  dropped(socket) {
    if (socket !== this.socket || this.stopped) return;
    this.onStatus("offline");
    const jitter = 0.5 + Math.random();
    this.timer = setTimeout(() => this.connect(), this.wait * jitter);
    this.wait = Math.min(this.wait * 2, LONGEST_WAIT_MS);
  }
}
