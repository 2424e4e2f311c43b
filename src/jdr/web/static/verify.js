// jdr journal verifier: everything `jdr verify` checks that needs no rules, in any modern browser
// or Node.js (>= 20), with no dependency: WebCrypto for SHA-256 and HMAC-SHA256.
//
//   import { verifyJournalText } from "./verify.js";
//   const report = await verifyJournalText(await (await fetch(url)).text(), { pins, witnesses });
//   report.ok, report.problems[0]   // {kind, seq, data, message}
//
// It follows docs/verifiable-rolls.md: commitments, sequence, hash chain, each entry's hash and
// body hash (hidden entries included once disclosed), each derived die, pins and witnesses.
// Journals of format 1 (Python JSON) and format 2 (RFC 8785) both verify: numbers are kept as the
// text the file holds, so a format-1 entry hashes exactly the bytes Python wrote.

const FORMAT = "jdr-journal";
const FILE_VERSIONS = [1, 2];
const SCHEMES = [1, 2];
const GENESIS = "0".repeat(64);
const SEED_BYTES = 32;
const MAX_SIZE = 1000000;
const SHORT = 10;
const encoder = new TextEncoder();

// --- details: why a part is malformed, a key and its values (a page translates them) ---------

/** The details of `format`, `malformed`, `replay`, `fights` and `sheets` problems, in English;
 * a page in another language passes its own words for them to `describe` (the same keys as
 * `jdr.journal.verify.BROWSER_DETAILS`, which the Python tests hold equal to these). */
export const DETAILS = {
  json_nested: "not JSON: nested too deeply at character {at}",
  json_key: "not JSON: a key expected at character {at}",
  json_colon: "not JSON: ':' expected at character {at}",
  json_object: "not JSON: ',' or '}' expected at character {at}",
  json_array: "not JSON: ',' or ']' expected at character {at}",
  json_value: "not JSON: a value expected at character {at}",
  json_string: "not JSON: a string not closed at character {at}",
  json_control: "not JSON: a control character in a string at character {at}",
  json_end: "not JSON: more text after the value at character {at}",
  not_finite: "not a finite number",
  too_large: "{number} is too large to be exact in JSON",
  scheme: "unknown scheme version {version}",
  not_object: "not an object",
  missing_field: "missing field {field}",
  wrong_type: "{field} has the wrong type",
  dice_rolls: "dice.rolls must list [size, face] pairs of whole numbers",
  format_version: "format {format}, v {v}",
  not_list: "{field} is not a list",
  epoch: "an epoch is not an object",
  fight: "a fight is not an object with a list of events",
  sheet_item: "an item of {field} is not an object with character, name, revision, seq and sheet",
};

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_m, name) => String(values[name]));
}

/** An error that says which detail it is (`DETAILS`) and with what values. */
class DetailError extends Error {
  constructor(key, args = {}) {
    super(fill(DETAILS[key], args));
    this.detail = { key, args };
  }
}

/** A caught error as a problem's detail: its key and values, or (an error of the platform) its text. */
function detailOf(error) {
  return error && error.detail ? error.detail : String(error && error.message);
}

// --- JSON that keeps its numbers' text ------------------------------------------------------

/** A JSON number as written in the file: `text` is its lexeme, `value` its Number. */
export class Num {
  constructor(text) {
    this.text = text;
    this.value = Number(text);
  }
}

