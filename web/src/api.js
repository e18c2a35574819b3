// The bot's HTTP API (docs/activity.md): relative URLs, so Discord's URL mapping "/" reaches it.
// Every call after the token exchange carries the user's token and the instance id; a refusal
// arrives as {"error": {"code", "message"}} with the message already in the reader's words.
import { t } from "./words.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export class Api {
  constructor(instanceId) {
    this.instanceId = instanceId;
    this.token = null;
  }

  async request(method, path, body) {
    const url = new URL(path, location.href);
    url.searchParams.set("instance_id", this.instanceId);
    const headers = { Accept: "application/json" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response;
    try {
      response = await fetch(url, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, "offline", t("offline"));
    }
    const data = await response.json().catch(() => null);
    if (!response.ok) {
      const error = data?.error ?? {};
      throw new ApiError(response.status, error.code ?? "http_" + response.status,
        error.message ?? t("server_error", { status: response.status }));
    }
    return data;
  }

  get(path, params = {}) {
    const query = new URLSearchParams(params).toString();
    return this.request("GET", query ? `${path}?${query}` : path);
  }

  post(path, body) {
    return this.request("POST", path, { instance_id: this.instanceId, ...body });
  }
}
