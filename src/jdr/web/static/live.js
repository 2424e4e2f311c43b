// Live updates (jdr.web.live): the campaign's changes arrive as server-sent events and become
// "jdr-…" events on <body>; each live part of the page listens for its own (hx-trigger) and
// asks the server for itself again. After a dropped connection the browser reconnects with the
// last change it saw (Last-Event-ID) and gets every change since; a refused stream is tried
// again here, from that same change.
(() => {
  const body = document.body;
  const base = body.dataset.live;
  if (!base || typeof EventSource === "undefined") return;
  const status = document.getElementById("live-status");
  let seq = Number.parseInt(body.dataset.seq || "-1", 10);
  let wait = 1000;
  const show = (state) => {
    if (!status) return;
    status.dataset.state = state;
    status.textContent = status.dataset[state] || "";
  };
  // A busy table sends many changes a second: each part asks for itself again at most every
  // COALESCE_MS, once for all the changes that came meanwhile (the last one is never dropped).
  const COALESCE_MS = 300;
  const pending = new Set();
  let flushing = null;
  const flush = () => {
    flushing = null;
    const names = [...pending];
    pending.clear();
    for (const name of names) body.dispatchEvent(new CustomEvent(name, { bubbles: true }));
  };
  const fire = (name) => {
    pending.add(name);
    if (flushing === null) flushing = setTimeout(flush, COALESCE_MS);
  };
  const connect = () => {
    const source = new EventSource(`${base}?after=${seq}`);
    source.onopen = () => {
      wait = 1000;
      show("on");
    };
    source.addEventListener("change", (event) => {
      const change = JSON.parse(event.data);
      seq = Math.max(seq, change.seq);
      body.dataset.seq = String(seq);
      fire("jdr-campaign");
      if (change.fight !== null) fire(`jdr-fight-${change.fight}`);
      if (change.entry !== null || change.kind === "disclose" || change.kind === "reveal") {
        fire("jdr-journal");
      }
      for (const id of change.characters) fire(`jdr-sheet-${id}`);
      if (change.kind === "approval") fire("jdr-sheets");
    });
    source.addEventListener("reset", (event) => {
      seq = JSON.parse(event.data).seq;
      body.dataset.seq = String(seq);
      fire("jdr-all");
    });
    source.addEventListener("signedout", () => {
      source.close();
      show("out");
    });
    source.onerror = () => {
      show("off");
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(connect, wait);
        wait = Math.min(wait * 2, 30000);
      }
    };
  };
  connect();
})();
