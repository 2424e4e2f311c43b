// Run the browser verifier under Node.js: node verify_cli.mjs JOURNAL.json [WITNESS.txt …]
// Prints the report as JSON (kinds, seqs and counts), for the Python tests to compare with
// `jdr verify`.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [module, journalFile, ...witnessFiles] = process.argv.slice(2);
const { verifyJournalText, witnessesIn } = await import(pathToFileURL(module).href);
const witnesses = witnessFiles.flatMap((file) => witnessesIn(readFileSync(file, "utf8"), file));
const report = await verifyJournalText(readFileSync(journalFile, "utf8"), { witnesses });
process.stdout.write(JSON.stringify(report) + "\n");
