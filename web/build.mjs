// Builds the Activity's client into bot/features/activity/static/, ready to serve:
// index.html, assets/app.<hash>.js and assets/app.<hash>.css (content-hashed: Discord's proxy
// keeps their cache headers, and the server sends them as immutable), THIRD_PARTY_LICENSES.txt (the licence of every package whose code is in the bundle,
// the SDK's and the libraries it carries), and BUILD.json (a hash of the sources, which
// tests/test_activity_build.py checks without node). `npm ci && node build.mjs` in web/.
// The same sources and lock give the same bytes: the test rebuilds and compares when node is there.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const WEB = dirname(fileURLToPath(import.meta.url));
const OUT = process.argv[2] ?? join(WEB, "..", "bot", "features", "activity", "static");
const NODE_MODULES = join(WEB, "node_modules");

/** The files whose bytes decide the output, in a fixed order (BUILD.json hashes them). */
export function sourceFiles() {
  const walk = (dir) => readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  const files = [...walk(join(WEB, "src")), join(WEB, "build.mjs"), join(WEB, "package.json"),
    join(WEB, "package-lock.json")];
  return files.map((f) => relative(WEB, f).split(sep).join("/")).sort();
}

function sourcesHash() {
  const hash = createHash("sha256");
  for (const name of sourceFiles()) {
    const bytes = readFileSync(join(WEB, name));
    hash.update(`${name}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest("hex");
}

/** The package a bundled file comes from: node_modules/<pkg>/..., or a library the SDK
 *  carries inside itself (output/lib/<name>/...), whose licence is its own package's. */
function packageOf(input) {
  const parts = input.split("/");
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) return null;
  const scoped = parts[at + 1].startsWith("@");
  const name = scoped ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1];
  const rest = parts.slice(at + (scoped ? 3 : 2));
  if (rest[0] === "output" && rest[1] === "lib") return { name: rest[2], carriedBy: name };
  return { name, carriedBy: null };
}

function licenceOf(name) {
  const dir = join(NODE_MODULES, name);
  const file = existsSync(dir) && readdirSync(dir).find((f) => /^licen[cs]e(\.md|\.txt)?$/i.test(f));
  if (!file) throw new Error(`no licence file for ${name}: add the package (npm i -D ${name}) or its text`);
  const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return { version: meta.version, licence: meta.license, text: readFileSync(join(dir, file), "utf8").trim() };
}

function licences(metafile) {
  const found = new Map();
  for (const output of Object.values(metafile.outputs)) {
    for (const input of Object.keys(output.inputs ?? {})) {
      const pkg = packageOf(input);
      if (pkg && !found.has(pkg.name)) found.set(pkg.name, pkg.carriedBy);
    }
  }
  const names = [...found.keys()].sort();
  const parts = names.map((name) => {
    const { version, licence, text } = licenceOf(name);
    const carrier = found.get(name);
    const title = carrier
      ? `${name} (carried inside ${carrier}; the licence of ${name} ${version}): ${licence}`
      : `${name} ${version}: ${licence}`;
    return `${title}\n\n${text}\n`;
  });
  return "Third-party code in app.*.js, with its licences.\n\n" +
    parts.join(`\n${"-".repeat(72)}\n\n`);
}

async function build() {
  const result = await esbuild.build({
    entryPoints: { app: join(WEB, "src", "main.js") },
    bundle: true,
    minify: true,
    format: "iife",
    target: ["es2020", "chrome100", "safari15"],
    entryNames: "[name].[hash]",
    outdir: join(OUT, "assets"),
    write: false,
    metafile: true,
    legalComments: "none", // the licences are in THIRD_PARTY_LICENSES.txt
    logLevel: "warning",
  });
  const outputs = result.outputFiles.map((f) => ({ name: f.path.split(sep).pop(), bytes: f.contents }));
  const js = outputs.find((o) => o.name.endsWith(".js")).name;
  const css = outputs.find((o) => o.name.endsWith(".css")).name;
  const html = readFileSync(join(WEB, "src", "index.html"), "utf8")
    .replace("app.js", js).replace("app.css", css);
  mkdirSync(join(OUT, "assets"), { recursive: true });
  for (const old of readdirSync(join(OUT, "assets"))) {
    if (/^app\.[A-Z0-9]+\.(js|css)$/.test(old)) rmSync(join(OUT, "assets", old));
  }
  for (const o of outputs) writeFileSync(join(OUT, "assets", o.name), o.bytes);
  writeFileSync(join(OUT, "index.html"), html);
  writeFileSync(join(OUT, "THIRD_PARTY_LICENSES.txt"), licences(result.metafile));
  const build = { sources_sha256: sourcesHash(), files: sourceFiles(), esbuild: esbuild.version,
    outputs: [`assets/${js}`, `assets/${css}`, "index.html", "THIRD_PARTY_LICENSES.txt"] };
  writeFileSync(join(OUT, "BUILD.json"), JSON.stringify(build, null, 2) + "\n");
  console.log(`built ${js}, ${css} into ${OUT}`);
}

await build();
