import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import type { Socket } from 'node:net';
import path from 'node:path';
import { onPath, SCHEMATRONS, type SchematronName, saxonJar } from './validate';

/**
 * The three schematrons run by Saxon-HE on a JVM (lib/domain/facturx/SchematronServer.java): the official stylesheets,
 * compiled once when the process starts, then about 20 ms of CPU per 10-line invoice where SaxonJS takes about 130
 * (docs/facturx.md "Two engines"). One JVM per Node process, started at the first validation, two threads.
 */
const SERVER = path.join(process.cwd(), 'lib/domain/facturx/SchematronServer.java');
const NAMES = Object.keys(SCHEMATRONS) as SchematronName[];

export interface SchematronReports {
  /** Each stylesheet's SVRL. */
  reports: Record<string, string>;
  /** Saxon could not parse the document (then `reports` is empty): why. */
  unparsable?: string;
}

/** Java on the PATH and the Saxon-HE jar readable (Debian: default-jre-headless libsaxonhe-java). */
export function jvmAvailable(): boolean {
  try {
    accessSync(saxonJar(), constants.R_OK);
  } catch {
    return false;
  }
  return onPath('java');
}

interface Pending {
  resolve: (reports: SchematronReports) => void;
  reject: (err: Error) => void;
  reports: Record<string, string>;
}

export class JvmSchematron {
  private child: ChildProcessWithoutNullStreams | null = null;
  private ready: Promise<void> | null = null;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private buffer: Buffer = Buffer.alloc(0);

  private start(): Promise<void> {
    const child = spawn(
      'java',
      [
        // Small heaps, two cores: the serial collector costs the least CPU.
        '-XX:+UseSerialGC',
        `-Xmx${process.env.EINVOICE_JVM_HEAP ?? '512m'}`,
        '-cp',
        saxonJar(),
        SERVER,
        ...NAMES.map((name) => `${name}=${SCHEMATRONS[name]}`),
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    this.child = child;
    this.buffer = Buffer.alloc(0);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    return new Promise<void>((resolve, reject) => {
      let started = false;
      const fail = (err: Error) => {
        // The next call starts a fresh JVM; the calls in flight are refused with the cause.
        if (this.child === child) {
          this.child = null;
          this.ready = null;
        }
        if (!started) reject(err);
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
      };
      child.on('error', fail);
      child.on('exit', (code, signal) => fail(new Error(`the Saxon JVM exited (${signal ?? code})${stderr ? `: ${stderr.trim()}` : ''}`)));
      child.stdout.on('data', (chunk: Buffer) => {
        this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
        if (!started) {
          const nl = this.buffer.indexOf(10);
          if (nl < 0) return;
          const first = this.buffer.subarray(0, nl).toString();
          this.buffer = this.buffer.subarray(nl + 1);
          if (first !== 'READY') return fail(new Error(`the Saxon JVM answered "${first}"`));
          started = true;
          this.idle();
          resolve();
        }
        this.drain();
      });
    });
  }

  /** Reads every complete frame of the buffer: "<id> <name> <bytes>\n<body>". */
  private drain() {
    for (;;) {
      const nl = this.buffer.indexOf(10);
      if (nl < 0) return;
      const [idText, name, bytes] = this.buffer.subarray(0, nl).toString().split(' ');
      const end = nl + 1 + Number(bytes);
      if (this.buffer.length < end) return;
      const body = this.buffer.subarray(nl + 1, end).toString('utf8');
      this.buffer = this.buffer.subarray(end);
      const id = Number(idText);
      const p = this.pending.get(id);
      if (!p) continue;
      if (name === 'END' || name === 'UNPARSABLE' || name === 'ERROR') {
        this.pending.delete(id);
        if (this.pending.size === 0) this.idle();
        if (name === 'ERROR') p.reject(new Error(`e-invoice validation (Saxon JVM): ${body}`));
        else p.resolve(name === 'END' ? { reports: p.reports } : { reports: {}, unparsable: body });
      } else {
        p.reports[name!] = body;
      }
    }
  }

  /** An idle JVM must not keep a CLI or a test process alive; one with work in flight must. */
  private idle() {
    const child = this.child;
    if (!child) return;
    child.unref();
    for (const pipe of [child.stdin, child.stdout, child.stderr] as unknown as Socket[]) pipe.unref();
  }

  private busy() {
    const child = this.child;
    if (!child) return;
    child.ref();
    (child.stdout as unknown as Socket).ref();
  }

  /** Starts the JVM now rather than at the first validation (it compiles the stylesheets: several seconds). */
  warmUp(): Promise<void> {
    this.ready ??= this.start();
    return this.ready;
  }

  async run(xml: string): Promise<SchematronReports> {
    await this.warmUp();
    const child = this.child!;
    const id = this.next++;
    const bytes = Buffer.from(xml, 'utf8');
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, reports: {} });
      this.busy();
      child.stdin.write(`${id} ${bytes.length}\n`);
      child.stdin.write(bytes);
    });
  }
}
