#!/usr/bin/env node
// The server's layering rule, checked: server/ is made of wings (folders),
// ordered from the bottom up, and a file may include headers of its own
// wing and of the wings below it only. No module may reach itself through
// its includes, anywhere: foo.c and foo.h count as one module "foo".
//
//   node tests/tools/layering.mjs [SERVER_DIR] [--report]
//
// Exits 1 naming every upward include (file:line, both wings) and every
// circle (its modules in order); prints the files per wing and the deepest
// include chain with --report. docs/server.md explains the wings.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, dirname, basename, extname } from 'node:path';
import { fileURLToPath } from 'node:url';

// Bottom to top; "" is server/ itself, where main.c and server.c put the
// wings together. A folder not named here is an error: a new wing takes a
// place in this order on purpose.
export const WINGS = ['base', 'storage', 'http', 'accounts', 'library', 'play', 'live', 'cli', ''];

function sources(dir) {
    const out = [];
    for (const name of readdirSync(dir).sort()) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) out.push(...sources(path));
        else if (name.endsWith('.c') || name.endsWith('.h')) out.push(path);
    }
    return out;
}

// One file's quoted includes: { target, line }.
function includes(text) {
    const found = [];
    text.split('\n').forEach((line, i) => {
        const m = /^\s*#\s*include\s+"([^"]+)"/.exec(line);
        if (m) found.push({ target: m[1], line: i + 1 });
    });
    return found;
}

const moduleOf = (rel) => rel.slice(0, -extname(rel).length);
const wingOf = (rel) => (rel.includes('/') ? rel.split('/')[0] : '');

// Reads the tree under root and checks it. Returns { problems, wings, chain }:
// problems is a list of messages (empty when the rule holds), wings maps a
// wing to its file count, chain is the longest include chain (file names).
export function check(root) {
    const files = sources(root).map((p) => relative(root, p));
    const known = new Set(files);
    const problems = [];
    const wings = new Map();
    const edges = new Map(); // module -> Set(module)
    const fileEdges = new Map(); // file -> [file]
    for (const file of files) {
        const wing = wingOf(file);
        if (!WINGS.includes(wing)) {
            problems.push(`${file}: the folder "${wing}" is not a wing; add it to WINGS in tests/tools/layering.mjs, in its place`);
            continue;
        }
        wings.set(wing, (wings.get(wing) ?? 0) + 1);
        const from = moduleOf(file);
        if (!edges.has(from)) edges.set(from, new Set());
        fileEdges.set(file, []);
        for (const { target, line } of includes(readFileSync(join(root, file), 'utf8'))) {
            // Wing paths are relative to server/; a bare name may also be a
            // neighbour in the same folder (as the compiler finds it).
            const beside = join(dirname(file), target);
            const resolved = known.has(target) ? target : known.has(beside) ? beside : null;
            if (resolved === null) continue; // the core's, the solver's or the system's
            fileEdges.get(file).push(resolved);
            const to = moduleOf(resolved);
            const toWing = wingOf(resolved);
            if (WINGS.indexOf(toWing) > WINGS.indexOf(wing)) {
                problems.push(`${file}:${line}: includes "${target}" of the wing ${toWing || '(top)'}, above ${wing || '(top)'}`);
            }
            if (to !== from) edges.get(from).add(to);
        }
    }
    for (const { modules, loop } of circles(edges)) {
        problems.push(`circle between modules ${modules.join(', ')}; one loop: ${loop.join(' -> ')} -> ${loop[0]}`);
    }
    return { problems, wings, chain: longestChain(fileEdges) };
}

// Tarjan's strongly connected components: each with more than one module,
// with one loop through it found by a walk inside it.
function circles(edges) {
    let next = 0;
    const index = new Map();
    const low = new Map();
    const stack = [];
    const onStack = new Set();
    const found = [];
    const visit = (v) => {
        index.set(v, next);
        low.set(v, next);
        next++;
        stack.push(v);
        onStack.add(v);
        for (const w of edges.get(v) ?? []) {
            if (!index.has(w)) {
                visit(w);
                low.set(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.has(w)) {
                low.set(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v) === index.get(v)) {
            const component = [];
            let w;
            do {
                w = stack.pop();
                onStack.delete(w);
                component.push(w);
            } while (w !== v);
            if (component.length > 1) found.push({ modules: component.sort(), loop: loopThrough(component, edges) });
        }
    };
    for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
    return found;
}

// A shortest loop from the component's first module back to it, by a
// breadth-first walk over the component's own edges.
function loopThrough(component, edges) {
    const inside = new Set(component);
    const start = component[0];
    const parent = new Map([[start, null]]);
    const queue = [start];
    while (queue.length > 0) {
        const v = queue.shift();
        for (const w of edges.get(v) ?? []) {
            if (!inside.has(w)) continue;
            if (w === start) {
                const path = [];
                for (let u = v; u !== null; u = parent.get(u)) path.unshift(u);
                return path;
            }
            if (!parent.has(w)) {
                parent.set(w, v);
                queue.push(w);
            }
        }
    }
    return component;
}

// The longest chain of includes between files (the graph has no loops
// between files once the module rule holds; a loop between files is cut).
function longestChain(fileEdges) {
    const memo = new Map();
    const walking = new Set();
    const longest = (f) => {
        if (memo.has(f)) return memo.get(f);
        if (walking.has(f)) return [];
        walking.add(f);
        let best = [];
        for (const g of fileEdges.get(f) ?? []) {
            const c = longest(g);
            if (c.length > best.length) best = c;
        }
        walking.delete(f);
        const chain = [f, ...best];
        memo.set(f, chain);
        return chain;
    };
    let best = [];
    for (const f of [...fileEdges.keys()].sort()) {
        const c = longest(f);
        if (c.length > best.length) best = c;
    }
    return best;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    const args = process.argv.slice(2);
    const report = args.includes('--report');
    const here = dirname(fileURLToPath(import.meta.url));
    const root = args.find((a) => !a.startsWith('--')) ?? join(here, '..', '..', 'server');
    const { problems, wings, chain } = check(root);
    if (report || problems.length === 0) {
        for (const wing of WINGS) console.log(`${(wing || '(top)').padEnd(9)} ${wings.get(wing) ?? 0} files`);
        console.log(`deepest include chain (${chain.length} files): ${chain.join(' -> ')}`);
    }
    for (const p of problems) console.error(p);
    if (problems.length > 0) {
        console.error(`${basename(root)}: ${problems.length} breaks of the layering rule`);
        process.exit(1);
    }
}
