// Reads Fig's completion specs (@withfig/autocomplete, MIT) for the commands
// that have a table of harmless options here, and prints the options Fig
// lists for each as JSON (scripts/fig-options.sh runs it and writes
// tests/data/fig-options.json).
//
// node scripts/fig-options.mjs PACKAGE_DIR TABLES_FILE
//   PACKAGE_DIR  the unpacked package (its build/ holds one ESM module a spec)
//   TABLES_FILE  the tables' commands, one a line as the tables spell them
//                ("git log|show|whatchanged", "python|python3 -m pytest")
//
// For each command a table reads ("git show", each alternative of the last
// word on its own) the output has Fig's options of that (sub)command and the
// persistent options of the commands above it, each with every spelling,
// whether it takes a value (none, required, optional), whether Fig marks it
// persistent and whether the value must be glued with `=`.
//
// What is skipped, because it is not data in the package:
// - specs and subcommands made by code at completion time (`generateSpec`,
//   a `loadSpec` that is a function): only what is written in the spec;
//   a `loadSpec` naming another spec file of the package is read;
// - option names that do not start with `-` (`+x`);
// - `python -m MODULE` has no subspec in Fig (only http.server): for a
//   table of `X -m MODULE ...` the spec of MODULE itself is read (pytest,
//   mypy, pip, ...), since the module reads the same options.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [packageDir, tablesFile] = process.argv.slice(2);
if (!packageDir || !tablesFile) {
  console.error("usage: node fig-options.mjs PACKAGE_DIR TABLES_FILE");
  process.exit(2);
}
const buildDir = path.join(packageDir, "build");
const version = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")).version;

const specCache = new Map();
async function loadSpecFile(name) {
  if (specCache.has(name)) return specCache.get(name);
  const file = path.join(buildDir, `${name}.js`);
  let spec = null;
  if (!name.includes("..") && fs.existsSync(file)) {
    const module = await import(pathToFileURL(file).href);
    spec = module.default ?? null;
  }
  specCache.set(name, spec);
  return spec;
}

const namesOf = (x) => (Array.isArray(x.name) ? x.name : [x.name]).filter((n) => typeof n === "string");
const skipped = { generateSpec: [], loadSpecFunction: [], notDash: 0 };

function argKind(option) {
  const args = option.args;
  if (args === undefined || args === null) return "none";
  const list = Array.isArray(args) ? args : [args];
  if (list.length === 0) return "none";
  return list.every((a) => a && a.isOptional) ? "optional" : "required";
}

function optionsOf(command, persistentOnly) {
  const out = [];
  for (const option of command.options ?? []) {
    if (persistentOnly && !option.isPersistent) continue;
    const names = [];
    let glued = Boolean(option.requiresSeparator || option.requiresEquals);
    let kind = argKind(option);
    for (const raw of namesOf(option)) {
      if (!raw.startsWith("-")) {
        skipped.notDash++;
        continue;
      }
      // "--color=auto" as a name: the option is the part before `=`.
      const eq = raw.indexOf("=", 1);
      if (eq > 0) {
        names.push(raw.slice(0, eq));
        glued = true;
        if (kind === "none") kind = "required";
      } else {
        names.push(raw);
      }
    }
    if (names.length === 0) continue;
    const entry = { names: [...new Set(names)], arg: kind };
    if (option.isPersistent) entry.persistent = true;
    if (glued) entry.glued = true;
    out.push(entry);
  }
  return out;
}

// The subcommand of `command` named `name`, read from its spec file when
// `loadSpec` names one.
async function subcommandOf(command, name, where) {
  const sub = (command.subcommands ?? []).find((s) => namesOf(s).includes(name));
  if (!sub) return null;
  if (typeof sub.loadSpec === "function") skipped.loadSpecFunction.push(where);
  if (typeof sub.loadSpec === "string") {
    const loaded = await loadSpecFile(sub.loadSpec);
    if (loaded) return { ...loaded, options: [...(sub.options ?? []), ...(loaded.options ?? [])] };
  }
  return sub;
}