/** Parse JSON text, keeping each number's lexeme (`Num`), with a nesting limit. */
export function parseJson(text, maxDepth = 200) {
  let i = 0;
  const fail = (key) => {
    throw new DetailError(key, { at: i });
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const value = (depth) => {
    if (depth > maxDepth) fail("json_nested");
    space();
    const c = text[i];
    if (c === "{") {
      i++;
      const out = {};
      space();
      if (text[i] === "}") {
        i++;
        return out;
      }
      for (;;) {
        space();
        if (text[i] !== '"') fail("json_key");
        const key = string();
        space();
        if (text[i] !== ":") fail("json_colon");
        i++;
        Object.defineProperty(out, key, {
          value: value(depth + 1), enumerable: true, writable: true, configurable: true,
        });
        space();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "}") { i++; return out; }
        fail("json_object");
      }
    }
    if (c === "[") {
      i++;
      const out = [];
      space();
      if (text[i] === "]") { i++; return out; }
      for (;;) {
        out.push(value(depth + 1));
        space();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "]") { i++; return out; }
        fail("json_array");
      }
    }
    if (c === '"') return string();
    if (text.startsWith("true", i)) { i += 4; return true; }
    if (text.startsWith("false", i)) { i += 5; return false; }
    if (text.startsWith("null", i)) { i += 4; return null; }
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (match === null) fail("json_value");
    i += match[0].length;
    return new Num(match[0]);
  };
  const string = () => {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) fail("json_string");
      const c = text[i];
      if (c === '"') break;
      if (c === "\\") i++;
      else if (c < " ") fail("json_control");
      i++;
    }
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const result = value(0);
  space();
  if (i !== text.length) fail("json_end");
  return result;
}

// --- canonical bytes --------------------------------------------------------------------------

function codePointOrder(a, b) {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let k = 0; k < Math.min(x.length, y.length); k++) {
    const d = x[k].codePointAt(0) - y[k].codePointAt(0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

function number(n, scheme) {
  if (scheme === 1) return n.text; // what Python wrote, byte for byte
  if (!Number.isFinite(n.value)) throw new DetailError("not_finite");
  if (Number.isInteger(n.value) && !Number.isSafeInteger(n.value)) {
    throw new DetailError("too_large", { number: n.text });
  }
  return JSON.stringify(n.value); // ECMAScript's form: RFC 8785
}

/**
 * The canonical JSON text of a parsed value: RFC 8785 for scheme 2 (keys by UTF-16 code units,
 * ECMAScript numbers, JSON.stringify's escapes); Python's `json.dumps(sort_keys=True,
 * separators=(",", ":"), ensure_ascii=False)` for scheme 1 (keys by code point, numbers as
 * written).
 */
export function canonicalize(value, scheme = 2) {
  if (value instanceof Num) return number(value, scheme);
  if (value === null || typeof value !== "object") {
    if (typeof value === "number") return number(new Num(String(value)), scheme);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return "[" + value.map((v) => canonicalize(v, scheme)).join(",") + "]";
  const keys = Object.keys(value).sort(scheme === 1 ? codePointOrder : undefined);
  return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonicalize(value[k], scheme)).join(",") + "}";
}

// --- hashes -----------------------------------------------------------------------------------

const subtle = () => globalThis.crypto.subtle;

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function fromHex(text) {
  if (typeof text !== "string" || !/^([0-9a-fA-F]{2})*$/.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let k = 0; k < out.length; k++) out[k] = parseInt(text.slice(2 * k, 2 * k + 2), 16);
  return out;
}

export async function sha256Hex(bytes) {
  return hex(await subtle().digest("SHA-256", typeof bytes === "string" ? encoder.encode(bytes) : bytes));
}

// --- derived dice -----------------------------------------------------------------------------

function plainValue(value) {
  if (value instanceof Num) return value.value;
  if (Array.isArray(value)) return value.map(plainValue);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainValue(v)]));
  }
  return value;
}

function schemeOf(context) {
  const v = context.v === undefined ? 1 : plainValue(context.v);
  if (!SCHEMES.includes(v)) throw new DetailError("scheme", { version: JSON.stringify(v) });
  return v;
}

/** The faces of dice of `sizes`, in order, from a seed and a roll's context (one stream). */
export async function deriveFaces(seed, context, sizes) {
  const scheme = schemeOf(context);
  const message = encoder.encode(canonicalize({ ...context, v: new Num(String(scheme)) }, scheme));
  const key = await subtle().importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  let stream = new Uint8Array(0);
  let counter = 0n;
  const take = async (k) => {
    while (stream.length < k) {
      const block = new Uint8Array(message.length + 8);
      block.set(message);
      new DataView(block.buffer).setBigUint64(message.length, counter);
      counter += 1n;
      const mac = new Uint8Array(await subtle().sign("HMAC", key, block));
      const joined = new Uint8Array(stream.length + mac.length);
      joined.set(stream);
      joined.set(mac, stream.length);
      stream = joined;
    }
    let x = 0;
    for (let j = 0; j < k; j++) x = x * 256 + stream[j];
    stream = stream.slice(k);
    return x;
  };
  const faces = [];
  for (const n of sizes) {
    if (n === 1) { faces.push(1); continue; }
    let k = 1;
    while (256 ** k < n) k++;
    const limit = n * Math.floor(256 ** k / n);
    for (;;) {
      const x = await take(k);
      if (x < limit) { faces.push((x % n) + 1); break; }
    }
  }
  return faces;
}

