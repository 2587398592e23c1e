// npm 11 on this registry mirror cannot see other platforms' builds (darwin, win32, musl… answer 404), so after an
// `npm install` the lock lacks them and `npm ci` refuses it as out of sync (npm/cli#4828). This writes the missing
// optional platform entries (version, os, cpu, libc; no tarball) so `npm ci` accepts the lock on every machine and
// skips them where they do not apply. Run `node scripts/lock-platforms.mjs && npm install` after changing deps.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
const pick = (name, table) => table.filter(([re]) => re.test(name)).map(([, v]) => v).slice(0, 1);

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    if (packages[`${path ? `${path}/` : ''}node_modules/${name}`] || packages[`node_modules/${name}`]) continue;
    const os = pick(name, [[/win32/, 'win32'], [/darwin/, 'darwin'], [/android/, 'android'], [/freebsd/, 'freebsd'], [/linux/, 'linux']]);
    const cpu = pick(name, [[/arm64/, 'arm64'], [/x64/, 'x64'], [/ia32/, 'ia32'], [/arm/, 'arm']]);
    const missing = { version, optional: true };
    if (entry.dev) missing.dev = true;
    if (os.length) missing.os = os;
    if (cpu.length) missing.cpu = cpu;
    if (/musl/.test(name)) missing.libc = ['musl'];
    packages[`node_modules/${name}`] = missing;
    added++;
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platforms: ${added} platform entr${added === 1 ? 'y' : 'ies'} added`);
