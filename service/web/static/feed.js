// The live feed: GET /v1/games/{id}/events with Accept: text/event-stream, read through fetch so that
// it carries the seat token (EventSource cannot send Authorization). After a dropped connection it
// reconnects with Last-Event-ID = the last event seen, so nothing is lost and nothing repeats. It stops
// after the match's last event, whose type the catalogue names (`end_event`; docs/clients.md).
export class Feed {
  constructor(gameId, token, after, endEvent, { onEvent, onRevoked, onStatus, onEnd }) {
    Object.assign(this, { gameId, token, last: after, endEvent, onEvent, onRevoked, onStatus, onEnd });
    this.retryMs = 1000;
    this.closed = false;
    this.connects = 0;
    this.run();
  }

  close() {
    this.closed = true;
    if (this.ctrl) this.ctrl.abort();
  }

  // Drop the connection now (as a network failure would); the feed resumes from Last-Event-ID.
  drop() {
    if (this.ctrl) this.ctrl.abort();
  }

  status(s) {
    this.state = s;
    if (this.onStatus) this.onStatus(s, this.last);
  }

  async run() {
    let failures = 0;
    while (!this.closed) {
      this.ctrl = new AbortController();
      const headers = { Accept: "text/event-stream" };
      if (this.token) headers.Authorization = `Bearer ${this.token}`;
      const resuming = this.connects > 0;
      if (resuming) headers["Last-Event-ID"] = String(this.last);
      const url = `/v1/games/${encodeURIComponent(this.gameId)}/events${resuming ? "" : `?after=${this.last}`}`;
      let ended = "dropped";
      const opened = Date.now(), seen = this.last;
      try {
        this.connects += 1;
        const resp = await fetch(url, { headers, signal: this.ctrl.signal, cache: "no-store" });
        if (resp.status === 401 || resp.status === 403) { ended = "revoked"; }
        else if (!resp.ok || !resp.body) { ended = "dropped"; }
        else {
          failures = 0;
          this.status("live");
          ended = await this.read(resp.body);
        }
      } catch {
        ended = this.closed ? "closed" : "dropped";
      }
      if (this.closed) return;
      if (ended === "revoked") { this.closed = true; this.status("revoked"); if (this.onRevoked) this.onRevoked(); return; }
      if (ended === "finished") { this.closed = true; this.status("ended"); if (this.onEnd) this.onEnd(); return; }
      this.status("reconnecting");
      if (ended === "ended" && (this.last !== seen || Date.now() - opened > 1000)) { failures = 0; continue; } // a healthy stream whose time was up: resume at once
      if (ended === "ended" && this.onEnd) this.onEnd(); // closed at once with nothing new: the game may be over, look
      failures += 1;
      await new Promise((r) => setTimeout(r, Math.min(this.retryMs * failures, 5000)));
    }
  }

  async read(body) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return this.finished ? "finished" : "ended";
      buf += value.replace(/\r\n?/g, "\n");
      let cut;
      while ((cut = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        if (this.dispatch(block) === "revoked") return "revoked";
      }
    }
  }

  dispatch(block) {
    let id = null, type = "message", data = "";
    for (const line of block.split("\n")) {
      if (!line || line.startsWith(":")) continue;
      const i = line.indexOf(":");
      const field = i < 0 ? line : line.slice(0, i);
      const val = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
      if (field === "id") id = val;
      else if (field === "event") type = val;
      else if (field === "data") data += (data ? "\n" : "") + val;
      else if (field === "retry" && /^\d+$/.test(val)) this.retryMs = Number(val);
    }
    if (type === "revoked") return "revoked";
    if (!data) return null;
    let event;
    try { event = JSON.parse(data); } catch { return null; }
    if (id !== null && /^\d+$/.test(id)) this.last = Number(id);
    if (event && this.endEvent && event.type === this.endEvent) this.finished = true;
    this.status("live");
    if (this.onEvent) this.onEvent(event);
    return null;
  }
}