// --- the report -------------------------------------------------------------------------------

const MESSAGES = {
  format: "not a jdr journal: {detail}",
  malformed: "entry at position {position} is malformed: {detail}",
  seed: "epoch {epoch}: the revealed seed hashes to {found}, its commitment is {expected}",
  seed_form: "epoch {epoch}: the revealed seed is not {n} bytes of hex: {found}",
  missing: "entry {seq}: expected entry {expected} here — entries {expected} to {before} are missing",
  missing_one: "entry {seq}: expected entry {expected} here — entry {expected} is missing",
  swap: "entries {seq} and {other} are out of order: {other} comes before {seq}",
  order: "entry {seq}: comes after entry {previous} — entries are out of order or repeated",
  link: "entry {seq}: prev_hash is {found}, but the entry before it has hash {expected} — an entry before it was changed, removed or moved",
  hash: "entry {seq}: its content hashes to {expected}, the journal shows {found} — the entry was changed",
  commitment: "entry {seq}: commitment {found} is not one of the journal's epochs",
  body_hash: "entry {seq}: its body hashes to {expected}, the body_hash shown is {found} — the body is not the one committed to",
  context_seq: "entry {seq}: its context says seq {found}",
  die: "entry {seq}: die {die} (d{size}) derives to {expected}, the journal shows {found} — a face, the action or its parameters were changed",
  replay: "entry {seq}: the rules refuse this action from these dice: {detail}",
  events_hash: "entry {seq}: its events hash to {expected}, its events_hash says {found} — the entry binds other events than it shows",
  fight_changed: "fight {fight}: event {event} is not the one entry {seq} recorded — the stored fight was changed",
  fight_added: "fight {fight}: event {event} is in no journal entry — it was added to the stored fight",
  fight_removed: "fight {fight}: entry {seq} recorded event {event}, which the stored fight no longer holds — it was removed",
  fights: "the journal's fights are malformed: {detail}",
  sheet_changed: "sheet {name}: revision {revision} is not the one entry {seq} recorded — the stored sheet was changed",
  sheet_behind: "sheet {name}: entry {seq} recorded its revision {recorded}, the stored sheet is at revision {revision} — the stored sheet was put back",
  sheets: "the journal's sheets are malformed: {detail}",
  pin: "entry {seq}: its hash is {found}, the pinned hash is {expected}",
  sheet_entry: "sheet {name}: entry {seq} recorded no revision {revision} of it — the sheet names another entry than the one that recorded it",
  snapshot_changed: "sheet {name}: the whole sheet kept at revision {revision} is not the one entry {seq} recorded — a past revision was changed",
  field: "entry {seq}: its field {field} is bound by no hash — it was added to the entry",
  sealed_revealed: "entry {seq}: a hidden entry shown sealed in a revealed epoch — its epoch was revealed only once it was disclosed, so its body was taken out",
  pin_missing: "entry {seq} is pinned but not in the journal (last entry: {last})",
  witness: "entry {seq}: {source} saw hash {expected}, the journal shows {found} — the journal was rewritten after it was seen",
  witness_missing: "entry {seq}: {source} saw it, but the journal ends at entry {last} — entries were removed",
};

function problem(kind, seq, data = {}) {
  if (data.detail && typeof data.detail === "object") {
    const { key, args } = data.detail;
    data = { ...data, detail: fill(DETAILS[key], args), detail_key: key, detail_args: args };
  }
  const found = { kind, seq, data };
  return { ...found, message: describe(found) };
}

/**
 * A problem in words: `MESSAGES` and `DETAILS` in English, or `messages` = `{kinds, details}`,
 * the same templates in the reader's language (a key it lacks stays English).
 */
