/**
 * Summarises a V8 CPU profile (`node --cpu-prof`) of the sandbox under load: where the main
 * thread's busy time goes, by function (self time) and by package or source file, both as self
 * time and as "on the stack" time (the share of busy samples in which that package or file is
 * anywhere on the stack: its inclusive cost, counting each sample once).
 *
 *   node --import tsx bench/profile.ts <file.cpuprofile> [fromMs toMs]     prints the summary
 *
 * Only the main JavaScript thread is sampled: work Node hands to its thread pool (WebCrypto
 * signatures, file system calls) is not in the profile; the bench's per-thread CPU figures
 * (`/proc/<pid>/task`) show that part.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  sampled_ms: number;
  busy_ms: number;
  idle_pct: number;
  gc_pct_of_busy: number;
  /** Self time, by function, as % of busy time. */
  top_functions: { name: string; self_pct: number }[];
  /** Self time by package / source file, as % of busy time. */
  self_by_group: { group: string; pct: number }[];
  /** % of busy samples with the group anywhere on the stack. */
  on_stack_by_group: { group: string; pct: number }[];
}

const root = resolve(new URL('..', import.meta.url).pathname);

/** The package (`jose`, `hono`, ...), sandbox source file (`src/auth/tokens.ts`) or runtime part a frame belongs to. */
export function groupOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const path = url.replace(/^file:\/\//, '');
  // The bench's compiled copy of the sandbox lives under node_modules/.cache: name it by source file.
  const built = /\/parcel-sandbox-bench\/build\/((?:src|fixtures)\/.*)$/.exec(path);
  if (built) return built[1]!.replace(/\.js$/, '.ts');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url.startsWith('node:internal/deps/') ? `node:${url.slice('node:internal/deps/'.length).split('/')[0]}` : url;
  const inProject = /(?:^|\/)((?:src|fixtures)\/.*)$/.exec(path.startsWith(root) ? path.slice(root.length + 1) : path);
  return inProject ? inProject[1]!.replace(/\.js$/, '.ts') : path;
}

/** Coarser than `groupOf`: node internals by area (`node:streams`, `node:crypto`), packages and source files as they are. */
export function areaOf(frame: CallFrame): string {
  const group = groupOf(frame);
  if (group.startsWith('node:internal/')) return `node:${group.slice('node:internal/'.length).split('/')[0]!.replace(/\.js$/, '')}`;
  return group;
}

function frameName(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  return frame.url ? `${name} ${groupOf(frame)}:${frame.lineNumber + 1}` : name;
}

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/**
 * `window` limits the summary to samples taken between `fromMs` and `toMs` after the profile
 * started (about when the process started), e.g. to the measured run without start-up and warm-up.
 */
export async function summariseProfile(file: string, options: { top?: number; fromMs?: number; toMs?: number } = {}): Promise<ProfileSummary> {
  const top = options.top ?? 15;
  const from = (options.fromMs ?? 0) * 1000;
  const to = (options.toMs ?? Infinity) * 1000;
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) byId.set(node.id, node);
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const self = new Map<number, number>();
  let total = 0;
  let elapsed = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    elapsed += delta;
    if (elapsed < from || elapsed > to) continue;
    total += delta;
    self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + delta);
  }

  let idle = 0;
  let gc = 0;
  const byFunction = new Map<string, number>();
  const selfGroups = new Map<string, number>();
  const onStack = new Map<string, number>();
  const stackGroups = new Map<number, Set<string>>();
  const groupsOnStack = (id: number): Set<string> => {
    const known = stackGroups.get(id);
    if (known) return known;
    const up = parent.get(id);
    const groups = new Set(up === undefined ? [] : groupsOnStack(up));
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName !== '(root)') groups.add(areaOf(frame));
    stackGroups.set(id, groups);
    return groups;
  };
  for (const [id, time] of self) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') {
      idle += time;
      continue;
    }
    if (frame.functionName === '(garbage collector)') gc += time;
    const name = frameName(frame);
    byFunction.set(name, (byFunction.get(name) ?? 0) + time);
    const group = areaOf(frame);
    selfGroups.set(group, (selfGroups.get(group) ?? 0) + time);
    for (const onIt of groupsOnStack(id)) onStack.set(onIt, (onStack.get(onIt) ?? 0) + time);
  }
  const busy = total - idle;
  const ranked = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
  return {
    file,
    sampled_ms: Math.round(total / 1000),
    busy_ms: Math.round(busy / 1000),
    idle_pct: pct(idle, total),
    gc_pct_of_busy: pct(gc, busy),
    top_functions: ranked(byFunction).map(([name, time]) => ({ name, self_pct: pct(time, busy) })),
    self_by_group: ranked(selfGroups).map(([group, time]) => ({ group, pct: pct(time, busy) })),
    on_stack_by_group: ranked(onStack).map(([group, time]) => ({ group, pct: pct(time, busy) })),
  };
}

export function formatProfile(title: string, summary: ProfileSummary): string {
  const lines = [
    `${title}: ${summary.busy_ms} ms busy of ${summary.sampled_ms} ms sampled (idle ${summary.idle_pct}%, GC ${summary.gc_pct_of_busy}% of busy)`,
    '  on the stack (inclusive, % of busy):   ' +
      summary.on_stack_by_group
        .slice(0, 12)
        .map((g) => `${g.group} ${g.pct}%`)
        .join(', '),
    '  self time by group (% of busy):        ' +
      summary.self_by_group
        .slice(0, 12)
        .map((g) => `${g.group} ${g.pct}%`)
        .join(', '),
    '  top functions (self, % of busy):',
    ...summary.top_functions.map((f) => `    ${String(f.self_pct).padStart(5)}%  ${f.name}`),
  ];
  return lines.join('\n');
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: node --import tsx bench/profile.ts <file.cpuprofile>');
  const [fromMs, toMs] = [process.argv[3], process.argv[4]].map((value) => (value === undefined ? undefined : Number(value)));
  summariseProfile(file, { top: 25, fromMs, toMs }).then((summary) => process.stdout.write(`${formatProfile(file, summary)}\n`));
}
