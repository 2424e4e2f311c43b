// "Verify in my browser": download the journal's export and check it here with verify.js
// (WebCrypto), or check a saved export the player picks; the verdict never asks the server.
// Its failures are told in the page's language: the page carries the verifier's words
// (`#verify-messages`, from `jdr.journal.verify.browser_messages`).
import { describe, verifyJournalText } from "./verify.js";

const section = document.querySelector("section.verify");
const output = document.getElementById("verdict");
const words = document.getElementById("verify-messages");
const messages = words ? JSON.parse(words.textContent) : {};

async function show(text) {
  output.textContent = "…";
  const report = await verifyJournalText(text);
  output.dataset.result = report.ok ? "ok" : "bad";
  output.textContent = report.ok
    ? `${output.dataset.ok} (${report.entries})`
    : output.dataset.said  // `NOT verified: …`, one problem a line, in the page's typography
      .replace("{label}", () => output.dataset.bad)
      .replace("{value}", () => report.problems.map((p) => describe(p, messages)).join("\n"));
}

document.getElementById("verify").addEventListener("click", async () => {
  const answer = await fetch(section.dataset.export, { credentials: "same-origin" });
  await show(await answer.text());
});

document.getElementById("verify-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) await show(await file.text());
});