export function describe(found, messages = {}) {
  const kinds = messages.kinds || {};
  const details = messages.details || {};
  const values = { seq: found.seq, ...found.data };
  const key = found.data.detail_key;
  if (key && details[key]) values.detail = fill(details[key], found.data.detail_args);
  return fill(kinds[found.kind] || MESSAGES[found.kind], values);
}

/** The fields of an entry its hash covers (with `time` in format 2, the body once disclosed). */
const BOUND = ["seq", "prev_hash", "commitment", "hidden", "body_hash", "hash", "v"];

const FIELDS = { seq: "int", prev_hash: "string", commitment: "string", hash: "string", hidden: "boolean" };

function isInt(value) {
  return value instanceof Num && Number.isInteger(value.value) && /^-?[0-9]+$/.test(value.text);
}

function checkShape(item) {
  if (item === null || typeof item !== "object" || Array.isArray(item)) throw new DetailError("not_object");
  for (const [name, kind] of Object.entries(FIELDS)) {
    if (!(name in item)) throw new DetailError("missing_field", { field: name });
    const ok = kind === "int" ? isInt(item[name]) : typeof item[name] === kind;
    if (!ok) throw new DetailError("wrong_type", { field: name });
  }
  const v = "v" in item ? item.v : new Num("1");
  if (!isInt(v) || !SCHEMES.includes(v.value)) throw new DetailError("wrong_type", { field: "v" });
  if (v.value === 2 && typeof item.time !== "string") throw new DetailError("wrong_type", { field: "time" });
  if (!("context" in item)) {
    if (typeof item.body_hash !== "string") throw new DetailError("wrong_type", { field: "body_hash" });
    return;
  }
  for (const name of ["context", "dice", "result"]) {
    const part = item[name];
    if (part === null || typeof part !== "object" || Array.isArray(part)) throw new DetailError("wrong_type", { field: name });
  }
  const rolls = item.dice.rolls;
  const die = (r) => Array.isArray(r) && r.length === 2 && r.every(isInt) && r[0].value >= 1 && r[0].value <= MAX_SIZE;
  if (!Array.isArray(rolls) || !rolls.every(die)) throw new DetailError("dice_rolls");
}

async function entryHashes(item) {
  const scheme = "v" in item ? item.v.value : 1;
  const disclosed = "context" in item;
  let bodyHash = item.body_hash;
  if (disclosed) {
    const body = { context: item.context, dice: item.dice, result: item.result };
    if (item.hidden) body.salt = item.salt === undefined ? null : item.salt;
    bodyHash = await sha256Hex(canonicalize(body, scheme));
  }
  const header = {
    seq: item.seq, prev_hash: item.prev_hash, commitment: item.commitment, hidden: item.hidden,
    body_hash: bodyHash,
  };
  if (scheme !== 1) Object.assign(header, { time: item.time, v: item.v });
  return { scheme, disclosed, bodyHash, hash: await sha256Hex(canonicalize(header, scheme)) };
}

function swaps(raw) {
  const seqs = raw.map((item) => (item && typeof item === "object" && isInt(item.seq) ? item.seq.value : null));
  const found = new Map();
  let expected = 1;
  seqs.forEach((seq, index) => {
    if (seq === null) return;
    const following = index + 1 < seqs.length ? seqs[index + 1] : null;
    if (!found.has(index + 1) && seq === expected + 1 && following === expected) {
      found.set(index + 1, true);
      found.set(index + 2, false);
    }
    expected = Math.max(expected, seq + 1);
  });
  return found;
}

/**
 * Check a parsed journal (from `parseJson`). `pins` maps a seq to a hash (or its first digits);
 * `witnesses` is a list of `{seq, hash, source}` heads seen elsewhere (saved recaps, forum posts).
 */
