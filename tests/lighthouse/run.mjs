// `make lighthouse`: Lighthouse's performance, accessibility and best-practices scores of the front
// page (no account), the lobby and a game page (a game against the computer), on a desktop and a
// phone, in Debian's chromium. The player's token goes into localStorage before the page loads
// (the client keeps it there), through puppeteer, the way Lighthouse documents for pages behind
// a log-in. Usage: node run.mjs <base url> <token> <game id> [out dir]
import { writeFileSync, mkdirSync } from "node:fs";
import puppeteer from "puppeteer-core";
import lighthouse, { desktopConfig } from "lighthouse";

const [base, token, gameId, out = "lighthouse-reports"] = process.argv.slice(2);
const chrome = process.env.CHROME_PATH || "/usr/bin/chromium";
const pages = [["front", "/#/", null], ["lobby", "/#/", token], ["game", `/#/games/${gameId}`, token]];
const CATEGORIES = ["performance", "accessibility", "best-practices"];
mkdirSync(out, { recursive: true });

const rows = [];
for (const [formFactor, config] of [["desktop", desktopConfig], ["mobile", undefined]]) {
  for (const [name, path, key] of pages) {
    const browser = await puppeteer.launch({ executablePath: chrome, headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
    const page = await browser.newPage();
    // A clean origin, then the token (or none) for the page measured.
    await page.goto(`${base}/sw.js`);
    await page.evaluate((value) => { localStorage.clear(); if (value) localStorage.setItem("darkroom.token", value); }, key);
    const result = await lighthouse(`${base}${path}`, { output: "html", onlyCategories: CATEGORIES, logLevel: "error" }, config, page);
    writeFileSync(`${out}/${name}-${formFactor}.html`, result.report);
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round(result.lhr.categories[c].score * 100)]));
    const failed = Object.values(result.lhr.audits).filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== "informative"
      && a.scoreDisplayMode !== "notApplicable").map((a) => a.id);
    rows.push({ page: name, formFactor, ...scores, below: failed.join(" ") });
    await browser.close();
  }
}
console.table(rows);
writeFileSync(`${out}/scores.json`, JSON.stringify(rows, null, 2));