// Fig's options for a command path ["git", "log"]: the last command's own
// and the persistent ones of those above it.
async function figOptions(words) {
  let start = 0;
  // `python -m pytest ...`, `coverage run -m pytest`: the module's own spec.
  const m = words.lastIndexOf("-m");
  if (m >= 0 && m + 1 < words.length) start = m + 1;
  const fig = words.slice(start);
  let command = await loadSpecFile(fig[0]);
  if (!command) return null;
  if (typeof command.generateSpec === "function") skipped.generateSpec.push(fig[0]);
  const inherited = [];
  for (let i = 1; i < fig.length; ++i) {
    inherited.push(...optionsOf(command, true).map((o) => ({ ...o, from: fig.slice(0, i).join(" ") })));
    command = await subcommandOf(command, fig[i], fig.slice(0, i + 1).join(" "));
    if (!command) return null;
  }
  return { fig: fig.join(" "), options: [...optionsOf(command, false), ...inherited] };
}

const tableCommands = fs
  .readFileSync(tablesFile, "utf8")
  .split("\n")
  .map((l) => l.trimEnd())
  .filter((l) => l.length > 0);

// Every command a table reads: the first name of each word but the last,
// and each name of the last ("git log|show" -> "git log", "git show").
const commands = new Set();
for (const line of tableCommands) {
  const words = line.split(" ");
  const head = words.slice(0, -1).map((w) => w.split("|")[0]);
  for (const last of words[words.length - 1].split("|")) {
    if (last !== "") commands.add([...head, last].join(" "));
  }
  // Other names of the program itself ("python|python3 -m pytest").
  if (words.length > 1) {
    for (const first of words[0].split("|").slice(1)) {
      commands.add([first, ...words.slice(1).map((w) => w.split("|")[0])].join(" "));
    }
  }
}

// Another name of a program that Fig has no spec of is read with the spec
// of the name the table lists first (egrep as grep, gmake as make).
const firstName = new Map();
for (const line of tableCommands) {
  const names = line.split(" ")[0].split("|");
  for (const name of names.slice(1)) firstName.set(name, names[0]);
}

// Each distinct list of options once (clang, clang++ and c++ have the same).
const fig = {};
const byContent = new Map();
const programs = {};
const lacking = [];
for (const command of [...commands].sort()) {
  const words = command.split(" ");
  let found = await figOptions(words);
  if (!found && firstName.has(words[0])) {
    found = await figOptions([firstName.get(words[0]), ...words.slice(1)]);
  }
  if (!found || found.options.length === 0) {
    lacking.push(command);
    continue;
  }
  const content = JSON.stringify(found.options);
  if (!byContent.has(content)) {
    byContent.set(content, found.fig);
    fig[found.fig] = found.options;
  }
  programs[command] = byContent.get(content);
}

const out = {
  source: `@withfig/autocomplete@${version} (MIT License, Copyright (c) 2021 Hercules Labs Inc. (Fig))`,
  generated_by: "scripts/fig-options.sh",
  skipped: {
    generate_spec: [...new Set(skipped.generateSpec)].sort(),
    load_spec_function: [...new Set(skipped.loadSpecFunction)].sort(),
    names_without_dash: skipped.notDash,
  },
  table_commands: tableCommands,
  without_fig_options: lacking,
  commands: programs,
  fig,
};
// One option a line, so that a new version's changes read as a diff.
const lines = ["{"];
const keys = Object.keys(out);
keys.forEach((key, i) => {
  const comma = i + 1 < keys.length ? "," : "";
  if (key !== "fig") {
    lines.push(` ${JSON.stringify(key)}: ${JSON.stringify(out[key], null, 1).replace(/\n\s*/g, " ")}${comma}`);
    return;
  }
  lines.push(` "fig": {`);
  const paths = Object.keys(fig);
  paths.forEach((p, j) => {
    lines.push(`  ${JSON.stringify(p)}: [`);
    fig[p].forEach((o, k) => lines.push(`   ${JSON.stringify(o)}${k + 1 < fig[p].length ? "," : ""}`));
    lines.push(`  ]${j + 1 < paths.length ? "," : ""}`);
  });
  lines.push(` }${comma}`);
});
lines.push("}");
process.stdout.write(lines.join("\n") + "\n");