export async function verifyJournal(journal, { pins = {}, witnesses = [] } = {}) {
  const report = {
    ok: true, entries: 0, dice_checked: 0, sealed: [], unrevealed: [], not_derived: [],
    problems: [], last: null,
  };
  const done = () => {
    report.ok = report.problems.length === 0;
    return report;
  };
  const v = journal && journal.v instanceof Num ? journal.v.value : journal && journal.v;
  if (!journal || journal.format !== FORMAT || !FILE_VERSIONS.includes(v)) {
    report.problems.push(problem("format", null, {
      detail: new DetailError("format_version", {
        format: JSON.stringify(journal && journal.format), v: JSON.stringify(v),
      }).detail,
    }));
    return done();
  }
  const seeds = new Map();
  const revealed = new Set(); // the commitments of the epochs shown revealed (a seed, even a bad one)
  if (!Array.isArray(journal.epochs)) {
    report.problems.push(problem("format", null, { detail: { key: "not_list", args: { field: "epochs" } } }));
  } else {
    for (const epoch of journal.epochs) {
      if (epoch === null || typeof epoch !== "object" || Array.isArray(epoch)) {
        report.problems.push(problem("format", null, { detail: { key: "epoch", args: {} } }));
        continue;
      }
      const number = plainValue(epoch.number);
      const pledged = String(epoch.commitment);
      seeds.set(pledged, null);
      if (epoch.seed === null || epoch.seed === undefined) continue;
      revealed.add(pledged);
      const seed = fromHex(String(epoch.seed));
      if (seed === null || seed.length !== SEED_BYTES) {
        report.problems.push(problem("seed_form", null, { epoch: number, n: SEED_BYTES, found: epoch.seed }));
        continue;
      }
      const found = await sha256Hex(seed);
      if (found !== epoch.commitment) {
        report.problems.push(problem("seed", null, { epoch: number, found, expected: epoch.commitment }));
        continue;
      }
      seeds.set(pledged, seed);
    }
  }
  const raw = journal.entries;
  if (!Array.isArray(raw)) {
    report.problems.push(problem("format", null, { detail: { key: "not_list", args: { field: "entries" } } }));
    return done();
  }
  const swapped = swaps(raw);
  const hashes = new Map();
  let previousHash = GENESIS;
  let previousSeq = null;
  let expected = 1;
  for (let position = 1; position <= raw.length; position++) {
    const item = raw[position - 1];
    let computed;
    try {
      checkShape(item);
      computed = await entryHashes(item);
    } catch (error) {
      report.problems.push(problem("malformed", null, { position, detail: detailOf(error) }));
      return done();
    }
    const seq = item.seq.value;
    report.entries += 1;
    if (swapped.get(position) === true) report.problems.push(problem("swap", seq - 1, { other: seq }));
    if (!swapped.has(position)) {
      if (seq === expected + 1) report.problems.push(problem("missing_one", seq, { expected }));
      else if (seq > expected) report.problems.push(problem("missing", seq, { expected, before: seq - 1 }));
      else if (seq < expected) report.problems.push(problem("order", seq, { previous: expected - 1 }));
    }
    if (item.prev_hash !== previousHash) {
      report.problems.push(problem("link", seq, { found: item.prev_hash, expected: previousHash }));
    }
    if (computed.disclosed) {
      const contextSeq = item.context.seq === undefined ? null : plainValue(item.context.seq);
      if (contextSeq !== seq) report.problems.push(problem("context_seq", seq, { found: contextSeq }));
    }
    await checkBody(item, seq, computed.disclosed, seeds, revealed, report);
    if (computed.disclosed && "body_hash" in item && item.body_hash !== computed.bodyHash) {
      report.problems.push(problem("body_hash", seq, { expected: computed.bodyHash, found: item.body_hash }));
    }
    if (computed.disclosed && "events_hash" in item.result) {
      const shown = Array.isArray(item.result.events) ? item.result.events : [];
      const bound = await sha256Hex(canonicalize(shown, 2));
      if (bound !== item.result.events_hash) {
        report.problems.push(problem("events_hash", seq, { expected: bound, found: item.result.events_hash }));
      }
    }
    if (computed.hash !== item.hash) {
      report.problems.push(problem("hash", seq, { expected: computed.hash, found: item.hash }));
    }
    const bound = new Set(BOUND);
    if (computed.scheme === 2) bound.add("time");
    if (computed.disclosed) for (const name of item.hidden ? ["context", "dice", "result", "salt"] : ["context", "dice", "result"]) bound.add(name);
    const unbound = Object.keys(item).find((name) => !bound.has(name));
    if (unbound !== undefined) report.problems.push(problem("field", seq, { field: unbound }));
    hashes.set(seq, computed.hash);
    previousHash = item.hash;
    previousSeq = seq;
    expected = Math.max(expected, seq + 1);
  }
  if (previousSeq !== null) report.last = { seq: previousSeq, hash: previousHash };
  await checkFights(journal.fights, raw, report);
  await checkSheets(journal.sheets, raw, report, "sheets");
  await checkSheets(journal.snapshots, raw, report, "snapshots");
  const last = Math.max(0, ...hashes.keys());
  for (const [seq, pinned] of Object.entries(pins).sort((a, b) => Number(a[0]) - Number(b[0]))) {
    const found = hashes.get(Number(seq));
    if (found === undefined) report.problems.push(problem("pin_missing", Number(seq), { last }));
    else if (!found.startsWith(String(pinned).toLowerCase())) {
      report.problems.push(problem("pin", Number(seq), { found: found.slice(0, SHORT), expected: pinned }));
    }
  }
  for (const seen of witnesses) {
    const found = hashes.get(seen.seq);
    if (found === undefined) {
      report.problems.push(problem("witness_missing", seen.seq, { source: seen.source, last }));
    } else if (!found.startsWith(seen.hash.toLowerCase())) {
      report.problems.push(problem("witness", seen.seq, { source: seen.source, expected: seen.hash, found: found.slice(0, SHORT) }));
    }
  }
  return done();
}

// --- fights: the stored events against the entries that recorded them (issue 18) -------------

async function digest(value) {
  return sha256Hex(canonicalize(value, 2));
}

/** The first difference between one action's stored events and its entry, or null. */
async function actionMismatch(events, entry) {
  const seq = entry.seq.value;
  const shown = Array.isArray(entry.result.events) ? entry.result.events : [];
  const bound = entry.result.events_hash;
  if (bound !== undefined && (await digest(events)) === bound && (await digest(shown)) === bound) return null;
  if (bound === undefined && canonicalize(events, 2) === canonicalize(shown, 2)) return null;
  for (let k = 0; k < Math.min(events.length, shown.length); k++) {
    if ((await digest(events[k])) !== (await digest(shown[k]))) return ["changed", k, seq];
  }
  if (events.length > shown.length) return ["added", shown.length, seq];
  if (events.length < shown.length) return ["removed", events.length, seq];
  return ["changed", 0, seq];
}

/** Each exported fight's log against the entries that recorded it: the first event changed,
 * added or removed, per fight, in the file's order. */
async function checkFights(fights, raw, report) {
  if (fights === undefined) return;
  if (!Array.isArray(fights)) {
    report.problems.push(problem("fights", null, { detail: { key: "not_list", args: { field: "fights" } } }));
    return;
  }
  const logs = [];
  for (const fight of fights) {
    const ok = fight && typeof fight === "object" && isInt(fight.fight) && Array.isArray(fight.events)
      && fight.events.every((e) => e && typeof e === "object" && isInt(e.seq) && isInt(e.action)
        && e.event && typeof e.event === "object" && !Array.isArray(e.event));
    if (!ok) {
      report.problems.push(problem("fights", null, { detail: { key: "fight", args: {} } }));
      return;
    }
    logs.push({ number: fight.fight.value, events: fight.events });
  }
  const shown = new Set(logs.map((log) => log.number));
  for (const item of raw) { // a fight the entries record but the file leaves out: no events
    const context = item && item.context;
    if (!context || typeof context !== "object" || !isInt(context.fight)) continue;
    const number = context.fight.value;
    const prefix = `#fight${number}.`;
    const actionId = String(context.action_id === undefined ? "" : context.action_id);
    if (!shown.has(number) && actionId.startsWith(prefix) && /^[0-9]+$/.test(actionId.slice(prefix.length))) {
      shown.add(number);
      logs.push({ number, events: [] });
    }
  }
  for (const fight of logs) {
    const number = fight.number;
    const prefix = `#fight${number}.`;
    const recorded = new Map();
    for (const item of raw) {
      const context = item && item.context;
      if (!context || typeof context !== "object" || plainValue(context.fight) !== number) continue;
      const actionId = String(context.action_id === undefined ? "" : context.action_id);
      const tail = actionId.slice(prefix.length);
      if (actionId.startsWith(prefix) && /^[0-9]+$/.test(tail)) recorded.set(Number(tail), item);
    }
    const groups = new Map();
    for (const stored of fight.events) {
      const action = stored.action.value;
      if (!groups.has(action)) groups.set(action, []);
      groups.get(action).push(stored);
    }
    let found = null;
    for (const [action, items] of groups) {
      const entry = recorded.get(action);
      if (entry === undefined) {
        found = problem("fight_added", null, { fight: number, event: items[0].seq.value });
        break;
      }
      const moved = items.findIndex((item, k) => item.seq.value !== action + k);
      if (moved >= 0) { // an action's events are numbered from it on
        found = problem("fight_changed", entry.seq.value, { fight: number, event: action + moved });
        break;
      }
      const mismatch = await actionMismatch(items.map((i) => i.event), entry);
      if (mismatch !== null) {
        const [kind, index, seq] = mismatch;
        found = problem(`fight_${kind}`, seq, { fight: number, event: action + index });
        break;
      }
    }
    if (found === null) {
      for (const [action, entry] of [...recorded].sort((a, b) => a[0] - b[0])) {
        const shown = entry.result && entry.result.events;
        if (!groups.has(action) && Array.isArray(shown) && shown.length > 0) {
          found = problem("fight_removed", entry.seq.value, { fight: number, event: action });
          break;
        }
      }
    }
    if (found !== null) report.problems.push(found);
  }
}

// --- sheets: the stored sheets against the entries that recorded them (issue 18) ------------

/** The sheet revisions an entry recorded, as [character, revision, sheet_hash]: each item of its
 * result's `sheets`, else, for a `sheet.…` entry, its own (a creation's character is null). */
function recordedRevisions(item) {
  const context = item && item.context;
  const result = item && item.result;
  if (!context || typeof context !== "object" || !result || typeof result !== "object") return [];
  const hashOf = (data) => (typeof data.sheet_hash === "string" ? data.sheet_hash : null);
  if (result.sheets !== undefined) {
    return (Array.isArray(result.sheets) ? result.sheets : [])
      .filter((each) => each && typeof each === "object" && !Array.isArray(each))
      .map((each) => [plainValue(each.character) ?? null, plainValue(each.revision), hashOf(each)]);
  }
  if (String(plainValue(context.action) ?? "").startsWith("sheet.")) {
    return [[plainValue(context.character) ?? null, plainValue(result.revision), hashOf(result)]];
  }
  return [];
}

/** Whether a recorded [character, revision] is that character's revision (a creation: 1). */
function names([who, number], character, revision) {
  return number === revision && (who === character || (who === null && revision === 1));
}

/** The highest revision of `character` a disclosed entry records, with that entry's seq. */
function latestRevision(raw, character) {
  let best = null;
  for (const item of raw) {
    const context = item && item.context;
    const result = item && item.result;
    if (!context || typeof context !== "object" || !result || typeof result !== "object") continue;
    const found = [];
    if (String(plainValue(context.action) ?? "").startsWith("sheet.") && plainValue(context.character) === character) {
      found.push(plainValue(result.revision));
    }
    for (const each of Array.isArray(result.sheets) ? result.sheets : []) {
      if (each && typeof each === "object" && plainValue(each.character) === character) found.push(plainValue(each.revision));
    }
    for (const revision of found) {
      if (Number.isInteger(revision) && (best === null || revision > best[0])) best = [revision, plainValue(item.seq)];
    }
  }
  return best;
}

/** Each exported sheet (`key` "sheets") or kept snapshot ("snapshots") against the entries:
 * the entry it names must have recorded that revision of it, and its `sheet_hash` this very
 * sheet; no disclosed entry may record a later revision of a stored sheet. */
async function checkSheets(sheets, raw, report, key) {
  if (sheets === undefined) return;
  if (!Array.isArray(sheets)) {
    report.problems.push(problem("sheets", null, { detail: { key: "not_list", args: { field: key } } }));
    return;
  }
  const bySeq = new Map();
  for (const item of raw) if (item && typeof item === "object" && isInt(item.seq)) bySeq.set(item.seq.value, item);
  for (const shown of sheets) {
    const ok = shown && typeof shown === "object" && isInt(shown.character) && isInt(shown.revision)
      && isInt(shown.seq) && typeof shown.name === "string" && shown.sheet && typeof shown.sheet === "object"
      && !Array.isArray(shown.sheet);
    if (!ok) {
      report.problems.push(problem("sheets", null, { detail: { key: "sheet_item", args: { field: key } } }));
      return;
    }
    const character = shown.character.value;
    const revision = shown.revision.value;
    const seq = shown.seq.value;
    const data = { name: shown.name, revision };
    const latest = key === "sheets" ? latestRevision(raw, character) : null;
    if (latest !== null && latest[0] > revision) {
      report.problems.push(problem("sheet_behind", latest[1], { ...data, recorded: latest[0] }));
      continue;
    }
    const recorded = recordedRevisions(bySeq.get(seq)).find((each) => names(each, character, revision));
    if (recorded === undefined) {
      report.problems.push(problem("sheet_entry", seq, data));
      continue;
    }
    if (recorded[2] !== null && recorded[2] !== (await digest({ name: shown.name, sheet: shown.sheet }))) {
      report.problems.push(problem(key === "sheets" ? "sheet_changed" : "snapshot_changed", seq, data));
    }
  }
}

async function checkBody(item, seq, disclosed, seeds, revealed, report) {
  if (!seeds.has(item.commitment)) {
    report.problems.push(problem("commitment", seq, { found: item.commitment }));
    return;
  }
  if (!disclosed) { // an epoch is revealed only once its hidden rolls are disclosed
    if (revealed.has(item.commitment)) report.problems.push(problem("sealed_revealed", seq));
    else report.sealed.push(seq);
    return;
  }
  const rolls = item.dice.rolls.map(([size, face]) => [size.value, face.value]);
  if (item.dice.source !== "derived") {
    report.not_derived.push(seq);
    return;
  }
  const seed = seeds.get(item.commitment);
  if (seed === null) {
    report.unrevealed.push(seq);
    return;
  }
  let faces;
  try {
    faces = await deriveFaces(seed, item.context, rolls.map(([size]) => size));
  } catch (error) {
    report.problems.push(problem("replay", seq, { detail: detailOf(error) }));
    return;
  }
  for (let k = 0; k < rolls.length; k++) {
    const [size, face] = rolls[k];
    if (faces[k] !== face) {
      report.problems.push(problem("die", seq, { die: k + 1, size, expected: faces[k], found: face }));
      return;
    }
    report.dice_checked += 1;
  }
}

/** Read a journal's text and verify it (a text that is not JSON gives a `format` problem). */
export async function verifyJournalText(text, options = {}) {
  let journal;
  try {
    journal = parseJson(text);
  } catch (error) {
    return { ok: false, entries: 0, problems: [problem("format", null, { detail: detailOf(error) })] };
  }
  return verifyJournal(journal, options);
}

// --- witnesses --------------------------------------------------------------------------------

const HEAD = /(?:#|n°)\s?(\d{1,12})\s(?:·\s)?([0-9a-f]{10,64})\b/g;

/** The journal heads a text shows (roll lines, recap footers, `journal #57 3f2a9c…`). */
export function witnessesIn(text, source = "a witness") {
  const found = [];
  for (const match of text.matchAll(HEAD)) found.push({ seq: Number(match[1]), hash: match[2], source });
  return found;
}

/** Remember the journal's last head for a campaign (storage: `localStorage` or the like). */
export function rememberHead(storage, campaign, report) {
  if (report.last) storage.setItem(`jdr-head:${campaign}`, JSON.stringify(report.last));
}

/** The head remembered for a campaign, as a witness (or none). */
export function rememberedWitness(storage, campaign) {
  const text = storage.getItem(`jdr-head:${campaign}`);
  if (!text) return [];
  const head = JSON.parse(text);
  return [{ seq: head.seq, hash: head.hash.slice(0, SHORT), source: "this browser" }];
}
